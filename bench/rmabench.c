/* rmabench: one-sided communication (MPI RMA) timings through the MPI API only, so one source
 * builds against any MPI (nexar's shim, Open MPI, MPICH) and the numbers compare.
 *
 * One window, MPI_Win_allocate of the largest size on every rank (displacement unit 1). Passive
 * target: rank 0 (the origin) takes MPI_Win_lock(MPI_LOCK_SHARED) on rank 1 (the target) once
 * around every timed repetition, outside the timed interval (after the barrier that starts it);
 * rank 1 only waits in that barrier and the MPI_Allreduce that ends the repetition; other ranks
 * idle likewise.
 *
 *   put          MPI_Put of N bytes to rank 1, then MPI_Win_flush(1), per operation
 *   get          MPI_Get of N bytes from rank 1, then MPI_Win_flush(1), per operation
 *   fetch_and_op MPI_Fetch_and_op(1, MPI_INT64_T, MPI_SUM) on one counter, then MPI_Win_flush
 *   put_bw       W MPI_Put of N bytes to consecutive target offsets, then one MPI_Win_flush;
 *                one operation is one such window (W = --window, at most max-bytes / N)
 *   get_bw       the same with MPI_Get into consecutive origin offsets
 *
 * Every point: a warm-up operation, a calibration that picks the iteration count so one
 * repetition lasts about target/reps seconds (bounded), then `reps` timed repetitions; the
 * point reports the median and the minimum of the repetitions (a repetition's time is the
 * maximum over ranks, agreed with MPI_Allreduce MAX), as bench/mpibench.c does.
 *
 * Every result is verified. put: every operation writes a byte pattern (different every
 * repetition) whose first and last bytes carry a stamp that changes every iteration; after
 * every repetition (after the origin's unlock) the target checks its whole window memory, the
 * last iteration's stamps included. get: the target writes the pattern into its window before
 * the repetition; the origin poisons the ends of its buffer before every get and checks them
 * after the flush, and checks the whole buffer after the repetition. fetch_and_op: every
 * fetched value must be the counter's start value plus the operations done before it, and
 * after every repetition the target checks that its counter equals the start value plus all
 * operations. The target reads and writes its own window inside MPI_Win_lock(EXCLUSIVE, self)
 * epochs, between barriers. A wrong value prints what was wrong and ends the job with
 * MPI_Abort (exit code 3).
 *
 * Output: one JSON object a line on rank 0's stdout (the first line names the library). When
 * the MPI refuses the window, the second line is {"benchmark":"error","call":"MPI_Win_allocate",
 * ...} and the exit status is 4.
 * Usage: rmabench [--bench LIST] [--max-bytes N] [--min-bytes N] [--step F] [--window W]
 *                 [--reps R] [--target S] [--max-iters N] [--point-budget S]
 *                 [--selftest-corrupt BENCH]
 *   LIST is a comma-separated subset of put,get,fetch_and_op,put_bw,get_bw (default all).
 *   Sizes take K/M/G suffixes (default 8 B to 16 MiB); --step is the factor between sizes
 *   (default 2); --window the operations per flush of put_bw/get_bw (default 64); --target is
 *   the timed seconds per point over all repetitions (default 0.2); --point-budget the seconds
 *   above which a slow point gets fewer repetitions (default 5). --selftest-corrupt damages one
 *   result of that benchmark once, to show that verification fails.
 */
#include <mpi.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define VERIFY_EXIT 3
#define ORIGIN 0
#define TARGET 1

/* Options (see the usage line above); defaults give the full run. */
struct options {
  int put, get, fetch_and_op, put_bw, get_bw;
  size_t min_bytes, max_bytes, step;
  int window;          /* operations per flush of put_bw / get_bw */
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
      fprintf(stderr, "rmabench: rank %d: %s failed with error %d\n", g_rank, #call, \
              rc_);                                                                  \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                  \
    }                                                                                \
  } while (0)

/* Reports a verification failure and ends the whole job with a non-zero exit status. */
static void fail(const char *bench, size_t bytes, const char *what, size_t index, double got,
                 double want) {
  fprintf(stderr,
          "rmabench: VERIFICATION FAILED: rank %d: %s %zu B: %s at index %zu: got %.17g, "
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
    fprintf(stderr, "rmabench: rank %d: cannot allocate %zu bytes\n", g_rank, bytes);
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

/* Checks buf[from, to) against the pattern; `at` is buf's offset in the window or buffer
 * (added to the offset a failure reports). */
static void check_range(const char *bench, size_t bytes, const uint8_t *buf, size_t from,
                        size_t to, unsigned seed, size_t at) {
  for (size_t i = from; i < to; i++)
    if (buf[i] != pattern_byte(i, seed))
      fail(bench, bytes, "payload byte", at + i, buf[i], pattern_byte(i, seed));
}

/* The per-operation stamp written into the first and last byte of a put. */
static inline uint8_t stamp(long it) { return (uint8_t)(0xA5u ^ (unsigned)(it * 37)); }

/* The fetch_and_op counter's value at the start of a repetition with seed `seed`. */
static inline int64_t counter_start(unsigned seed) {
  return (int64_t)seed * 1000000007LL + 12345;
}

/* ---- the benchmarks ---------------------------------------------------------------------- */

struct ctx {
  const char *name;
  size_t bytes;  /* per MPI_Put / MPI_Get */
  int window;    /* operations per flush (1 for the latency benchmarks) */
  unsigned seed; /* changes every repetition so stale data cannot pass the full check */
  long done;     /* operations since the last prep (fetch_and_op's counter) */
  uint8_t *origin; /* rank 0's local buffer: put source, get destination */
  uint8_t *mem;    /* this rank's window memory */
  MPI_Win win;
};

/* The target's own accesses to its window memory: an exclusive lock on itself. */
static void self_lock(struct ctx *c) {
  CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, g_rank, 0, c->win));
}
static void self_unlock(struct ctx *c) { CHECK(MPI_Win_unlock(g_rank, c->win)); }

/* put / put_bw: the origin's buffer holds the pattern, the target's window is cleared. */
static void prep_put(struct ctx *c) {
  if (g_rank == ORIGIN) fill_pattern(c->origin, c->bytes, c->seed);
  if (g_rank == TARGET) {
    self_lock(c);
    memset(c->mem, 0, c->bytes * (size_t)c->window);
    self_unlock(c);
  }
}

/* Per operation (one window of puts): stamp both ends of the source, put it to `window`
 * consecutive target offsets, flush. The source is not touched again until after the flush. */
static void run_put(struct ctx *c, long iters) {
  size_t n = c->bytes, last = n - 1;
  int count = (int)n;
  for (long it = 0; it < iters; it++) {
    uint8_t s = stamp(it);
    c->origin[0] = s;
    c->origin[last] = (uint8_t)~s;
    for (int k = 0; k < c->window; k++)
      CHECK(MPI_Put(c->origin, count, MPI_BYTE, TARGET, (MPI_Aint)((size_t)k * n), count,
                    MPI_BYTE, c->win));
    CHECK(MPI_Win_flush(TARGET, c->win));
  }
}

/* After a repetition the target's window holds `window` copies of the pattern, each with the
 * last operation's stamps at its ends. */
static void verify_put(struct ctx *c, long iters) {
  size_t n = c->bytes;
  if (g_rank != TARGET || iters == 0) return;
  uint8_t s = stamp(iters - 1), ns = (uint8_t)~s;
  self_lock(c);
  for (int k = 0; k < c->window; k++) {
    const uint8_t *r = c->mem + (size_t)k * n;
    size_t at = (size_t)k * n;
    if (r[0] != s) fail(c->name, n, "final stamp", at, r[0], s);
    if (r[n - 1] != ns) fail(c->name, n, "final stamp", at + n - 1, r[n - 1], ns);
    check_range(c->name, n, r, 1, n - 1, c->seed, at);
  }
  self_unlock(c);
}

/* get / get_bw: the target's window holds the pattern over all the bytes read, the origin's
 * buffer is cleared. */
static void prep_get(struct ctx *c) {
  size_t total = c->bytes * (size_t)c->window;
  if (g_rank == ORIGIN) memset(c->origin, 0, total);
  if (g_rank == TARGET) {
    self_lock(c);
    fill_pattern(c->mem, total, c->seed);
    self_unlock(c);
  }
}

/* Per operation (one window of gets): poison the first byte of every destination piece and
 * the last byte of the last one, get the pieces from consecutive target offsets, flush, check
 * the poisoned bytes. */
static void run_get(struct ctx *c, long iters) {
  size_t n = c->bytes, total = n * (size_t)c->window;
  int count = (int)n;
  uint8_t *o = c->origin;
  for (long it = 0; it < iters; it++) {
    for (int k = 0; k < c->window; k++) {
      size_t at = (size_t)k * n;
      o[at] = (uint8_t)~pattern_byte(at, c->seed);
    }
    o[total - 1] = (uint8_t)~pattern_byte(total - 1, c->seed);
    for (int k = 0; k < c->window; k++)
      CHECK(MPI_Get(o + (size_t)k * n, count, MPI_BYTE, TARGET, (MPI_Aint)((size_t)k * n),
                    count, MPI_BYTE, c->win));
    CHECK(MPI_Win_flush(TARGET, c->win));
    for (int k = 0; k < c->window; k++) {
      size_t at = (size_t)k * n;
      if (o[at] != pattern_byte(at, c->seed))
        fail(c->name, n, "fetched byte", at, o[at], pattern_byte(at, c->seed));
    }
    if (o[total - 1] != pattern_byte(total - 1, c->seed))
      fail(c->name, n, "fetched byte", total - 1, o[total - 1],
           pattern_byte(total - 1, c->seed));
  }
}

/* After a repetition: every byte the origin fetched is the target's pattern. */
static void verify_get(struct ctx *c, long iters) {
  if (g_rank != ORIGIN || iters == 0) return;
  check_range(c->name, c->bytes, c->origin, 0, c->bytes * (size_t)c->window, c->seed, 0);
}

/* fetch_and_op: the target's counter (the first 8 bytes of its window) starts at a value that
 * depends on the repetition. */
static void prep_fop(struct ctx *c) {
  c->done = 0;
  if (g_rank == TARGET) {
    int64_t v = counter_start(c->seed);
    self_lock(c);
    memcpy(c->mem, &v, sizeof v);
    self_unlock(c);
  }
}

/* Per operation: add 1 to the counter, flush, check the value it had before. Only the origin
 * updates it, so that value is known exactly. */
static void run_fop(struct ctx *c, long iters) {
  int64_t one = 1, got = 0, base = counter_start(c->seed) + c->done;
  for (long it = 0; it < iters; it++) {
    CHECK(MPI_Fetch_and_op(&one, &got, MPI_INT64_T, TARGET, 0, MPI_SUM, c->win));
    CHECK(MPI_Win_flush(TARGET, c->win));
    if (got != base + it) fail(c->name, 8, "fetched counter", (size_t)it, (double)got,
                               (double)(base + it));
  }
}

/* After a repetition: the counter holds its start value plus every operation since prep. */
static void verify_fop(struct ctx *c, long iters) {
  (void)iters;
  if (g_rank != TARGET) return;
  int64_t v, want = counter_start(c->seed) + c->done;
  self_lock(c);
  memcpy(&v, c->mem, sizeof v);
  self_unlock(c);
  if (v != want) fail(c->name, 8, "target counter", 0, (double)v, (double)want);
}

/* Self-test: one wrong byte (or count) where the benchmark's checks must see it. */
static void corrupt(struct ctx *c, const char *bench) {
  size_t mid = c->bytes * (size_t)c->window / 2;
  if (!strcmp(bench, "get") || !strcmp(bench, "get_bw")) {
    if (g_rank == ORIGIN) c->origin[mid] ^= 0x10;
    return;
  }
  if (g_rank != TARGET) return;
  self_lock(c);
  if (!strcmp(bench, "fetch_and_op")) {
    int64_t v;
    memcpy(&v, c->mem, sizeof v);
    v += 1;
    memcpy(c->mem, &v, sizeof v);
  } else {
    c->mem[mid | 1] ^= 0x10; /* odd: never a piece's first byte */
  }
  self_unlock(c);
}

/* ---- timing ------------------------------------------------------------------------------ */

struct bench {
  const char *name;
  void (*prep)(struct ctx *);
  void (*run)(struct ctx *, long);
  void (*verify)(struct ctx *, long);
};

/* One repetition: all ranks meet in a barrier (so the target's own epochs of prep and verify
 * are over), the origin locks the target (shared), runs `iters` operations and takes its time,
 * then unlocks; the others go straight on. Returns the slowest rank's seconds (the
 * MPI_Allreduce also orders the unlock before the target's verification). */
static double timed(const struct bench *b, struct ctx *c, long iters) {
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  if (g_rank == ORIGIN) CHECK(MPI_Win_lock(MPI_LOCK_SHARED, TARGET, 0, c->win));
  double t0 = MPI_Wtime();
  if (g_rank == ORIGIN) b->run(c, iters);
  double mine = MPI_Wtime() - t0, all = 0;
  if (g_rank == ORIGIN) CHECK(MPI_Win_unlock(TARGET, c->win));
  c->done += iters;
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

/* Warm-up, calibration and the timed repetitions of one point (mpibench's procedure). Every
 * rank computes the same iteration counts because every decision uses agreed times. */
static struct result measure(const struct bench *b, struct ctx *c, const struct options *o) {
  struct result r = {0};
  c->seed = 1;
  b->prep(c);
  double t = timed(b, c, 1); /* the very first operation is not representative */
  b->verify(c, 1);
  /* Grow the batch from the best per-operation time so far until a batch lasts 10 ms and 30
   * ms were spent, or stop at once when one operation takes 50 ms; the estimate is the
   * geometric mean of the best and the last batch. */
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
    if (k == 0 && o->corrupt && !strcmp(o->corrupt, b->name)) corrupt(c, b->name);
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

/* One point: time per operation (per window of `window` operations for put_bw / get_bw),
 * bandwidth of all bytes moved per operation, or the rate of fetch_and_op. */
static void print_point(const struct ctx *c, const struct result *r) {
  if (g_rank != ORIGIN) return;
  printf("{\"benchmark\":\"%s\",\"ranks\":%d,\"bytes\":%zu,\"window\":%d,\"iterations\":%ld,"
         "\"reps\":%d,\"median_us\":%.4f,\"min_us\":%.4f",
         c->name, g_size, c->bytes, c->window, r->iters, r->reps, r->median_s * 1e6,
         r->min_s * 1e6);
  if (!strcmp(c->name, "fetch_and_op"))
    printf(",\"ops_per_s\":%.1f", 1.0 / r->median_s);
  else
    printf(",\"bw_gbs\":%.6f", (double)c->bytes * c->window / r->median_s / 1e9);
  printf(",\"verified\":true}\n");
  fflush(stdout);
}

/* ---- options ----------------------------------------------------------------------------- */

static void usage_error(const char *msg, const char *arg) {
  if (g_rank == 0)
    fprintf(stderr,
            "rmabench: %s%s%s\nusage: rmabench [--bench put,get,fetch_and_op,put_bw,get_bw] "
            "[--max-bytes N] [--min-bytes N] [--step F] [--window W] [--reps R] "
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
  *o = (struct options){.put = 1,
                        .get = 1,
                        .fetch_and_op = 1,
                        .put_bw = 1,
                        .get_bw = 1,
                        .min_bytes = 8,
                        .max_bytes = 16 * MIB,
                        .step = 2,
                        .window = 64,
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
      o->put = o->get = o->fetch_and_op = o->put_bw = o->get_bw = 0;
      char *list = strdup(v);
      for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "put")) o->put = 1;
        else if (!strcmp(tok, "get")) o->get = 1;
        else if (!strcmp(tok, "fetch_and_op")) o->fetch_and_op = 1;
        else if (!strcmp(tok, "put_bw")) o->put_bw = 1;
        else if (!strcmp(tok, "get_bw")) o->get_bw = 1;
        else usage_error("unknown benchmark", tok);
      }
      free(list);
    } else if (!strcmp(a, "--max-bytes")) {
      o->max_bytes = parse_size(v);
    } else if (!strcmp(a, "--min-bytes")) {
      o->min_bytes = parse_size(v);
    } else if (!strcmp(a, "--step")) {
      o->step = parse_size(v);
      if (o->step < 2) usage_error("--step must be at least 2", v);
    } else if (!strcmp(a, "--window")) {
      o->window = (int)parse_pos(v);
      if (o->window < 1) usage_error("--window must be at least 1", v);
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
  if (o->min_bytes < 8) o->min_bytes = 8; /* the counter and the stamps need 8 bytes */
  if (o->max_bytes < o->min_bytes) o->max_bytes = o->min_bytes;
  if (o->max_bytes > (size_t)INT32_MAX) usage_error("--max-bytes too large (int counts)", NULL);
}

/* The sizes of one benchmark: min, min * step, ... up to max. */
static void run_sizes(const struct bench *b, struct ctx *c, const struct options *o,
                      int windowed) {
  c->name = b->name;
  for (size_t n = o->min_bytes; n <= o->max_bytes; n *= o->step) {
    c->bytes = n;
    c->window = 1;
    if (windowed) {
      size_t fit = o->max_bytes / n; /* pieces at consecutive offsets within the window */
      c->window = (int)(fit < (size_t)o->window ? fit : (size_t)o->window);
    }
    struct result r = measure(b, c, o);
    print_point(c, &r);
  }
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
  if (g_size < 2) {
    if (g_rank == 0) fprintf(stderr, "rmabench: needs at least 2 ranks (origin and target)\n");
    CHECK(MPI_Finalize());
    return 2;
  }

  struct ctx c = {0};
  c.origin = alloc(o.max_bytes);
  /* An MPI may refuse the window (nexar does between ranks that share no memory, e.g. under
   * NEXAR_TRANSPORT=quic): report that as a JSON record and exit with status 4, not a crash. */
  void *base = NULL;
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int rc = MPI_Win_allocate((MPI_Aint)o.max_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                            &c.win);
  int failed = rc != MPI_SUCCESS, any_failed = 0;
  CHECK(MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  if (any_failed) {
    char msg[MPI_MAX_ERROR_STRING + 1] = "another rank failed";
    int len = 0;
    if (failed && MPI_Error_string(rc, msg, &len) == MPI_SUCCESS)
      msg[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING] = 0;
    for (char *p = msg; *p; p++)
      if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = ' ';
    fprintf(stderr, "rmabench: rank %d: MPI_Win_allocate of %zu bytes failed (error %d): %s\n",
            g_rank, o.max_bytes, rc, msg);
    if (g_rank == 0) {
      printf("{\"benchmark\":\"error\",\"ranks\":%d,\"call\":\"MPI_Win_allocate\","
             "\"code\":%d,\"error\":\"%s\"}\n",
             g_size, rc, msg);
      fflush(stdout);
    }
    if (!failed) CHECK(MPI_Win_free(&c.win));
    free(c.origin);
    MPI_Finalize();
    return 4;
  }
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  c.mem = base;
  if (g_rank == TARGET) { /* touch every page of the target's window before timing */
    self_lock(&c);
    memset(c.mem, 0, o.max_bytes);
    self_unlock(&c);
  }
  CHECK(MPI_Barrier(MPI_COMM_WORLD));

  static const struct bench put = {"put", prep_put, run_put, verify_put};
  static const struct bench get = {"get", prep_get, run_get, verify_get};
  static const struct bench fop = {"fetch_and_op", prep_fop, run_fop, verify_fop};
  static const struct bench put_bw = {"put_bw", prep_put, run_put, verify_put};
  static const struct bench get_bw = {"get_bw", prep_get, run_get, verify_get};

  if (o.put) run_sizes(&put, &c, &o, 0);
  if (o.get) run_sizes(&get, &c, &o, 0);
  if (o.fetch_and_op) {
    c.name = fop.name;
    c.bytes = 8;
    c.window = 1;
    struct result r = measure(&fop, &c, &o);
    print_point(&c, &r);
  }
  if (o.put_bw) run_sizes(&put_bw, &c, &o, 1);
  if (o.get_bw) run_sizes(&get_bw, &c, &o, 1);

  CHECK(MPI_Win_free(&c.win));
  free(c.origin);
  CHECK(MPI_Finalize());
  return 0;
}
