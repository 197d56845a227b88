! ctest test_mpi_f_spawn: dynamic processes from `use mpi`. MPI_COMM_SPAWN of this program (two
! children, arguments 'child' and 'a b' given at the root only, a blank string ending the list;
! the other ranks pass MPI_ARGV_NULL) and MPI_COMM_SPAWN_MULTIPLE of it twice from
! MPI_COMM_SELF of rank 0 (argument rows 'child','one' and 'child','two' of a
! CHARACTER ARRAY_OF_ARGV(2, 3), MPI_ERRCODES_IGNORE). Each child checks its command line and
! MPI_APPNUM and sends a code to the parents, who check the codes; every check failed by a
! child is counted at the parents too.
program f_spawn
  use mpi
  implicit none
  integer :: ierr, rank, np, parent, inter, codes(2), i, got, want, total
  integer :: maxprocs(2), infos(2)
  character(len=256) :: me, arg
  character(len=16) :: argv(3)
  character(len=256) :: cmds(2)
  character(len=16) :: argvs(2, 3)

  call MPI_INIT(ierr)
  call MPI_COMM_GET_PARENT(parent, ierr)
  if (parent /= MPI_COMM_NULL) then
    call child(parent)
    call MPI_FINALIZE(ierr)
    stop
  end if
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call get_command_argument(0, me)

  ! MPI_COMM_SPAWN: root np-1, arguments there only.
  if (rank == np - 1) then
    argv(1) = 'child'
    argv(2) = 'a b'
    argv(3) = ' '
    call MPI_COMM_SPAWN(me, argv, 2, MPI_INFO_NULL, np - 1, MPI_COMM_WORLD, inter, codes, ierr)
  else
    call MPI_COMM_SPAWN(' ', MPI_ARGV_NULL, 2, MPI_INFO_NULL, np - 1, MPI_COMM_WORLD, inter, &
                        codes, ierr)
  end if
  call check(ierr == MPI_SUCCESS .and. all(codes == MPI_SUCCESS), 'MPI_COMM_SPAWN')
  if (rank == 0) then
    total = 0
    do i = 0, 1
      call MPI_RECV(got, 1, MPI_INTEGER, i, 7, inter, MPI_STATUS_IGNORE, ierr)
      total = total + got
    end do
    ! Each child sends 1000 + 10 * (its check failures) + (number of arguments, 2).
    call check(total == 2 * 1002, 'the spawned children saw their arguments')
  end if
  call MPI_COMM_DISCONNECT(inter, ierr)

  ! MPI_COMM_SPAWN_MULTIPLE from rank 0 alone: two commands, one process each.
  if (rank == 0) then
    cmds = me
    argvs = ' '
    argvs(1, 1) = 'child'
    argvs(1, 2) = 'one'
    argvs(2, 1) = 'child'
    argvs(2, 2) = 'two'
    maxprocs = 1
    infos = MPI_INFO_NULL
    call MPI_COMM_SPAWN_MULTIPLE(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_SELF, inter, &
                                 MPI_ERRCODES_IGNORE, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_SPAWN_MULTIPLE')
    do i = 0, 1
      call MPI_RECV(got, 1, MPI_INTEGER, i, 7, inter, MPI_STATUS_IGNORE, ierr)
      ! App 0 got 'one' (code 2001), app 1 'two' (code 2101).
      want = 2001 + 100 * i
      call check(got == want, 'a child of MPI_COMM_SPAWN_MULTIPLE saw its row and APPNUM')
    end do
    call MPI_COMM_DISCONNECT(inter, ierr)
  end if
  if (rank == 0) print '(a)', 'f_spawn ok'
  call MPI_FINALIZE(ierr)

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: e
    if (.not. ok) then
      print '(a,i0,2a)', 'rank ', rank, ': failed: ', what
      call MPI_ABORT(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine check

  ! A child: checks its command line (and, spawned by MPI_COMM_SPAWN_MULTIPLE, its MPI_APPNUM
  ! against its row) and sends its code to the parents' rank 0 of its app.
  subroutine child(parent)
    integer, intent(in) :: parent
    integer :: n, bad, code, p
    integer(kind=MPI_ADDRESS_KIND) :: appnum
    logical :: flag
    n = command_argument_count()
    bad = 0
    call get_command_argument(1, arg)
    if (arg /= 'child') bad = bad + 1
    call get_command_argument(2, arg)
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_APPNUM, appnum, flag, ierr)
    if (arg == 'a b') then
      code = 1000 + 10 * bad + n
      if (.not. flag .or. appnum /= 0) code = code + 10
    else
      ! MPI_COMM_SPAWN_MULTIPLE: 'one' for app 0, 'two' for app 1.
      if (.not. flag) bad = bad + 1
      if (flag .and. appnum == 0 .and. arg /= 'one') bad = bad + 1
      if (flag .and. appnum == 1 .and. arg /= 'two') bad = bad + 1
      code = 2000 + 10 * bad + 100 * int(appnum) + n - 1
    end if
    if (n /= 2) code = code + 10
    call MPI_SEND(code, 1, MPI_INTEGER, 0, 7, parent, ierr)
    p = parent
    call MPI_COMM_DISCONNECT(p, ierr)
  end subroutine child
end program f_spawn
