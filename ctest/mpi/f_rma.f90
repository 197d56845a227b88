! ctest test_mpi_f_rma: one-sided communication from `use mpi`: MPI_WIN_CREATE over an INTEGER
! array (INTEGER(KIND=MPI_ADDRESS_KIND) size and displacement), a ring of MPI_PUTs between
! MPI_WIN_FENCEs, MPI_ACCUMULATE (MPI_SUM) from every rank under MPI_WIN_LOCK / MPI_WIN_UNLOCK,
! MPI_GET, MPI_WIN_SET_NAME / MPI_WIN_GET_NAME, MPI_WIN_FREE (the handle becomes MPI_WIN_NULL).
program f_rma
  use mpi
  implicit none
  integer :: ierr, rank, np, win, right, left, r, v, got, rlen
  integer :: buf(4)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  character(len=MPI_MAX_OBJECT_NAME) :: wname

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  buf = 0
  wsize = 16
  call MPI_WIN_CREATE(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_WIN_CREATE')
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)

  v = 100 + rank
  disp = 1
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_PUT(v, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call check(buf(2) == 100 + left, 'ring of puts')

  v = rank + 1
  disp = 3
  do r = 0, np - 1
    call MPI_WIN_LOCK(MPI_LOCK_EXCLUSIVE, r, 0, win, ierr)
    call MPI_ACCUMULATE(v, 1, MPI_INTEGER, r, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_WIN_UNLOCK(r, win, ierr)
  end do
  call MPI_WIN_FENCE(0, win, ierr)
  call check(buf(4) == np * (np + 1) / 2, 'accumulated sum')
  got = -1
  call MPI_GET(got, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call check(got == np * (np + 1) / 2, 'get')

  call MPI_WIN_SET_NAME(win, 'ring', ierr)
  call MPI_WIN_GET_NAME(win, wname, rlen, ierr)
  call check(rlen == 4 .and. wname == 'ring', 'window name')
  call MPI_WIN_FREE(win, ierr)
  call check(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL, 'MPI_WIN_FREE')
  if (rank == 0) print '(a)', 'f_rma ok'
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
end program f_rma
