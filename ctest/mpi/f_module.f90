! ctest test_mpi_f_module: a free-form program with `use mpi`: MPI_BCAST, MPI_REDUCE,
! MPI_COMM_SPLIT, MPI_BARRIER, MPI_GET_PROCESSOR_NAME and MPI_ERROR_STRING (blank-padded
! output strings), MPI_COMM_SET_NAME / MPI_COMM_GET_NAME (trimmed input string), handles
! compared as integers, MPI_COMM_SET_ERRHANDLER(MPI_ERRORS_RETURN) then a bad rank that returns
! an error of class MPI_ERR_RANK, MPI_WAITANY (1-based index) and MPI_WTIME.
program f_module
  use mpi
  implicit none
  integer :: ierr, rank, np, i, color, sub, subrank, subsize, cls, n, idx, cmp
  integer :: vals(3), total(3), req(2), status(MPI_STATUS_SIZE)
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  double precision :: t0, t1
  logical :: flag

  call MPI_INIT(ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_INIT')
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  t0 = MPI_WTIME()

  ! Bcast from the last rank.
  vals = [(merge(100 * i, -1, rank == np - 1), i = 1, 3)]
  call MPI_BCAST(vals, 3, MPI_INTEGER, np - 1, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_BCAST')
  call expect(all(vals == [100, 200, 300]), 'MPI_BCAST data')

  ! Reduce to rank 0.
  vals = [rank, 1, 2 * rank]
  total = -1
  call MPI_REDUCE(vals, total, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_REDUCE')
  if (rank == 0) then
    call expect(all(total == [np * (np - 1) / 2, np, np * (np - 1)]), 'MPI_REDUCE data')
  end if

  ! Split into even and odd ranks, ordered by descending rank.
  color = mod(rank, 2)
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, -rank, sub, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_COMM_SPLIT')
  call expect(sub /= MPI_COMM_NULL .and. sub /= MPI_COMM_WORLD, 'a new communicator')
  call MPI_COMM_SIZE(sub, subsize, ierr)
  call MPI_COMM_RANK(sub, subrank, ierr)
  n = (np - color + 1) / 2
  call expect(subsize == n, 'split size')
  call expect(subrank == n - 1 - rank / 2, 'split rank (descending keys)')
  call MPI_COMM_COMPARE(sub, MPI_COMM_WORLD, cmp, ierr)
  call expect(cmp == merge(MPI_CONGRUENT, MPI_UNEQUAL, np == 1), 'MPI_COMM_COMPARE')
  call MPI_BARRIER(sub, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_BARRIER')

  ! Names: the input is trimmed, the output blank-padded.
  call MPI_COMM_SET_NAME(sub, 'halves   ', ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_COMM_SET_NAME')
  cname = repeat('x', len(cname))
  call MPI_COMM_GET_NAME(sub, cname, n, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_COMM_GET_NAME')
  call expect(n == 6 .and. cname == 'halves', 'communicator name '//trim(cname))
  call expect(cname(7:) == ' ', 'name blank-padded')
  call MPI_COMM_FREE(sub, ierr)
  call expect(ierr == MPI_SUCCESS .and. sub == MPI_COMM_NULL, 'MPI_COMM_FREE')

  host = repeat('x', len(host))
  call MPI_GET_PROCESSOR_NAME(host, n, ierr)
  call expect(ierr == MPI_SUCCESS .and. n > 0 .and. n <= MPI_MAX_PROCESSOR_NAME, &
              'MPI_GET_PROCESSOR_NAME')
  call expect(index(host(1:n), ' ') == 0 .and. host(n+1:) == ' ', 'processor name padded')

  ! Errors return under MPI_ERRORS_RETURN: a send to rank np has class MPI_ERR_RANK.
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_COMM_SET_ERRHANDLER')
  call MPI_SEND(vals, 1, MPI_INTEGER, np, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr /= MPI_SUCCESS, 'a send to a bad rank fails')
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call expect(cls == MPI_ERR_RANK, 'error class MPI_ERR_RANK')
  msg = repeat('x', len(msg))
  call MPI_ERROR_STRING(MPI_ERR_RANK, msg, n, ierr)
  call expect(ierr == MPI_SUCCESS .and. n > 0 .and. n < len(msg), 'MPI_ERROR_STRING')
  call expect(msg(n+1:) == ' ', 'error string blank-padded')
  call expect(len_trim(msg) == n, 'error string length')

  ! Waitany returns a 1-based index.
  vals(1) = rank
  call MPI_IRECV(total, 1, MPI_INTEGER, rank, 5, MPI_COMM_WORLD, req(2), ierr)
  req(1) = MPI_REQUEST_NULL
  call MPI_SEND(vals, 1, MPI_INTEGER, rank, 5, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(2, req, idx, status, ierr)
  call expect(ierr == MPI_SUCCESS .and. idx == 2, 'MPI_WAITANY index is 1-based')
  call expect(req(2) == MPI_REQUEST_NULL .and. total(1) == rank, 'MPI_WAITANY data')
  call expect(status(MPI_SOURCE) == rank .and. status(MPI_TAG) == 5, 'MPI_WAITANY status')
  call MPI_IPROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
  call expect(.not. flag, 'nothing left to probe')

  t1 = MPI_WTIME()
  call expect(t1 >= t0 .and. MPI_WTICK() > 0d0, 'MPI_WTIME advances')
  call MPI_FINALIZE(ierr)
  call MPI_FINALIZED(flag, ierr)
  call expect(flag, 'MPI_FINALIZED')
  if (rank == 0) print '(a, i0, a)', 'f_module: ', np, ' ranks OK'

contains

  !> Ends the job with exit status 1, naming what, unless ok.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: e
    if (.not. ok) then
      print *, 'f_module FAILED: ', what
      call MPI_ABORT(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine expect

end program f_module
