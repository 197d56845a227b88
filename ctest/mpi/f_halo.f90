! ctest test_mpi_f_halo: a legacy-style free-form program with `use mpi`. A 2-D field
! b(0:L+1, M) is split over the ranks along its first dimension (MPI_DIMS_CREATE and a
! non-periodic MPI_CART_CREATE; MPI_CART_SHIFT gives MPI_PROC_NULL at both ends). Each step
! exchanges the halo slices b(0,:) and b(L+1,:) -- strided in memory, so described by an
! MPI_TYPE_VECTOR (committed) -- with MPI_SENDRECV, then smooths along the first dimension.
! Every rank runs the same computation serially on the whole field and compares its block; the
! global sum comes from MPI_ALLREDUCE with MPI_IN_PLACE, and an MPI_COMM_SPLIT into even and
! odd ranks sums their blocks (again in place), both checked against the serial field; last an
! MPI_ALLTOALLW with byte displacements.
program f_halo
  use mpi
  implicit none
  integer, parameter :: L = 4, M = 3, STEPS = 5
  integer :: ierr, rank, np, cart, crank, left, right, slice, i, k, s, ng, i0, sub, subsize
  integer :: dims(1), coords(1), status(MPI_STATUS_SIZE), cnt
  logical :: periods(1)
  double precision :: b(0:L+1, M), nb(0:L+1, M), total, want, part
  double precision, allocatable :: g(:, :), ng_(:, :)
  integer, allocatable :: sc(:), sd(:), st(:), rc(:), rd(:), rt(:), sv(:), rv(:)

  call MPI_INIT(ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_INIT')
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)

  dims = 0
  call MPI_DIMS_CREATE(np, 1, dims, ierr)
  call expect(ierr == MPI_SUCCESS .and. dims(1) == np, 'MPI_DIMS_CREATE')
  periods = .false.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call expect(ierr == MPI_SUCCESS .and. cart /= MPI_COMM_NULL, 'MPI_CART_CREATE')
  call MPI_COMM_RANK(cart, crank, ierr)
  call MPI_CART_COORDS(cart, crank, 1, coords, ierr)
  call expect(ierr == MPI_SUCCESS .and. coords(1) == crank, 'MPI_CART_COORDS')
  call MPI_CART_SHIFT(cart, 0, 1, left, right, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_CART_SHIFT')
  call expect((left == MPI_PROC_NULL) .eqv. (crank == 0), 'left end is MPI_PROC_NULL')
  call expect((right == MPI_PROC_NULL) .eqv. (crank == np - 1), 'right end is MPI_PROC_NULL')
  if (crank > 0) call expect(left == crank - 1, 'left neighbour')
  if (crank < np - 1) call expect(right == crank + 1, 'right neighbour')

  ! One slice b(i, 1:M): M doubles, L + 2 apart.
  call MPI_TYPE_VECTOR(M, 1, L + 2, MPI_DOUBLE_PRECISION, slice, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_TYPE_VECTOR')
  call MPI_TYPE_COMMIT(slice, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_TYPE_COMMIT')

  ! The field; the halo starts (and at the ends stays) zero.
  i0 = crank * L
  b = 0d0
  do k = 1, M
    do i = 1, L
      b(i, k) = initial(i0 + i, k)
    end do
  end do

  do s = 1, STEPS
    ! Last interior slice to the right, left halo from the left; then the other way.
    call MPI_SENDRECV(b(L, 1), 1, slice, right, 7, b(0, 1), 1, slice, left, 7, cart, &
                      status, ierr)
    call expect(ierr == MPI_SUCCESS, 'MPI_SENDRECV rightward')
    call expect(status(MPI_SOURCE) == left, 'MPI_SENDRECV source')
    call MPI_GET_COUNT(status, slice, cnt, ierr)
    call expect(cnt == merge(0, 1, left == MPI_PROC_NULL), 'MPI_GET_COUNT of a slice')
    call MPI_SENDRECV(b(1, 1), 1, slice, left, 8, b(L + 1, 1), 1, slice, right, 8, cart, &
                      status, ierr)
    call expect(ierr == MPI_SUCCESS, 'MPI_SENDRECV leftward')
    call expect(status(MPI_SOURCE) == right, 'MPI_SENDRECV source (leftward)')
    nb = b
    do k = 1, M
      do i = 1, L
        nb(i, k) = (b(i - 1, k) + b(i, k) + b(i + 1, k)) / 3d0
      end do
    end do
    b = nb
  end do

  ! The serial computation of the whole field.
  ng = np * L
  allocate(g(0:ng + 1, M), ng_(0:ng + 1, M))
  g = 0d0
  do k = 1, M
    do i = 1, ng
      g(i, k) = initial(i, k)
    end do
  end do
  do s = 1, STEPS
    ng_ = g
    do k = 1, M
      do i = 1, ng
        ng_(i, k) = (g(i - 1, k) + g(i, k) + g(i + 1, k)) / 3d0
      end do
    end do
    g = ng_
  end do
  call expect(all(abs(b(1:L, :) - g(i0 + 1:i0 + L, :)) <= 1d-12), 'block equals serial')
  call expect(all(b(0, :) == 0d0) .or. left /= MPI_PROC_NULL, 'left boundary untouched')

  ! Global sum in place.
  total = sum(b(1:L, :))
  call MPI_ALLREDUCE(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_ALLREDUCE in place')
  want = sum(g(1:ng, :))
  call expect(abs(total - want) <= 1d-9 * (1d0 + abs(want)), 'global sum')

  ! Even and odd ranks: the sum of their blocks.
  call MPI_COMM_SPLIT(cart, mod(crank, 2), crank, sub, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_COMM_SPLIT')
  call MPI_COMM_SIZE(sub, subsize, ierr)
  call expect(subsize == (np - mod(crank, 2) + 1) / 2, 'split size')
  part = sum(b(1:L, :))
  call MPI_ALLREDUCE(MPI_IN_PLACE, part, 1, MPI_DOUBLE_PRECISION, MPI_SUM, sub, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_ALLREDUCE on the split')
  want = 0d0
  do s = mod(crank, 2), np - 1, 2
    want = want + sum(g(s * L + 1:s * L + L, :))
  end do
  call expect(abs(part - want) <= 1d-9 * (1d0 + abs(want)), 'split sum')

  ! MPI_ALLTOALLW: one integer to every rank, byte displacements, a datatype per peer.
  allocate(sc(np), sd(np), st(np), rc(np), rd(np), rt(np), sv(np), rv(2 * np))
  do s = 1, np
    sv(s) = 100 * crank + s - 1
    sc(s) = 1
    sd(s) = 4 * (np - s)
    st(s) = MPI_INTEGER
    rc(s) = 1
    rd(s) = 8 * (s - 1)
    rt(s) = MPI_INTEGER
  end do
  sv = sv(np:1:-1)
  rv = -1
  call MPI_ALLTOALLW(sv, sc, sd, st, rv, rc, rd, rt, cart, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_ALLTOALLW')
  do s = 1, np
    call expect(rv(2 * s - 1) == 100 * (s - 1) + crank .and. rv(2 * s) == -1, &
                'MPI_ALLTOALLW data')
  end do

  call MPI_COMM_FREE(sub, ierr)
  call MPI_TYPE_FREE(slice, ierr)
  call expect(ierr == MPI_SUCCESS .and. slice == MPI_DATATYPE_NULL, 'MPI_TYPE_FREE')
  call MPI_COMM_FREE(cart, ierr)
  call expect(ierr == MPI_SUCCESS .and. cart == MPI_COMM_NULL, 'MPI_COMM_FREE')
  call MPI_FINALIZE(ierr)
  if (rank == 0) print '(a, i0, a)', 'f_halo: ', np, ' ranks OK'

contains

  !> The initial value of global cell (i, k).
  pure double precision function initial(i, k)
    integer, intent(in) :: i, k
    initial = dble(mod(i * 7 + k * 5, 13)) + 0.5d0 * k
  end function initial

  !> Ends the job with exit status 1, naming what, unless ok.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: e
    if (.not. ok) then
      print *, 'f_halo FAILED: ', what
      call MPI_ABORT(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine expect

end program f_halo
