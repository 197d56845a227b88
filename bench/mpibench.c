/* mpibench: ping-pong, streaming, allreduce, iallreduce, barrier and bcast timings through the
 * MPI API only, so one
 * source builds against any MPI (nexar's shim, Open MPI, MPICH) and the numbers compare.
 *
 * Every point: a few warm-up operations, a calibration that picks the iteration count so one
 * repetition lasts about target/reps seconds (bounded), then `reps` timed repetitions. A
 * repetition's time is the maximum over ranks (agreed with MPI_Allreduce MAX); the point reports
 * the median and the minimum of the repetitions. Every result is verified: per operation a
 * stamp that changes with the iteration, after every repetition the whole buffer. A wrong value
 * prints what was wrong and ends the job with MPI_Abort (exit code 3).
 *
 * Output: one JSON object a line on rank 0's stdout (the first line names the library).
 * Built with -DNEXAR_CAPI against libnexar instead of an MPI, it measures nexar's C API.
 * Usage: mpibench [--bench LIST] [--max-bytes N] [--min-bytes N] [--step F] [--bcast-bytes N]
 *                 [--reps R] [--target S] [--max-iters N] [--point-budget S]
 *                 [--selftest-corrupt BENCH]
 *   LIST is a comma-separated subset of pingpong,stream,allreduce,iallreduce,barrier,bcast
 *   (default all). stream is the osu_bw pattern: rank 0 starts a window of 64 MPI_Isend of
 *   one size to rank 1 (which has 64 MPI_Irecv posted), both MPI_Waitall, rank 1 acknowledges
 *   with a 4-byte message; one operation is one window. iallreduce is MPI_Iallreduce of 8 bytes
 *   then MPI_Wait at once.
 *   Sizes take K/M/G suffixes; --step is the factor between sizes (default 2); --target is the
 *   timed seconds per point over all repetitions (default 0.2); --point-budget the seconds
 *   above which a slow point gets fewer repetitions (default 5). --selftest-corrupt flips one
 *   byte of a pingpong/allreduce/bcast result on rank 1, to show that verification fails.
 */
#ifdef NEXAR_CAPI
/* The same benchmarks on nexar's own C API (bench/capi_as_mpi.h maps the MPI calls used). */
#include "capi_as_mpi.h"
#else
#include <mpi.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define VERIFY_EXIT 3

/* Options (see the usage line above); defaults give the full run. */
struct options {
  int pingpong, allreduce, barrier, bcast, stream, iallreduce;
  size_t min_bytes;
  size_t pingpong_max, allreduce_max, bcast_bytes, stream_max;
  size_t step;
  int reps;
  double target;       /* seconds of timed work per point, over all repetitions */
  long max_iters;      /* upper bound on operations per repetition */
  double point_budget; /* seconds: slow points get fewer repetitions (never below 3) */
  const char *corrupt; /* self-test: damage this benchmark's result once (must fail) */
};

static int g_rank, g_size;

#define CHECK(call)                                                                  \
  do {                                                                               \
    int rc_ = (call);                                                                \
    if (rc_ != MPI_SUCCESS) {                                                        \
      fprintf(stderr, "mpibench: rank %d: %s failed with error %d\n", g_rank, #call, \
              rc_);                                                                  \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                  \
    }                                                                                \
  } while (0)

/* Reports a verification failure and ends the whole job with a non-zero exit status. */
static void fail(const char *bench, size_t bytes, const char *what, size_t index, double got,
                 double want) {
  fprintf(stderr,
          "mpibench: VERIFICATION FAILED: rank %d: %s %zu B: %s at index %zu: got %.17g, "
          "expected %.17g\n",
          g_rank, bench, bytes, what, index, got, want);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, VERIFY_EXIT);
  exit(VERIFY_EXIT);
}

static void *alloc(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (!p) {
    fprintf(stderr, "mpibench: rank %d: cannot allocate %zu bytes\n", g_rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  memset(p, 0, rounded ? rounded : 64); /* touch every page before timing */
  return p;
}

/* ---- payload patterns ------------------------------------------------------------------ */

/* Byte i of the pattern with seed `seed`: not constant, differs between seeds. */
static inline uint8_t pattern_byte(size_t i, unsigned seed) {
  return (uint8_t)(i * 131u + (i >> 8) * 7u + seed * 29u + 1u);
}

static void fill_pattern(uint8_t *buf, size_t bytes, unsigned seed) {
  for (size_t i = 0; i < bytes; i++) buf[i] = pattern_byte(i, seed);
}

static void check_pattern(const char *bench, const uint8_t *buf, size_t bytes, unsigned seed) {
  for (size_t i = 0; i < bytes; i++)
    if (buf[i] != pattern_byte(i, seed))
      fail(bench, bytes, "payload byte", i, buf[i], pattern_byte(i, seed));
}

/* The per-operation stamp written into the first and last byte (ping-pong, bcast). */
static inline uint8_t stamp(long it) { return (uint8_t)(0xA5u ^ (unsigned)(it * 37)); }

/* ---- the benchmarks: each runs `iters` operations and verifies cheap per-op stamps -------- */

struct ctx {
  const char *name;
  size_t bytes;
  unsigned seed; /* changes every repetition so stale data cannot pass the full check */
  uint8_t *a, *b;
  float *fs, *fr;
  size_t count; /* floats (allreduce) */
};

/* Ping-pong between ranks 0 and 1 (others idle); rank 1 echoes what it received. */
static void run_pingpong(struct ctx *c, long iters) {
  size_t n = c->bytes, last = n - 1;
  for (long it = 0; it < iters; it++) {
    uint8_t s = stamp(it), ns = (uint8_t)~s;
    if (g_rank == 0) {
      c->a[0] = s;
      c->a[last] = ns;
      CHECK(MPI_Send(c->a, (int)n, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
      CHECK(MPI_Recv(c->b, (int)n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      if (c->b[0] != s) fail(c->name, n, "echoed stamp", 0, c->b[0], s);
      if (c->b[last] != ns) fail(c->name, n, "echoed stamp", last, c->b[last], ns);
    } else if (g_rank == 1) {
      CHECK(MPI_Recv(c->b, (int)n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      if (c->b[0] != s) fail(c->name, n, "received stamp", 0, c->b[0], s);
      CHECK(MPI_Send(c->b, (int)n, MPI_BYTE, 0, 8, MPI_COMM_WORLD));
    }
  }
}

/* Messages in flight per window of the stream benchmark (osu_bw's default). */
#define WINDOW 64

/* The osu_bw pattern between ranks 0 and 1 (others idle): a window of WINDOW non-blocking
 * sends of the same buffer, matched by WINDOW receives into one buffer, then a 4-byte
 * acknowledgement. The first byte carries the window's stamp; rank 1 checks it. */
static void run_stream(struct ctx *c, long iters) {
  size_t n = c->bytes;
  MPI_Request req[WINDOW];
  uint8_t ack[4] = {0};
  for (long it = 0; it < iters; it++) {
    uint8_t s = stamp(it);
    if (g_rank == 0) {
      c->a[0] = s;
      for (int j = 0; j < WINDOW; j++)
        CHECK(MPI_Isend(c->a, (int)n, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &req[j]));
      CHECK(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
      CHECK(MPI_Recv(ack, 4, MPI_BYTE, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (g_rank == 1) {
      for (int j = 0; j < WINDOW; j++)
        CHECK(MPI_Irecv(c->b, (int)n, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &req[j]));
      CHECK(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
      if (c->b[0] != s) fail(c->name, n, "window stamp", 0, c->b[0], s);
      CHECK(MPI_Send(ack, 4, MPI_BYTE, 0, 11, MPI_COMM_WORLD));
    }
  }
}

/* After a repetition: rank 1's buffer holds the pattern (its first byte the last stamp). */
static void verify_stream(struct ctx *c, long iters) {
  size_t n = c->bytes;
  if (g_rank != 1 || iters == 0) return;
  uint8_t s = stamp(iters - 1);
  if (c->b[0] != s) fail(c->name, n, "final stamp", 0, c->b[0], s);
  c->b[0] = pattern_byte(0, c->seed);
  check_pattern(c->name, c->b, n, c->seed);
}

/* Sets up a repetition: the pattern for this seed, receive buffers cleared. */
static void prep_bytes(struct ctx *c) {
  if (g_rank == 0) fill_pattern(c->a, c->bytes, c->seed);
  memset(c->b, 0, c->bytes);
}

/* After a repetition: the whole payload both ways (the stamps overwrote its ends). */
static void verify_pingpong(struct ctx *c, long iters) {
  size_t n = c->bytes;
  if (g_rank > 1 || iters == 0) return;
  uint8_t s = stamp(iters - 1), ns = (uint8_t)~s;
  uint8_t *buf = c->b;
  if (buf[0] != s) fail(c->name, n, "final stamp", 0, buf[0], s);
  buf[0] = pattern_byte(0, c->seed);
  if (n > 1) {
    if (buf[n - 1] != ns) fail(c->name, n, "final stamp", n - 1, buf[n - 1], ns);
    buf[n - 1] = pattern_byte(n - 1, c->seed);
  }
  check_pattern(c->name, buf, n, c->seed);
}

/* Allreduce value of element i on rank r: small integers, so every float sum is exact. */
static inline float elem(size_t i, int r, unsigned seed) {
  return (float)((i % 13) + (size_t)r + (seed % 5) + 1);
}
/* The exact sum of elem(i, r, seed) over all ranks. */
static inline float elem_sum(size_t i, unsigned seed) {
  double n = g_size;
  return (float)(n * (double)((i % 13) + (seed % 5) + 1) + n * (n - 1) / 2);
}

static void prep_allreduce(struct ctx *c) {
  for (size_t i = 0; i < c->count; i++) {
    c->fs[i] = elem(i, g_rank, c->seed);
    c->fr[i] = -1.0f;
  }
}

/* Element 0 carries a per-iteration stamp: every rank adds (it % 16) to it. */
static void run_allreduce(struct ctx *c, long iters) {
  float base = elem(0, g_rank, c->seed), want0 = elem_sum(0, c->seed);
  for (long it = 0; it < iters; it++) {
    float k = (float)(it % 16);
    c->fs[0] = base + k;
    CHECK(MPI_Allreduce(c->fs, c->fr, (int)c->count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
    float want = want0 + (float)g_size * k;
    if (c->fr[0] != want) fail(c->name, c->bytes, "stamped element", 0, c->fr[0], want);
  }
  c->fs[0] = base;
}

/* run_allreduce through MPI_Iallreduce and an immediate MPI_Wait. */
static void run_iallreduce(struct ctx *c, long iters) {
  float base = elem(0, g_rank, c->seed), want0 = elem_sum(0, c->seed);
  for (long it = 0; it < iters; it++) {
    float k = (float)(it % 16);
    c->fs[0] = base + k;
    MPI_Request req;
    CHECK(MPI_Iallreduce(c->fs, c->fr, (int)c->count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &req));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    float want = want0 + (float)g_size * k;
    if (c->fr[0] != want) fail(c->name, c->bytes, "stamped element", 0, c->fr[0], want);
  }
  c->fs[0] = base;
}

static void verify_allreduce(struct ctx *c, long iters) {
  (void)iters;
  for (size_t i = 1; i < c->count; i++) {
    float want = elem_sum(i, c->seed);
    if (c->fr[i] != want) fail(c->name, c->bytes, "sum element", i, c->fr[i], want);
  }
}

/* Barrier: nothing to verify beyond its return code. */
static void run_barrier(struct ctx *c, long iters) {
  (void)c;
  for (long it = 0; it < iters; it++) CHECK(MPI_Barrier(MPI_COMM_WORLD));
}
static void prep_none(struct ctx *c) { (void)c; }
static void verify_none(struct ctx *c, long iters) {
  (void)c;
  (void)iters;
}

/* Bcast from rank 0: the root stamps both ends per operation, the others check them. */
static void run_bcast(struct ctx *c, long iters) {
  size_t n = c->bytes, last = n - 1;
  uint8_t *buf = g_rank == 0 ? c->a : c->b;
  for (long it = 0; it < iters; it++) {
    uint8_t s = stamp(it), ns = (uint8_t)~s;
    if (g_rank == 0) {
      buf[0] = s;
      buf[last] = ns;
    }
    CHECK(MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD));
    if (buf[0] != s) fail(c->name, n, "bcast stamp", 0, buf[0], s);
    if (buf[last] != ns) fail(c->name, n, "bcast stamp", last, buf[last], ns);
  }
}

static void verify_bcast(struct ctx *c, long iters) {
  size_t n = c->bytes;
  if (g_rank == 0 || iters == 0) return;
  c->b[0] = pattern_byte(0, c->seed);
  c->b[n - 1] = pattern_byte(n - 1, c->seed);
  check_pattern(c->name, c->b, n, c->seed);
}

/* ---- timing ------------------------------------------------------------------------------ */

struct bench {
  const char *name;
  void (*prep)(struct ctx *);
  void (*run)(struct ctx *, long);
  void (*verify)(struct ctx *, long);
};

/* Runs `iters` operations between barriers and returns the slowest rank's seconds. */
static double timed(const struct bench *b, struct ctx *c, long iters) {
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  double t0 = MPI_Wtime();
  b->run(c, iters);
  double mine = MPI_Wtime() - t0, all = 0;
  CHECK(MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return all;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

struct result {
  long iters;
  int reps;
  double median_s, min_s; /* per operation */
};

/* Warm-up, calibration and the timed repetitions of one point. Every rank computes the same
 * iteration counts because every decision uses times agreed with MPI_Allreduce MAX. */
static struct result measure(const struct bench *b, struct ctx *c, const struct options *o) {
  struct result r = {0};
  c->seed = 1;
  b->prep(c);
  /* Warm-up (connections, page faults, protocol switches) and calibration in one: grow the
   * count until a batch lasts 10 ms or one operation is already slower than that. */
  double t = timed(b, c, 1); /* the very first operation is not representative */
  b->verify(c, 1);
  /* The batch size grows from the best batch so far (noise only adds time, so one slow
   * batch does not shrink the counts); the estimate is the geometric mean of that best and the
   * last batch (which lasted at least 10 ms), so neither a lucky nor an unlucky batch decides. Stop once 30 ms were spent, or at once when one
   * operation takes 50 ms (noise no longer matters and the point is expensive). */
  long n = 1;
  double best = INFINITY, spent = 0;
  for (;;) {
    t = timed(b, c, n);
    b->verify(c, n);
    spent += t;
    best = fmin(best, t / (double)n);
    if (best >= 0.05) break;
    if (spent >= 0.03 && (t >= 0.01 || n >= o->max_iters)) break;
    double want = best > 0 ? 0.012 / best : 16.0 * (double)n;
    n = (long)fmin((double)o->max_iters, fmax(2.0, fmin(16.0 * (double)n, want)));
  }
  double per_op = fmax(sqrt(best * (t / (double)n)), 1e-9);
  int reps = o->reps;
  if (per_op * reps > o->point_budget) /* slow point: fewer repetitions, at least 3 */
    reps = (int)fmax(3.0, floor(o->point_budget / per_op));
  if (reps > o->reps) reps = o->reps;
  double target_rep = o->target / reps;
  long iters = (long)fmin((double)o->max_iters, fmax(1.0, floor(target_rep / per_op)));

  double *times = malloc(sizeof(double) * (size_t)reps);
  if (!times) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int k = 0; k < reps; k++) {
    c->seed = 2 + (unsigned)k;
    b->prep(c);
    times[k] = timed(b, c, iters) / (double)iters;
    /* Self-test of the checks: one wrong byte in the middle of a result must be caught. */
    if (k == 0 && o->corrupt && !strcmp(o->corrupt, b->name) && g_rank == 1 && c->bytes > 2)
      c->b[c->bytes / 2] ^= 0x10;
    b->verify(c, iters);
  }
  qsort(times, (size_t)reps, sizeof(double), cmp_double);
  r.iters = iters;
  r.reps = reps;
  r.min_s = times[0];
  r.median_s = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
  free(times);
  return r;
}

/* ---- output ------------------------------------------------------------------------------ */

static void print_point(const char *name, size_t bytes, const struct result *r,
                        const char *bw_key, double bw_bytes_per_op) {
  if (g_rank != 0) return;
  printf("{\"benchmark\":\"%s\",\"ranks\":%d,\"bytes\":%zu,\"iterations\":%ld,\"reps\":%d,"
         "\"median_us\":%.4f,\"min_us\":%.4f",
         name, g_size, bytes, r->iters, r->reps, r->median_s * 1e6, r->min_s * 1e6);
  if (bw_key) printf(",\"%s\":%.6f", bw_key, bw_bytes_per_op / r->median_s / 1e9);
  printf(",\"verified\":true}\n");
  fflush(stdout);
}

/* ---- options ----------------------------------------------------------------------------- */

static void usage_error(const char *msg, const char *arg) {
  if (g_rank == 0)
    fprintf(stderr,
            "mpibench: %s%s%s\nusage: mpibench "
            "[--bench pingpong,stream,allreduce,iallreduce,barrier,bcast] "
            "[--max-bytes N] [--min-bytes N] [--step F] [--bcast-bytes N] [--reps R] "
            "[--target SECONDS] [--max-iters N] [--point-budget SECONDS] "
            "[--selftest-corrupt BENCH]\n",
            msg, arg ? ": " : "", arg ? arg : "");
  MPI_Finalize();
  exit(2);
}

/* A size with an optional K/M/G suffix (binary). */
static size_t parse_size(const char *s) {
  char *end;
  double v = strtod(s, &end);
  size_t mul = 1;
  if (*end == 'K' || *end == 'k') mul = KIB, end++;
  else if (*end == 'M' || *end == 'm') mul = MIB, end++;
  else if (*end == 'G' || *end == 'g') mul = MIB * KIB, end++;
  if (end == s || *end || v < 0) usage_error("bad size", s);
  return (size_t)(v * (double)mul);
}

static double parse_pos(const char *s) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || !(v > 0)) usage_error("expected a positive number", s);
  return v;
}

static void parse_options(int argc, char **argv, struct options *o) {
  *o = (struct options){.pingpong = 1,
                        .allreduce = 1,
                        .barrier = 1,
                        .bcast = 1,
                        .stream = 1,
                        .iallreduce = 1,
                        .min_bytes = 8,
                        .pingpong_max = 16 * MIB,
                        .allreduce_max = 64 * MIB,
                        .bcast_bytes = MIB,
                        .stream_max = 4 * MIB,
                        .step = 2,
                        .reps = 5,
                        .target = 0.2,
                        .max_iters = 1000000,
                        .point_budget = 5.0,
                        .corrupt = NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc) usage_error("missing value or unknown option", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--bench")) {
      o->pingpong = o->allreduce = o->barrier = o->bcast = o->stream = o->iallreduce = 0;
      char *list = strdup(v);
      for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "pingpong")) o->pingpong = 1;
        else if (!strcmp(tok, "allreduce")) o->allreduce = 1;
        else if (!strcmp(tok, "barrier")) o->barrier = 1;
        else if (!strcmp(tok, "bcast")) o->bcast = 1;
        else if (!strcmp(tok, "stream")) o->stream = 1;
        else if (!strcmp(tok, "iallreduce")) o->iallreduce = 1;
        else usage_error("unknown benchmark", tok);
      }
      free(list);
    } else if (!strcmp(a, "--max-bytes")) {
      size_t m = parse_size(v);
      if (o->pingpong_max > m) o->pingpong_max = m;
      if (o->allreduce_max > m) o->allreduce_max = m;
      if (o->stream_max > m) o->stream_max = m;
    } else if (!strcmp(a, "--min-bytes")) {
      o->min_bytes = parse_size(v);
    } else if (!strcmp(a, "--step")) {
      o->step = parse_size(v);
      if (o->step < 2) usage_error("--step must be at least 2", v);
    } else if (!strcmp(a, "--bcast-bytes")) {
      o->bcast_bytes = parse_size(v);
    } else if (!strcmp(a, "--reps")) {
      o->reps = (int)parse_pos(v);
      if (o->reps < 1) usage_error("--reps must be at least 1", v);
    } else if (!strcmp(a, "--target")) {
      o->target = parse_pos(v);
    } else if (!strcmp(a, "--max-iters")) {
      o->max_iters = (long)parse_pos(v);
      if (o->max_iters < 1) usage_error("--max-iters must be at least 1", v);
    } else if (!strcmp(a, "--point-budget")) {
      o->point_budget = parse_pos(v);
    } else if (!strcmp(a, "--selftest-corrupt")) {
      o->corrupt = v;
    } else {
      usage_error("unknown option", a);
    }
  }
  if (o->min_bytes < 8) o->min_bytes = 8; /* allreduce needs whole floats; stamps need 2 bytes */
  if (o->bcast_bytes < 2) usage_error("--bcast-bytes must be at least 2", NULL);
  if (o->bcast_bytes > (size_t)INT32_MAX) usage_error("--bcast-bytes too large", NULL);
  if (o->pingpong_max > (size_t)INT32_MAX || o->allreduce_max > (size_t)INT32_MAX)
    usage_error("--max-bytes too large (int counts)", NULL);
}

int main(int argc, char **argv) {
  CHECK(MPI_Init(&argc, &argv));
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &g_size));
  struct options o;
  parse_options(argc, argv, &o);

  if (g_rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    CHECK(MPI_Get_library_version(lib, &len));
    lib[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING - 1] = 0;
    char *nl = strchr(lib, '\n');
    if (nl) *nl = 0;
    for (char *p = lib; *p; p++)
      if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = ' ';
    printf("{\"benchmark\":\"meta\",\"ranks\":%d,\"library\":\"%s\"}\n", g_size, lib);
    fflush(stdout);
  }

  size_t maxbuf = o.bcast_bytes;
  if (o.pingpong && o.pingpong_max > maxbuf) maxbuf = o.pingpong_max;
  if (o.allreduce && o.allreduce_max > maxbuf) maxbuf = o.allreduce_max;
  if (o.stream && o.stream_max > maxbuf) maxbuf = o.stream_max;
  struct ctx c = {0};
  c.a = alloc(maxbuf);
  c.b = alloc(maxbuf);

  static const struct bench pingpong = {"pingpong", prep_bytes, run_pingpong, verify_pingpong};
  static const struct bench allreduce = {"allreduce", prep_allreduce, run_allreduce,
                                         verify_allreduce};
  static const struct bench barrier = {"barrier", prep_none, run_barrier, verify_none};
  static const struct bench bcast = {"bcast", prep_bytes, run_bcast, verify_bcast};
  static const struct bench stream = {"stream", prep_bytes, run_stream, verify_stream};
  static const struct bench iallreduce = {"iallreduce", prep_allreduce, run_iallreduce,
                                          verify_allreduce};

  if (o.pingpong && g_size < 2 && g_rank == 0)
    fprintf(stderr, "mpibench: ping-pong needs 2 ranks; skipped\n");
  if (o.pingpong && g_size >= 2) {
    c.name = "pingpong";
    for (size_t n = o.min_bytes; n <= o.pingpong_max; n *= o.step) {
      c.bytes = n;
      struct result r = measure(&pingpong, &c, &o);
      /* One-way latency is half the round trip. */
      r.median_s /= 2;
      r.min_s /= 2;
      print_point("pingpong", n, &r, "bw_gbs", (double)n);
    }
  }
  if (o.stream && g_size >= 2) {
    c.name = "stream";
    for (size_t n = o.min_bytes; n <= o.stream_max; n *= o.step) {
      c.bytes = n;
      struct result r = measure(&stream, &c, &o);
      print_point("stream", n, &r, "bw_gbs", (double)n * WINDOW);
    }
  }
  if (o.iallreduce) {
    c.name = "iallreduce";
    c.fs = (float *)c.a;
    c.fr = (float *)c.b;
    c.bytes = 8;
    c.count = 2;
    struct result r = measure(&iallreduce, &c, &o);
    print_point("iallreduce", 8, &r, "bus_bw_gbs",
                g_size > 1 ? 2.0 * (g_size - 1) / g_size * 8.0 : 8.0);
  }
  if (o.allreduce) {
    c.name = "allreduce";
    c.fs = (float *)c.a;
    c.fr = (float *)c.b;
    for (size_t n = o.min_bytes; n <= o.allreduce_max; n *= o.step) {
      c.bytes = n;
      c.count = n / sizeof(float);
      struct result r = measure(&allreduce, &c, &o);
      double bus = g_size > 1 ? 2.0 * (g_size - 1) / g_size * (double)n : (double)n;
      print_point("allreduce", c.count * sizeof(float), &r, "bus_bw_gbs", bus);
    }
  }
  if (o.barrier) {
    c.name = "barrier";
    c.bytes = 0;
    struct result r = measure(&barrier, &c, &o);
    print_point("barrier", 0, &r, NULL, 0);
  }
  if (o.bcast) {
    c.name = "bcast";
    c.bytes = o.bcast_bytes;
    struct result r = measure(&bcast, &c, &o);
    print_point("bcast", o.bcast_bytes, &r, "bw_gbs", (double)o.bcast_bytes);
  }

  free(c.a);
  free(c.b);
  CHECK(MPI_Finalize());
  return 0;
}
