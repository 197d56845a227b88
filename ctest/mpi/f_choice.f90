! ctest test_mpi_f_choice: `use mpi` choice buffers of any type, kind and rank in one file, as
! real codes write them (CloverLeaf passes REAL(8) to one MPI_ALLREDUCE and INTEGER to the next).
! gfortran rejects such a file against implicit interfaces ("Type mismatch between actual
! argument at (1) and actual argument at (2)") unless -fallow-argument-mismatch is given; the
! module's explicit interfaces take any buffer. Built with -Wall -Werror and no such flag:
! MPI_ALLREDUCE of a REAL(8) scalar, an INTEGER array, a 2-D REAL(4) array and a LOGICAL;
! MPI_BCAST of a CHARACTER string and a COMPLEX(8) array; MPI_SENDRECV around a ring with a
! 2-D INTEGER(8) array; MPI_IN_PLACE; every result checked. The other arguments are checked by
! the interfaces too: a count of the wrong kind would not compile.
program f_choice
  use mpi
  implicit none
  integer :: ierr, rank, np, next, prev, i
  integer :: counts(3), total(3), status(MPI_STATUS_SIZE)
  real(8) :: x, sx
  real(4) :: grid(2, 2), gsum(2, 2)
  logical :: mine, all_true
  character(len=8) :: word
  complex(8) :: z(2)
  integer(8) :: out(2, 2), got(2, 2)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)

  x = 1.5d0 * rank
  call MPI_ALLREDUCE(x, sx, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS .and. sx == 1.5d0 * np * (np - 1) / 2, 'REAL(8) scalar')

  counts = [rank, 1, 2]
  call MPI_ALLREDUCE(counts, total, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(all(total == [np * (np - 1) / 2, np, 2 * np]), 'INTEGER array')

  grid = reshape([1.0, 2.0, 3.0, 4.0], [2, 2])
  call MPI_ALLREDUCE(grid, gsum, 4, MPI_REAL, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect(all(gsum == grid), '2-D REAL(4) array')

  call MPI_ALLREDUCE(MPI_IN_PLACE, counts, 3, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  call expect(all(counts == [0, 1, 2]), 'MPI_IN_PLACE')

  mine = .true.
  call MPI_ALLREDUCE(mine, all_true, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call expect(all_true, 'LOGICAL')

  word = 'unset'
  if (rank == 0) word = 'nexar!'
  call MPI_BCAST(word, len(word), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  call expect(word == 'nexar!', 'CHARACTER')

  z = (0d0, 0d0)
  if (rank == np - 1) z = [(1d0, 2d0), (3d0, -4d0)]
  call MPI_BCAST(z, 2, MPI_DOUBLE_COMPLEX, np - 1, MPI_COMM_WORLD, ierr)
  call expect(all(z == [(1d0, 2d0), (3d0, -4d0)]), 'COMPLEX(8)')

  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)
  out = reshape([(int(rank, 8) * 100 + i, i = 1, 4)], [2, 2])
  call MPI_SENDRECV(out, 4, MPI_INTEGER8, next, 7, got, 4, MPI_INTEGER8, prev, 7, &
                    MPI_COMM_WORLD, status, ierr)
  call expect(all(got == reshape([(int(prev, 8) * 100 + i, i = 1, 4)], [2, 2])), &
              'INTEGER(8) 2-D ring')
  call expect(status(MPI_SOURCE) == prev, 'status source')

  call MPI_FINALIZE(ierr)

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a, i0, 2a)', 'rank ', rank, ': FAILED: ', what
      call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
    end if
  end subroutine expect
end program f_choice
