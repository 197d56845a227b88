/* mpi-ext.h: nexar's MPI extensions (written by hand, not generated).
 *
 * ULFM fault tolerance: MPIX_Comm_revoke, MPIX_Comm_is_revoked, MPIX_Comm_shrink,
 * MPIX_Comm_agree, MPIX_Comm_iagree, MPIX_Comm_get_failed, MPIX_Comm_ack_failed,
 * MPIX_Comm_failure_ack and MPIX_Comm_failure_get_acked, and the error classes MPIX_ERR_PROC_FAILED,
 * MPIX_ERR_PROC_FAILED_PENDING and MPIX_ERR_REVOKED, are declared in mpi.h (they are exported
 * by libmpi_abi, with PMPIX_ twins). ULFM programs include this header too and test the
 * feature macros below. */
#ifndef NEXAR_MPI_EXT_H
#define NEXAR_MPI_EXT_H

#include <mpi.h>

/* The ULFM fault-tolerance extension is available. */
#define MPIX_FT 1
/* Open MPI's name for the same feature test, used by existing ULFM programs. */
#define OMPI_HAVE_MPI_EXT_FTMPI 1
/* Open MPI's tests for the newer ULFM calls nexar has too. */
#define OMPI_HAVE_MPIX_COMM_GET_FAILED 1
#define OMPI_HAVE_MPIX_COMM_ACK_FAILED 1

#endif /* NEXAR_MPI_EXT_H */
