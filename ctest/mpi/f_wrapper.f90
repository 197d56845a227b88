! ctest test_mpi_f_wrapper: a `use mpi` program built by the installed mpifort wrapper:
! MPI_ALLGATHER, MPI_SENDRECV with a status, MPI_COMM_DUP, MPI_COMM_GROUP with
! MPI_GROUP_TRANSLATE_RANKS, MPI_SCAN, MPI_GATHERV and MPI_GET_VERSION.
program f_wrapper
  use mpi
  implicit none
  integer :: ierr, rank, np, i, dup, grp, wgrp, ver, sub, inrank(1), outrank(1), total
  integer :: status(MPI_STATUS_SIZE)
  integer, allocatable :: vals(:), counts(:), displs(:), gathered(:)
  integer :: token, got

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call MPI_GET_VERSION(ver, sub, ierr)
  call expect(ver == MPI_VERSION .and. sub == MPI_SUBVERSION, 'MPI_GET_VERSION')

  allocate(vals(np), counts(np), displs(np), gathered(np * (np + 1) / 2))
  call MPI_ALLGATHER(rank * 3, 1, MPI_INTEGER, vals, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS .and. vals(np) == 3 * (np - 1), 'MPI_ALLGATHER')
  do i = 1, np
    call expect(vals(i) == 3 * (i - 1), 'MPI_ALLGATHER data')
  end do

  token = 1000 + rank
  call MPI_SENDRECV(token, 1, MPI_INTEGER, mod(rank + 1, np), 3, got, 1, MPI_INTEGER, &
                    mod(rank + np - 1, np), 3, MPI_COMM_WORLD, status, ierr)
  call expect(got == 1000 + mod(rank + np - 1, np), 'MPI_SENDRECV data')
  call expect(status(MPI_SOURCE) == mod(rank + np - 1, np), 'MPI_SENDRECV source')

  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_GROUP(dup, grp, ierr)
  call MPI_COMM_GROUP(MPI_COMM_WORLD, wgrp, ierr)
  inrank(1) = np - 1
  call MPI_GROUP_TRANSLATE_RANKS(grp, 1, inrank, wgrp, outrank, ierr)
  call expect(ierr == MPI_SUCCESS .and. outrank(1) == np - 1, 'MPI_GROUP_TRANSLATE_RANKS')
  call MPI_GROUP_FREE(grp, ierr)
  call MPI_GROUP_FREE(wgrp, ierr)
  call expect(grp == MPI_GROUP_NULL, 'MPI_GROUP_FREE')

  call MPI_SCAN(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  call expect(total == (rank + 1) * (rank + 2) / 2, 'MPI_SCAN')

  ! Rank r contributes r+1 copies of r.
  counts = [(i, i = 1, np)]
  displs = [(i * (i - 1) / 2, i = 1, np)]
  vals(1:rank + 1) = rank
  gathered = -1
  call MPI_GATHERV(vals, rank + 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, 0, dup, &
                   ierr)
  if (rank == 0) then
    do i = 1, np
      call expect(all_equal(gathered(displs(i) + 1:displs(i) + i), i - 1), 'MPI_GATHERV data')
    end do
  end if
  call MPI_COMM_FREE(dup, ierr)

  call MPI_FINALIZE(ierr)
  if (rank == 0) print '(a, i0, a)', 'f_wrapper: ', np, ' ranks OK'

contains

  logical function all_equal(v, x)
    integer, intent(in) :: v(:), x
    all_equal = all(v == x)
  end function all_equal

  !> Ends the job with exit status 1, naming what, unless ok.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: e
    if (.not. ok) then
      print *, 'f_wrapper FAILED: ', what
      call MPI_ABORT(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine expect

end program f_wrapper
