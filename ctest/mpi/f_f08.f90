! ctest test_mpi_f_f08: a program with `use mpi_f08`: handles as derived types (MPI_Comm,
! MPI_Datatype, MPI_Request, MPI_Errhandler...) compared with == and /=, calls with and
! without the optional ierror, type(MPI_Status) with %MPI_SOURCE / %MPI_TAG / %MPI_ERROR,
! MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, non-blocking calls with an array of requests,
! MPI_Comm_split / MPI_Comm_dup / MPI_Comm_free to MPI_COMM_NULL, a derived datatype,
! a CHARACTER bcast, MPI_Get_processor_name, an error returned under MPI_ERRORS_RETURN with
! its class, MPI_Wtime. Every value is checked; built with -Wall -Werror and linked with
! libmpi_abi alone (the module has no code), by CMake and by the installed mpifort.
program f_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, np, next, prev, n, cls, i
  integer :: vals(4), got(4), total(2), pair(2)
  type(MPI_Comm) :: half, copy
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: st
  type(MPI_Datatype) :: two
  type(MPI_Errhandler) :: eh
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=6) :: word
  double precision :: t0

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_Comm_size with ierror')
  t0 = MPI_Wtime()
  call expect(MPI_COMM_WORLD /= MPI_COMM_SELF .and. MPI_COMM_WORLD == MPI_COMM_WORLD, 'handles')

  total = [rank, 1]
  call MPI_Allreduce(MPI_IN_PLACE, total, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call expect(all(total == [np * (np - 1) / 2, np]), 'MPI_Allreduce in place')

  ! Ring: Isend / Irecv with an array of requests, then a blocking pair with a status.
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)
  vals = [(100 * rank + i, i = 1, 4)]
  call MPI_Irecv(got, 4, MPI_INTEGER, prev, 3, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(vals, 4, MPI_INTEGER, next, 3, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call expect(all(got == [(100 * prev + i, i = 1, 4)]), 'Isend/Irecv ring')
  call expect(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'requests freed')
  call MPI_Sendrecv(vals, 4, MPI_INTEGER, next, 4, got, 4, MPI_INTEGER, prev, 4, &
                    MPI_COMM_WORLD, st)
  call expect(st%MPI_SOURCE == prev .and. st%MPI_TAG == 4, 'MPI_Status fields')
  call MPI_Get_count(st, MPI_INTEGER, n)
  call expect(n == 4, 'MPI_Get_count')
  call MPI_Sendrecv(vals, 1, MPI_INTEGER, next, 5, got, 1, MPI_INTEGER, prev, 5, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)

  ! A derived datatype: pairs of integers.
  call MPI_Type_contiguous(2, MPI_INTEGER, two)
  call MPI_Type_commit(two)
  pair = [rank, -rank]
  if (rank /= 0) pair = 0
  call MPI_Bcast(pair, 1, two, 0, MPI_COMM_WORLD)
  call expect(all(pair == [0, 0]), 'bcast of a derived type')
  call MPI_Type_free(two)
  call expect(two == MPI_DATATYPE_NULL, 'MPI_Type_free')

  ! Communicators.
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  call MPI_Comm_size(half, n)
  call expect(n == (np + 1 - mod(rank, 2)) / 2, 'MPI_Comm_split')
  call MPI_Comm_dup(half, copy)
  call expect(copy /= half, 'MPI_Comm_dup')
  call MPI_Comm_free(copy)
  call MPI_Comm_free(half)
  call expect(half == MPI_COMM_NULL .and. copy == MPI_COMM_NULL, 'MPI_Comm_free')

  ! Strings both ways.
  word = 'unset'
  if (rank == np - 1) word = 'f08 ok'
  call MPI_Bcast(word, len(word), MPI_CHARACTER, np - 1, MPI_COMM_WORLD)
  call expect(word == 'f08 ok', 'CHARACTER bcast')
  call MPI_Get_processor_name(host, n)
  call expect(n > 0 .and. len_trim(host) == n, 'MPI_Get_processor_name')

  ! An error returned, with its class.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh)
  call expect(eh == MPI_ERRORS_RETURN, 'MPI_Comm_get_errhandler')
  call MPI_Send(vals, 1, MPI_INTEGER, np, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call expect(cls == MPI_ERR_RANK, 'error class of a bad rank')

  call expect(MPI_Wtime() >= t0, 'MPI_Wtime')
  if (rank == 0) print '(a, i0, a)', 'f_f08: ', np, ' ranks OK'
  call MPI_Finalize(ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_Finalize')

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a, i0, 2a)', 'rank ', rank, ': FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine expect
end program f_f08
