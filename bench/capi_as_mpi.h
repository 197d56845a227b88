/* capi_as_mpi.h: the few MPI names mpibench.c uses, mapped onto nexar's own C API (nexar.h),
 * so the same benchmark source measures libnexar directly (`cc -DNEXAR_CAPI ... -lnexar`):
 * the issue asks that nexar_send / nexar_recv and nexar_allreduce reach the shim's figures.
 * Only what mpibench calls is here, with the arguments it passes: bytes (MPI_BYTE), floats
 * (MPI_FLOAT), one double (MPI_DOUBLE) and the world communicator. */
#ifndef NEXAR_CAPI_AS_MPI_H
#define NEXAR_CAPI_AS_MPI_H

#include <nexar.h>
#include <stdio.h>
#include <string.h>

#define MPI_SUCCESS NEXAR_SUCCESS
#define MPI_COMM_WORLD NEXAR_COMM_WORLD
#define MPI_BYTE NEXAR_DTYPE_UINT8
#define MPI_FLOAT NEXAR_DTYPE_FLOAT
#define MPI_DOUBLE NEXAR_DTYPE_DOUBLE
#define MPI_SUM NEXAR_OP_SUM
#define MPI_MAX NEXAR_OP_MAX
#define MPI_STATUS_IGNORE NULL
#define MPI_STATUSES_IGNORE NULL
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_IN_PLACE NEXAR_IN_PLACE
typedef nexar_request_t MPI_Request;

static inline int MPI_Init(int *argc, char ***argv) { return nexar_init(argc, argv); }
static inline int MPI_Finalize(void) { return nexar_finalize(); }
static inline int MPI_Abort(nexar_comm_t c, int code) {
  (void)c;
  return nexar_abort(code);
}
static inline int MPI_Comm_rank(nexar_comm_t c, int *r) { return nexar_comm_rank(c, r); }
static inline int MPI_Comm_size(nexar_comm_t c, int *n) { return nexar_comm_size(c, n); }
static inline double MPI_Wtime(void) { return nexar_wtime(); }
static inline int MPI_Get_library_version(char *out, int *len) {
  snprintf(out, MPI_MAX_LIBRARY_VERSION_STRING, "nexar C API %s", nexar_version_string());
  *len = (int)strlen(out);
  return NEXAR_SUCCESS;
}
static inline int MPI_Send(const void *b, size_t n, nexar_datatype_t dt, int dest, int tag, nexar_comm_t c) {
  return nexar_send(b, n, dt, dest, tag, c);
}
static inline int MPI_Recv(void *b, size_t n, nexar_datatype_t dt, int src, int tag, nexar_comm_t c,
                           void *st) {
  (void)st;
  return nexar_recv(b, n, dt, src, tag, c, NULL);
}
static inline int MPI_Isend(const void *b, size_t n, nexar_datatype_t dt, int dest, int tag, nexar_comm_t c,
                            MPI_Request *r) {
  return nexar_isend(b, n, dt, dest, tag, c, r);
}
static inline int MPI_Irecv(void *b, size_t n, nexar_datatype_t dt, int src, int tag, nexar_comm_t c,
                            MPI_Request *r) {
  return nexar_irecv(b, n, dt, src, tag, c, r);
}
static inline int MPI_Wait(MPI_Request *r, void *st) {
  (void)st;
  return nexar_wait(r, NULL);
}
static inline int MPI_Waitall(int n, MPI_Request *r, void *st) {
  (void)st;
  return nexar_waitall((size_t)n, r, NULL);
}
static inline int MPI_Allreduce(const void *s, void *r, size_t n, nexar_datatype_t dt, nexar_op_t op,
                                nexar_comm_t c) {
  return nexar_allreduce(s, r, n, dt, op, c);
}
static inline int MPI_Iallreduce(const void *s, void *r, size_t n, nexar_datatype_t dt, nexar_op_t op,
                                 nexar_comm_t c, MPI_Request *q) {
  return nexar_iallreduce(s, r, n, dt, op, c, q);
}
static inline int MPI_Barrier(nexar_comm_t c) { return nexar_barrier(c); }
static inline int MPI_Bcast(void *b, size_t n, nexar_datatype_t dt, int root, nexar_comm_t c) {
  return nexar_bcast(b, n, dt, root, c);
}

#endif
