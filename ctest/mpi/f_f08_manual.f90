! ctest test_mpi_f_f08_manual: the routines bound by hand, from `use mpi_f08`: MPI_Comm_get_attr
! of MPI_TAG_UB; MPI_Op_create of a reduction with f08's interface (TYPE(C_PTR), VALUE buffers,
! TYPE(MPI_Datatype)) in MPI_Allreduce; MPI_Win_allocate's TYPE(C_PTR) base and gets through
! it; a keyval with MPI_COMM_DUP_FN; a communicator error handler that gets TYPE(MPI_Comm);
! MPI_Comm_idup_with_info and MPI_Neighbor_alltoallw on a periodic ring.
! Built with -Wall -Werror.
module f08_manual_procs
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  type(MPI_Comm) :: seen_comm
  integer :: seen_code = -1
contains
  subroutine maxabs(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    if (datatype /= MPI_INTEGER) then
      b = -999
    else
      b = max(abs(a), abs(b))
    end if
  end subroutine maxabs

  subroutine on_error(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    seen_comm = comm
    seen_code = code
  end subroutine on_error
end module f08_manual_procs

program f_f08_manual
  use mpi_f08
  use f08_manual_procs
  implicit none
  integer :: rank, np, right, got, a(2), b(2), kv, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, wsize, disp, extra
  logical :: flag
  type(MPI_Op) :: op
  type(MPI_Win) :: win
  type(MPI_Comm) :: c1, c2
  type(MPI_Errhandler) :: eh
  type(c_ptr) :: base
  integer, pointer :: w(:)
  type(MPI_Request) :: req
  integer :: nsend(2), nrecv(2), ncounts(2)
  integer(kind=MPI_ADDRESS_KIND) :: ndispl(2)
  type(MPI_Datatype) :: ntypes(2)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  right = mod(rank + 1, np)

  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call expect(flag .and. val >= 32767, 'MPI_TAG_UB')

  call MPI_Op_create(maxabs, .true., op)
  a = [-(rank + 1), 3]
  call MPI_Allreduce(a, b, 2, MPI_INTEGER, op, MPI_COMM_WORLD)
  if (np == 1) b = abs(b)
  call expect(all(b == [np, 3]), 'MPI_Op_create with an f08 procedure')
  call MPI_Op_free(op)

  wsize = 8
  call MPI_Win_allocate(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win)
  call c_f_pointer(base, w, [2])
  w = [10 * rank, 10 * rank + 1]
  disp = 1
  got = -1
  call MPI_Win_fence(0, win)
  call MPI_Get(got, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call expect(got == 10 * right + 1, 'MPI_Win_allocate with TYPE(C_PTR)')
  call MPI_Win_free(win)

  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv, extra)
  call MPI_Comm_dup(MPI_COMM_WORLD, c1)
  val = 77
  call MPI_Comm_set_attr(c1, kv, val)
  call MPI_Comm_dup(c1, c2)
  val = -1
  call MPI_Comm_get_attr(c2, kv, val, flag)
  call expect(flag .and. val == 77, 'MPI_COMM_DUP_FN from mpi_f08')

  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_set_errhandler(c2, eh)
  call MPI_Comm_call_errhandler(c2, MPI_ERR_OTHER, ierr)
  call expect(seen_comm == c2 .and. seen_code == MPI_ERR_OTHER, 'an f08 error handler')
  call MPI_Errhandler_free(eh)
  call MPI_Comm_free(c2)
  call MPI_Comm_free(c1)
  call MPI_Comm_free_keyval(kv)

  call MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, c1, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Cart_create(c1, 1, [np], [.true.], .false., c2)
  nsend = [100 + rank, 200 + rank]
  nrecv = -1
  ncounts = 1
  ndispl = [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND]
  ntypes = MPI_INTEGER
  call MPI_Neighbor_alltoallw(nsend, ncounts, ndispl, ntypes, nrecv, ncounts, ndispl, ntypes, c2)
  call expect(nrecv(1) == 200 + mod(rank + np - 1, np) .and. nrecv(2) == 100 + right, &
              'MPI_Neighbor_alltoallw from mpi_f08')
  call MPI_Comm_free(c2)
  call MPI_Comm_free(c1)

  if (rank == 0) print '(a)', 'f_f08_manual ok'
  call MPI_Finalize()

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a, i0, 2a)', 'rank ', rank, ': FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine expect
end program f_f08_manual
