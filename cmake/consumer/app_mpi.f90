! The consumer's MPI Fortran program (nexar::mpi_fortran): `use mpi`, an Allreduce of the
! ranks checked against the closed form.
program app_mpi
  use mpi
  implicit none
  integer :: ierr, rank, np, total
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call MPI_ALLREDUCE(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. total /= np * (np - 1) / 2) then
    print *, 'app_mpi: wrong sum', total
    call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_FINALIZE(ierr)
  if (rank == 0) print '(a, i0, a)', 'app_mpi: ', np, ' ranks OK'
end program app_mpi
