! ctest test_mpi_f_manual: the hand-written Fortran bindings (mpi/src/fortran_manual/) from
! `use mpi`: MPI_COMM_GET_ATTR of MPI_TAG_UB (its value, not an address) and MPI_ATTR_PUT on a
! predefined attribute (refused); MPI_OP_CREATE of a Fortran reduction, which gets the
! datatype's INTEGER handle, in MPI_ALLREDUCE; MPI_ALLOC_MEM's base address as a Fortran pointer
! and MPI_FREE_MEM; MPI_WIN_ALLOCATE's base address, a fence epoch of gets through it, and
! MPI_WIN_GET_ATTR of MPI_WIN_SIZE, MPI_WIN_DISP_UNIT and MPI_WIN_BASE; a neighbour's segment of
! MPI_WIN_ALLOCATE_SHARED through MPI_WIN_SHARED_QUERY; MPI_BUFFER_DETACH's size; MPI_PCONTROL;
! MPI_INFO_CREATE_ENV; keyvals with Fortran copy and delete callbacks (MPI_COMM_CREATE_KEYVAL),
! and with the predefined MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, MPI_TYPE_DUP_FN and the
! deprecated MPI_KEYVAL_CREATE with MPI_DUP_FN (default INTEGER values); Fortran error handlers on
! a communicator (called by MPI_COMM_CALL_ERRHANDLER and by a real error) and on a window;
! MPI_COMM_IDUP; MPI_NEIGHBOR_ALLTOALLW and MPI_INEIGHBOR_ALLTOALLW on a periodic ring; a
! generalized request with Fortran query, cancel and free procedures; MPI_REGISTER_DATAREP with
! MPI_CONVERSION_FN_NULL and a Fortran extent procedure, used by a file view.
module f_manual_ops
  implicit none
  integer :: deletions = 0
  integer :: seen_obj = -1, seen_code = -1
  integer :: frees = 0, cancels = 0, extents = 0
contains
  ! Generalized request procedures: the query sets the status's tag to the extra state.
  subroutine greq_query(extra, status, ierr)
    use mpi, only: MPI_ADDRESS_KIND, MPI_STATUS_SIZE, MPI_TAG, MPI_SOURCE, MPI_ERROR, &
                   MPI_SUCCESS, MPI_UNDEFINED
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    status(MPI_TAG) = int(extra)
    status(MPI_SOURCE) = MPI_UNDEFINED
    status(MPI_ERROR) = MPI_SUCCESS
    ierr = MPI_SUCCESS
  end subroutine greq_query

  subroutine greq_free(extra, ierr)
    use mpi, only: MPI_ADDRESS_KIND, MPI_SUCCESS
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    if (extra == 42) frees = frees + 1
    ierr = MPI_SUCCESS
  end subroutine greq_free

  subroutine greq_cancel(extra, complete, ierr)
    use mpi, only: MPI_ADDRESS_KIND, MPI_SUCCESS
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    if (extra == 42 .and. complete) cancels = cancels + 1
    ierr = MPI_SUCCESS
  end subroutine greq_cancel

  ! A data representation's extent procedure: MPI_INTEGER's native extent, counted.
  subroutine rep_extent(dt, extent, extra, ierr)
    use mpi, only: MPI_ADDRESS_KIND, MPI_INTEGER, MPI_SUCCESS, MPI_ERR_TYPE
    integer :: dt, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra
    extent = 4
    ierr = MPI_SUCCESS
    if (dt /= MPI_INTEGER .or. extra /= 7) ierr = MPI_ERR_TYPE
    extents = extents + 1
  end subroutine rep_extent

  ! A Fortran error handler: records the INTEGER handle and the code it got.
  subroutine on_error(obj, code)
    integer :: obj, code
    seen_obj = obj
    seen_code = code
  end subroutine on_error

  ! Copies value + extra_state, and counts nothing: a user copy callback.
  subroutine copy_plus(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
    use mpi, only: MPI_ADDRESS_KIND, MPI_SUCCESS
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    val_out = val_in + extra
    flag = .true.
    ierr = MPI_SUCCESS
    if (oldcomm == 0 .or. keyval == 0) ierr = 1
  end subroutine copy_plus

  ! Counts the deletions of attributes whose value is 42 or 42 + 1000.
  subroutine count_delete(comm, keyval, val, extra, ierr)
    use mpi, only: MPI_ADDRESS_KIND, MPI_SUCCESS
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    if (val == 42 .or. val == 42 + extra) deletions = deletions + 1
    ierr = MPI_SUCCESS
    if (comm == 0 .or. keyval == 0) ierr = 1
  end subroutine count_delete

  ! inoutv = max(|invec|, |inoutv|), or -999 if the datatype handle is not MPI_INTEGER's.
  subroutine maxabs(invec, inoutv, n, dt)
    use mpi, only: MPI_INTEGER
    integer :: n, dt
    integer :: invec(n), inoutv(n)
    if (dt /= MPI_INTEGER) then
      inoutv = -999
    else
      inoutv = max(abs(invec), abs(inoutv))
    end if
  end subroutine maxabs
end module f_manual_ops

program f_manual
  use mpi
  use f_manual_ops
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_f_pointer
  implicit none
  integer :: ierr, rank, np, op, win, info, right
  integer :: a(3), b(3)
  integer(kind=MPI_ADDRESS_KIND) :: val, base, mem, wsize, disp, qsize, qbase, extra
  logical :: flag
  integer, pointer :: p(:), w(:), q(:)
  integer :: got, qunit, keyval, kv2, c1, c2, t1, t2, ival(2), eh, req
  integer :: nsend(2), nrecv(2), ncounts(2), ntypes(2)
  integer(kind=MPI_ADDRESS_KIND) :: ndispl(2)
  integer :: gstatus(MPI_STATUS_SIZE), fh
  character :: bsend(4096)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  val = -1
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val >= 32767 .and. val < 2_8**31, 'MPI_TAG_UB')
  call MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB, 5, ierr)
  call check(ierr /= MPI_SUCCESS, 'MPI_ATTR_PUT on a predefined attribute is refused')

  call MPI_OP_CREATE(maxabs, .true., op, ierr)
  call check(ierr == MPI_SUCCESS .and. op /= MPI_OP_NULL, 'MPI_OP_CREATE')
  a = [-(rank + 1), rank, 7]
  b = 0
  call MPI_ALLREDUCE(a, b, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  ! One rank: the operation is never called, the result is the input.
  if (np == 1) b = abs(b)
  call check(ierr == MPI_SUCCESS .and. all(b == [np, np - 1, 7]), 'allreduce with a Fortran op')
  call MPI_OP_FREE(op, ierr)
  call check(ierr == MPI_SUCCESS .and. op == MPI_OP_NULL, 'MPI_OP_FREE')

  call MPI_ALLOC_MEM(64_MPI_ADDRESS_KIND, MPI_INFO_NULL, mem, ierr)
  call check(ierr == MPI_SUCCESS .and. mem /= 0, 'MPI_ALLOC_MEM')
  call c_f_pointer(transfer(mem, c_null_ptr), p, [16])
  p = rank
  call check(all(p == rank), 'memory from MPI_ALLOC_MEM')
  call MPI_FREE_MEM(p, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_FREE_MEM')

  wsize = 16
  call MPI_WIN_ALLOCATE(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call check(ierr == MPI_SUCCESS .and. base /= 0 .and. win /= MPI_WIN_NULL, 'MPI_WIN_ALLOCATE')
  call c_f_pointer(transfer(base, c_null_ptr), w, [4])
  w = [10 * rank, 10 * rank + 1, 10 * rank + 2, 10 * rank + 3]
  right = mod(rank + 1, np)
  disp = 2
  got = -1
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_GET(got, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call check(ierr == MPI_SUCCESS .and. got == 10 * right + 2, 'get through MPI_WIN_ALLOCATE')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, val, flag, ierr)
  call check(flag .and. val == 16, 'MPI_WIN_SIZE')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
  call check(flag .and. val == 4, 'MPI_WIN_DISP_UNIT')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, val, flag, ierr)
  call check(flag .and. val == base, 'MPI_WIN_BASE')
  call MPI_WIN_FREE(win, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_WIN_FREE')

  ! A shared window: a neighbour's segment through MPI_WIN_SHARED_QUERY.
  call MPI_WIN_ALLOCATE_SHARED(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call check(ierr == MPI_SUCCESS .and. base /= 0, 'MPI_WIN_ALLOCATE_SHARED')
  call c_f_pointer(transfer(base, c_null_ptr), w, [4])
  w = 100 + rank
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_WIN_SHARED_QUERY(win, right, qsize, qunit, qbase, ierr)
  call check(ierr == MPI_SUCCESS .and. qsize == 16 .and. qunit == 4, 'MPI_WIN_SHARED_QUERY')
  call c_f_pointer(transfer(qbase, c_null_ptr), q, [4])
  call check(all(q == 100 + right), 'a neighbour''s shared segment')
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_WIN_FREE(win, ierr)

  ! An attached send buffer: detaching gives its size back.
  call MPI_BUFFER_ATTACH(bsend, 4096, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_BUFFER_ATTACH')
  got = -1
  call MPI_BUFFER_DETACH(bsend, got, ierr)
  call check(ierr == MPI_SUCCESS .and. got == 4096, 'MPI_BUFFER_DETACH')

  ! Keyvals with Fortran callbacks, and the predefined ones.
  extra = 1000
  call MPI_COMM_CREATE_KEYVAL(copy_plus, count_delete, keyval, extra, ierr)
  call check(ierr == MPI_SUCCESS .and. keyval /= MPI_KEYVAL_INVALID, 'MPI_COMM_CREATE_KEYVAL')
  call MPI_COMM_DUP(MPI_COMM_WORLD, c1, ierr)
  val = 42
  call MPI_COMM_SET_ATTR(c1, keyval, val, ierr)
  call MPI_COMM_DUP(c1, c2, ierr)
  call MPI_COMM_GET_ATTR(c2, keyval, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == 1042, 'a Fortran copy callback')
  call MPI_COMM_FREE(c2, ierr)
  call MPI_COMM_FREE(c1, ierr)
  call check(deletions == 2, 'a Fortran delete callback')
  call MPI_COMM_FREE_KEYVAL(keyval, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, extra, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv2, extra, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c1, ierr)
  val = 7
  call MPI_COMM_SET_ATTR(c1, keyval, val, ierr)
  call MPI_COMM_SET_ATTR(c1, kv2, val, ierr)
  call MPI_COMM_DUP(c1, c2, ierr)
  val = -1
  call MPI_COMM_GET_ATTR(c2, keyval, val, flag, ierr)
  call check(flag .and. val == 7, 'MPI_COMM_DUP_FN')
  call MPI_COMM_GET_ATTR(c2, kv2, val, flag, ierr)
  call check(.not. flag, 'MPI_COMM_NULL_COPY_FN')
  call MPI_COMM_FREE(c2, ierr)
  call MPI_COMM_FREE(c1, ierr)
  call MPI_COMM_FREE_KEYVAL(keyval, ierr)
  call MPI_COMM_FREE_KEYVAL(kv2, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, keyval, extra, ierr)
  call MPI_TYPE_DUP(MPI_INTEGER, t1, ierr)
  val = 9
  call MPI_TYPE_SET_ATTR(t1, keyval, val, ierr)
  call MPI_TYPE_DUP(t1, t2, ierr)
  call MPI_TYPE_GET_ATTR(t2, keyval, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == 9, 'MPI_TYPE_DUP_FN')
  call MPI_TYPE_FREE(t2, ierr)
  call MPI_TYPE_FREE(t1, ierr)
  call MPI_TYPE_FREE_KEYVAL(keyval, ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, keyval, 0, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c1, ierr)
  call MPI_ATTR_PUT(c1, keyval, 5, ierr)
  call MPI_COMM_DUP(c1, c2, ierr)
  ival = [-1, -2]
  call MPI_ATTR_GET(c2, keyval, ival(1), flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. all(ival == [5, -2]), &
             'MPI_KEYVAL_CREATE with MPI_DUP_FN (a default INTEGER value, nothing past it)')
  call MPI_COMM_FREE(c2, ierr)
  call MPI_COMM_FREE(c1, ierr)
  call MPI_KEYVAL_FREE(keyval, ierr)

  ! Error handlers made from Fortran get INTEGER handles.
  call MPI_COMM_CREATE_ERRHANDLER(on_error, eh, ierr)
  call check(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, 'MPI_COMM_CREATE_ERRHANDLER')
  call MPI_COMM_DUP(MPI_COMM_WORLD, c1, ierr)
  call MPI_COMM_SET_ERRHANDLER(c1, eh, ierr)
  call MPI_COMM_CALL_ERRHANDLER(c1, MPI_ERR_OTHER, ierr)
  call check(seen_obj == c1 .and. seen_code == MPI_ERR_OTHER, 'a Fortran comm error handler')
  seen_code = -1
  call MPI_SEND(got, 1, MPI_INTEGER, np, 0, c1, ierr)
  call MPI_ERROR_CLASS(seen_code, got, ierr)
  call check(seen_obj == c1 .and. got == MPI_ERR_RANK, 'a Fortran handler on a real error')
  call MPI_COMM_FREE(c1, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call MPI_WIN_CREATE_ERRHANDLER(on_error, eh, ierr)
  call MPI_WIN_ALLOCATE(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, eh, ierr)
  call MPI_WIN_CALL_ERRHANDLER(win, MPI_ERR_OTHER, ierr)
  call check(seen_obj == win .and. seen_code == MPI_ERR_OTHER, 'a Fortran window error handler')
  call MPI_WIN_FREE(win, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)

  ! MPI_COMM_IDUP: the new communicator works once the request is waited for.
  call MPI_COMM_IDUP(MPI_COMM_WORLD, c1, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. c1 /= MPI_COMM_NULL, 'MPI_COMM_IDUP')
  got = rank + 1
  call MPI_ALLREDUCE(MPI_IN_PLACE, got, 1, MPI_INTEGER, MPI_SUM, c1, ierr)
  call check(got == np * (np + 1) / 2, 'an allreduce on the idup''d communicator')
  call MPI_COMM_FREE(c1, ierr)

  ! Neighbourhood all-to-all with a datatype per block, on a periodic ring: the block from
  ! the neighbour one step down lands first, the one from a step up second.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, [np], [.true.], .false., c1, ierr)
  nsend = [100 + rank, 200 + rank]
  nrecv = -1
  ncounts = 1
  ndispl = [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND]
  ntypes = MPI_INTEGER
  call MPI_NEIGHBOR_ALLTOALLW(nsend, ncounts, ndispl, ntypes, nrecv, ncounts, ndispl, ntypes, &
                              c1, ierr)
  ! Down's up-block (200 + down) and up's down-block (100 + up).
  call check(ierr == MPI_SUCCESS .and. nrecv(1) == 200 + mod(rank + np - 1, np) .and. &
             nrecv(2) == 100 + mod(rank + 1, np), 'MPI_NEIGHBOR_ALLTOALLW')
  nrecv = -1
  call MPI_INEIGHBOR_ALLTOALLW(nsend, ncounts, ndispl, ntypes, nrecv, ncounts, ndispl, ntypes, &
                               c1, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. nrecv(1) == 200 + mod(rank + np - 1, np),         &
             'MPI_INEIGHBOR_ALLTOALLW')
  call MPI_COMM_FREE(c1, ierr)

  ! A generalized request started from Fortran.
  extra = 42
  call MPI_GREQUEST_START(greq_query, greq_free, greq_cancel, extra, req, ierr)
  call check(ierr == MPI_SUCCESS .and. req /= MPI_REQUEST_NULL, 'MPI_GREQUEST_START')
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_CANCEL(req, ierr)
  gstatus = -1
  call MPI_WAIT(req, gstatus, ierr)
  call check(ierr == MPI_SUCCESS .and. gstatus(MPI_TAG) == 42 .and. frees == 1 .and. &
             cancels == 1 .and. req == MPI_REQUEST_NULL, 'Fortran query, cancel and free')

  ! A user data representation without conversions: a view uses it after asking its extent.
  extra = 7
  call MPI_REGISTER_DATAREP('nexar-f-rep', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, &
                            rep_extent, extra, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_REGISTER_DATAREP')
  call MPI_FILE_OPEN(MPI_COMM_WORLD, 'f_manual_datarep.tmp', MPI_MODE_CREATE + MPI_MODE_RDWR &
                     + MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_FILE_OPEN')
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'nexar-f-rep', &
                         MPI_INFO_NULL, ierr)
  call check(ierr == MPI_SUCCESS .and. extents >= 1, 'a view of the Fortran representation')
  got = 1000 + rank
  call MPI_FILE_WRITE_AT(fh, int(rank, MPI_OFFSET_KIND), got, 1, MPI_INTEGER, gstatus, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  got = -1
  call MPI_FILE_READ_AT(fh, int(right, MPI_OFFSET_KIND), got, 1, MPI_INTEGER, gstatus, ierr)
  call check(ierr == MPI_SUCCESS .and. got == 1000 + right, 'data through the representation')
  call MPI_FILE_CLOSE(fh, ierr)

  call MPI_PCONTROL(1, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_PCONTROL')
  call MPI_INFO_CREATE_ENV(info, ierr)
  call check(ierr == MPI_SUCCESS .and. info /= MPI_INFO_NULL, 'MPI_INFO_CREATE_ENV')
  call MPI_INFO_FREE(info, ierr)

  if (rank == 0) print '(a)', 'f_manual ok'
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
end program f_manual
