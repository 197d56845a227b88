! Fortran through the `nexar` module (iso_c_binding): allreduce, bcast, a ring of send/recv and
! an error code turned into a message. Checks every answer; any wrong result stops with a
! non-zero exit status. Works at any number of ranks.
program fortran_allreduce
  use nexar
  use, intrinsic :: iso_c_binding, only: c_char, c_null_char
  implicit none

  integer, parameter :: n = 1000
  integer(c_int) :: ierr, rank, nranks, left, right, i
  type(c_ptr) :: world
  real(c_double) :: x(n), y(n), expected
  integer(c_int32_t) :: counts(2), totals(2), token(1), got(1)
  type(nexar_status_t) :: status

  call check(nexar_init(c_null_ptr, c_null_ptr), "nexar_init")
  world = nexar_comm_world()
  call check(nexar_comm_rank(world, rank), "nexar_comm_rank")
  call check(nexar_comm_size(world, nranks), "nexar_comm_size")

  ! Allreduce of a double vector: x(i) = rank + i, so the sum is size*i + size*(size-1)/2.
  do i = 1, n
    x(i) = real(rank + i, c_double)
  end do
  call check(nexar_allreduce(x, y, int(n, c_size_t), NEXAR_DTYPE_DOUBLE, NEXAR_OP_SUM, world), &
             "nexar_allreduce(double)")
  do i = 1, n
    expected = real(nranks, c_double) * real(i, c_double) &
               + real(nranks, c_double) * real(nranks - 1, c_double) / 2.0_c_double
    ! The sums are small integers, exact in double precision.
    if (abs(y(i) - expected) > 0.0_c_double) then
      print '(a,i0,a,i0,2(a,g0))', "rank ", rank, ": allreduce y(", i, ") = ", y(i), &
            ", expected ", expected
      error stop 1
    end if
  end do

  ! Max and sum of 32-bit integers.
  counts = [rank, 1_c_int32_t]
  call check(nexar_allreduce(counts, totals, 2_c_size_t, NEXAR_DTYPE_INT32, NEXAR_OP_MAX, world), &
             "nexar_allreduce(int32, max)")
  if (totals(1) /= nranks - 1 .or. totals(2) /= 1) error stop "allreduce max: wrong result"
  call check(nexar_allreduce(counts, totals, 2_c_size_t, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, world), &
             "nexar_allreduce(int32, sum)")
  if (totals(1) /= nranks * (nranks - 1) / 2 .or. totals(2) /= nranks) then
    error stop "allreduce sum: wrong result"
  end if

  ! Broadcast from the last rank.
  token(1) = 0
  if (rank == nranks - 1) token(1) = 4242
  call check(nexar_bcast(token, 1_c_size_t, NEXAR_DTYPE_INT32, nranks - 1, world), "nexar_bcast")
  if (token(1) /= 4242) error stop "bcast: wrong result"

  ! A ring: everybody sends its rank to the right and receives from the left (sends are
  ! buffered, so send-then-recv cannot deadlock; with one rank it sends to itself).
  right = modulo(rank + 1, nranks)
  left = modulo(rank - 1, nranks)
  token(1) = 100 + rank
  call check(nexar_send(token, 1_c_size_t, NEXAR_DTYPE_INT32, right, 7, world), "nexar_send")
  call check(nexar_recv(got, 1_c_size_t, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, 7, world, status), &
             "nexar_recv")
  if (got(1) /= 100 + left .or. status%source /= left .or. status%tag /= 7 &
      .or. status%count /= 4) then
    print '(a,i0,a,i0,a,i0,a,i0)', "rank ", rank, ": ring got ", got(1), " from ", &
          status%source, " count ", status%count
    error stop 1
  end if

  ! Errors come back as codes; a NULL communicator is NEXAR_ERR_COMM.
  ierr = nexar_comm_rank(c_null_ptr, i)
  if (ierr /= NEXAR_ERR_COMM) error stop "a NULL communicator was not rejected"
  if (c_string(nexar_error_string(NEXAR_ERR_TRUNCATED)) /= "message truncated") then
    error stop "nexar_error_string: unexpected text"
  end if

  call check(nexar_barrier(world), "nexar_barrier")
  if (rank == 0) then
    print '(a,a,a,i0,a)', "fortran_allreduce: ", c_string(nexar_version_string()), ", ", &
          nranks, " ranks: ok"
  end if
  call check(nexar_finalize(), "nexar_finalize")

contains

  ! Stops the program with the library's message when a call fails.
  subroutine check(code, what)
    integer(c_int), intent(in) :: code
    character(len=*), intent(in) :: what
    if (code /= NEXAR_SUCCESS) then
      print '(a,a,a,a,a,a)', what, " failed: ", c_string(nexar_error_string(code)), " (", &
            c_string(nexar_last_error_message()), ")"
      error stop 1
    end if
  end subroutine check

  ! A NUL-terminated C string as a Fortran string.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: len, k
    if (.not. c_associated(p)) then
      s = ""
      return
    end if
    call c_f_pointer(p, chars, [4096])
    len = 0
    do while (len < 4096)
      if (chars(len + 1) == c_null_char) exit
      len = len + 1
    end do
    allocate (character(len=len) :: s)
    do k = 1, len
      s(k:k) = chars(k)
    end do
  end function c_string
end program fortran_allreduce
