! ctest test_mpi_f_legacy: a fixed-form program with include 'mpif.h'
! (the MPI-1 style binding): a ring of sends and receives with
! statuses and MPI_GET_COUNT, MPI_STATUS_IGNORE, MPI_ALLREDUCE with
! MPI_IN_PLACE, MPI_WAITALL over MPI_ISEND / MPI_IRECV arrays (with
! statuses and with MPI_STATUSES_IGNORE), LOGICAL flags.
      PROGRAM FLEGACY
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, NEXT, PREV, I, CNT
      INTEGER SBUF(4), RBUF(4), STATUS(MPI_STATUS_SIZE)
      INTEGER VALS(3), REQS(2), STATS(MPI_STATUS_SIZE, 2)
      INTEGER SOUT, SIN, REQ
      LOGICAL FLAG

      CALL MPI_INIT(IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_INIT')
      CALL MPI_INITIALIZED(FLAG, IERR)
      CALL EXPECT(FLAG, 'MPI_INITIALIZED gives .TRUE.')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL EXPECT(NP .GE. 1 .AND. RANK .LT. NP, 'rank and size')
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)

! Ring: 3 of 4 integers to the next rank, received with a status.
      DO I = 1, 4
         SBUF(I) = RANK * 10 + I
         RBUF(I) = -1
      END DO
      CALL MPI_SEND(SBUF, 3, MPI_INTEGER, NEXT, 7, MPI_COMM_WORLD,
     &              IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_SEND')
      CALL MPI_RECV(RBUF, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG,
     &              MPI_COMM_WORLD, STATUS, IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_RECV')
      CALL EXPECT(STATUS(MPI_SOURCE) .EQ. PREV, 'status source')
      CALL EXPECT(STATUS(MPI_TAG) .EQ. 7, 'status tag')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
      CALL EXPECT(CNT .EQ. 3, 'MPI_GET_COUNT gives 3')
      DO I = 1, 3
         CALL EXPECT(RBUF(I) .EQ. PREV * 10 + I, 'ring data')
      END DO
      CALL EXPECT(RBUF(4) .EQ. -1, 'nothing past the count')

! The same ring with MPI_STATUS_IGNORE.
      CALL MPI_SEND(SBUF(2), 1, MPI_INTEGER, NEXT, 8, MPI_COMM_WORLD,
     &              IERR)
      CALL MPI_RECV(RBUF, 1, MPI_INTEGER, PREV, 8, MPI_COMM_WORLD,
     &              MPI_STATUS_IGNORE, IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_RECV (status ignored)')
      CALL EXPECT(RBUF(1) .EQ. PREV * 10 + 2, 'ring data (ignored)')

! Allreduce in place.
      VALS(1) = RANK
      VALS(2) = 1
      VALS(3) = RANK * RANK
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, VALS, 3, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_ALLREDUCE')
      CALL EXPECT(VALS(1) .EQ. NP * (NP - 1) / 2, 'sum of ranks')
      CALL EXPECT(VALS(2) .EQ. NP, 'sum of ones')
      CALL EXPECT(VALS(3) .EQ. (NP - 1) * NP * (2 * NP - 1) / 6,
     &            'sum of squares')

! Waitall over Irecv / Isend, with statuses.
      SOUT = RANK + 100
      SIN = -1
      CALL MPI_IRECV(SIN, 1, MPI_INTEGER, PREV, 9, MPI_COMM_WORLD,
     &               REQS(1), IERR)
      CALL MPI_ISEND(SOUT, 1, MPI_INTEGER, NEXT, 9, MPI_COMM_WORLD,
     &               REQS(2), IERR)
      CALL EXPECT(REQS(1) .NE. MPI_REQUEST_NULL, 'Irecv request')
      CALL MPI_WAITALL(2, REQS, STATS, IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_WAITALL')
      CALL EXPECT(REQS(1) .EQ. MPI_REQUEST_NULL, 'request 1 freed')
      CALL EXPECT(REQS(2) .EQ. MPI_REQUEST_NULL, 'request 2 freed')
      CALL EXPECT(SIN .EQ. PREV + 100, 'Waitall data')
      CALL EXPECT(STATS(MPI_SOURCE, 1) .EQ. PREV, 'Waitall source')
      CALL EXPECT(STATS(MPI_TAG, 1) .EQ. 9, 'Waitall tag')

! Again with MPI_STATUSES_IGNORE, then MPI_TEST on a finished request.
      SOUT = RANK + 200
      CALL MPI_IRECV(SIN, 1, MPI_INTEGER, PREV, 10, MPI_COMM_WORLD,
     &               REQS(1), IERR)
      CALL MPI_ISEND(SOUT, 1, MPI_INTEGER, NEXT, 10, MPI_COMM_WORLD,
     &               REQS(2), IERR)
      CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_WAITALL (ignored)')
      CALL EXPECT(SIN .EQ. PREV + 200, 'Waitall data (ignored)')
      REQ = MPI_REQUEST_NULL
      FLAG = .FALSE.
      CALL MPI_TEST(REQ, FLAG, STATUS, IERR)
      CALL EXPECT(FLAG, 'MPI_TEST of MPI_REQUEST_NULL is .TRUE.')

      CALL MPI_FINALIZE(IERR)
      CALL EXPECT(IERR .EQ. MPI_SUCCESS, 'MPI_FINALIZE')
      IF (RANK .EQ. 0) PRINT '(A, I0, A)', 'f_legacy: ', NP,
     &   ' ranks OK'
      END

! Ends the job with exit status 1, naming WHAT, unless OK.
      SUBROUTINE EXPECT(OK, WHAT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      LOGICAL OK
      CHARACTER*(*) WHAT
      INTEGER IERR
      IF (.NOT. OK) THEN
         PRINT *, 'f_legacy FAILED: ', WHAT
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END IF
      END
