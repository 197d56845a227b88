/* iobench: collective MPI-IO bandwidth through the MPI API only, so one source builds against
 * any MPI (nexar's shim, Open MPI, MPICH) and the numbers compare (bench/io_run.py).
 *
 * Two cases, each written with MPI_File_write_all and read back with MPI_File_read_all:
 *   array    a row-major 2-D array of doubles (--array-bytes, default 256 MiB), block-distributed
 *            over a 2-D process grid; each rank's file view is its block
 *            (MPI_Type_create_subarray). The grid splits columns first, so at 2 ranks each block
 *            is a strided set of half-rows, not a contiguous slab.
 *   records  --record-bytes records (default 256 B) dealt round-robin to the ranks
 *            (--records-bytes in all, default 64 MiB); each rank's view is every P-th record
 *            (one record resized to the extent of P records, displaced by rank records).
 *
 * Timed with MPI_Wtime after a barrier; a repetition's time is the slowest rank's (MPI_MAX):
 *   write  MPI_File_open(CREATE|WRONLY), set_view, write_all, MPI_File_sync, MPI_File_close
 *   read   MPI_File_open(RDONLY), set_view, read_all, MPI_File_close
 * Untimed: the file is deleted before each write (a fresh file, as dd writes one); after the
 * write rank 0 evicts the file's pages, clean after the sync, from the page cache
 * (posix_fadvise DONTNEED; --keep-cache skips it), so the read comes from the disk; the read
 * buffer is poisoned beforehand and checked byte for byte afterwards; then every rank reads one
 * contiguous slice of the file without a view (read_at_all) and checks every byte against its
 * file offset, so a write and a read that misplaced data the same way cannot pass. The data
 * change with every repetition. A wrong byte prints where and ends the job with exit code 3.
 * No hints are set unless --hint KEY=VALUE asks (repeatable; e.g. cb_nodes=2,
 * romio_cb_read=disable): each MPI's defaults otherwise.
 *
 * Output: one JSON object a line on rank 0's stdout: a "meta" line naming the library, then one
 * line per (case, op) with the median and fastest repetition and MiB/s = bytes / median.
 * Usage: iobench [--dir DIR] [--cases array,records] [--array-bytes N] [--records-bytes N]
 *                [--record-bytes N] [--reps R] [--keep-cache] [--hint KEY=VALUE]...
 *                [--selftest-corrupt CASE]
 *   Sizes take K/M/G suffixes. Files iobench-<case>.dat are created in DIR (default .) and
 *   deleted at the end.
 */
#include <mpi.h>

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define VERIFY_EXIT 3
#define POISON 0xEE

struct options {
  const char *dir;
  int array, records;
  size_t array_bytes, records_bytes, record_bytes;
  int reps;
  int keep_cache;
  MPI_Info info; /* --hint pairs, given to every timed open */
  const char *corrupt; /* self-test: damage this case's read buffer once (must fail) */
};

static int g_rank, g_size;

#define CHECK(call)                                                                  \
  do {                                                                               \
    int rc_ = (call);                                                                \
    if (rc_ != MPI_SUCCESS) {                                                        \
      char msg_[MPI_MAX_ERROR_STRING];                                               \
      int len_ = 0;                                                                  \
      MPI_Error_string(rc_, msg_, &len_);                                            \
      fprintf(stderr, "iobench: rank %d: %s failed: %s\n", g_rank, #call, msg_);     \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                  \
    }                                                                                \
  } while (0)

static void fail(const char *what, const char *name, size_t offset, unsigned got,
                 unsigned want) {
  fprintf(stderr,
          "iobench: VERIFICATION FAILED: rank %d: %s %s: file byte %zu: got 0x%02x, "
          "expected 0x%02x\n",
          g_rank, name, what, offset, got, want);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, VERIFY_EXIT);
  exit(VERIFY_EXIT);
}

static void *alloc(size_t bytes) {
  size_t rounded = (bytes + 4095) / 4096 * 4096;
  void *p = aligned_alloc(4096, rounded ? rounded : 4096);
  if (!p) {
    fprintf(stderr, "iobench: rank %d: cannot allocate %zu bytes\n", g_rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  memset(p, 0, rounded ? rounded : 4096); /* touch every page before timing */
  return p;
}

/* ---- the file's contents: every byte a function of its file offset and the seed ----------- */

/* array: the double at file offset 8k is k + seed * 2^32 (exact in a double). */
static inline double array_value(size_t k, unsigned seed) {
  return (double)k + (double)seed * 4294967296.0;
}

/* records: a byte pattern that differs between neighbours, records and seeds. */
static inline uint8_t record_byte(size_t x, unsigned seed) {
  return (uint8_t)(x * 131u + (x >> 8) * 7u + (x >> 16) * 13u + (x >> 24) * 17u + seed * 29u +
                   1u);
}

/* The expected byte at file offset x. */
static inline uint8_t file_byte(int is_array, size_t x, unsigned seed) {
  if (!is_array) return record_byte(x, seed);
  double v = array_value(x / 8, seed);
  uint8_t b[8];
  memcpy(b, &v, 8);
  return b[x % 8];
}

/* ---- the two cases: a filetype, a local buffer and the map from buffer to file ------------ */

struct layout {
  const char *name;
  int is_array;
  size_t total;       /* file bytes */
  size_t local;       /* this rank's bytes */
  MPI_Datatype etype; /* MPI_DOUBLE or MPI_BYTE */
  MPI_Datatype ftype; /* this rank's filetype */
  MPI_Offset disp;    /* view displacement */
  int count;          /* etypes this rank accesses */
  /* array: this rank's block */
  int rows, cols, r0, c0, nr, nc;
  char grid[32];
  /* records */
  size_t rec, nrec;
};

/* Start and length of block `c` of `n` items split into `p` nearly equal blocks. */
static void block(int n, int p, int c, int *start, int *len) {
  int base = n / p, extra = n % p;
  *len = base + (c < extra);
  *start = c * base + (c < extra ? c : extra);
}

static void setup_array(struct layout *l, size_t bytes) {
  size_t n = bytes / sizeof(double);
  /* The most square rows x cols == n (cols >= rows), so the file has exactly n doubles. */
  size_t rows = (size_t)sqrt((double)n);
  while (rows > 1 && n % rows) rows--;
  if (n / rows > INT_MAX || rows < 1) {
    if (g_rank == 0) fprintf(stderr, "iobench: --array-bytes %zu: no usable shape\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int dims[2] = {0, 0};
  CHECK(MPI_Dims_create(g_size, 2, dims));
  /* dims[0] >= dims[1]: give the larger count to the columns (the file's fast dimension). */
  int prow = dims[1], pcol = dims[0];
  *l = (struct layout){.name = "array", .is_array = 1, .etype = MPI_DOUBLE};
  l->rows = (int)rows;
  l->cols = (int)(n / rows);
  l->total = n * sizeof(double);
  block(l->rows, prow, g_rank / pcol, &l->r0, &l->nr);
  block(l->cols, pcol, g_rank % pcol, &l->c0, &l->nc);
  snprintf(l->grid, sizeof l->grid, "%dx%d", prow, pcol);
  l->local = (size_t)l->nr * (size_t)l->nc * sizeof(double);
  if ((size_t)l->nr * (size_t)l->nc > INT_MAX) MPI_Abort(MPI_COMM_WORLD, 2);
  l->count = l->nr * l->nc;
  int sizes[2] = {l->rows, l->cols}, sub[2] = {l->nr, l->nc}, starts[2] = {l->r0, l->c0};
  CHECK(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &l->ftype));
  CHECK(MPI_Type_commit(&l->ftype));
}

static void setup_records(struct layout *l, size_t bytes, size_t rec) {
  *l = (struct layout){.name = "records", .is_array = 0, .etype = MPI_BYTE, .rec = rec};
  l->nrec = bytes / rec;
  l->total = l->nrec * rec;
  size_t mine = l->nrec > (size_t)g_rank ? (l->nrec - (size_t)g_rank + g_size - 1) / g_size : 0;
  l->local = mine * rec;
  if (l->local > INT_MAX || rec > INT_MAX) MPI_Abort(MPI_COMM_WORLD, 2);
  l->count = (int)l->local;
  l->disp = (MPI_Offset)((size_t)g_rank * rec);
  snprintf(l->grid, sizeof l->grid, "%d", g_size);
  MPI_Datatype one;
  CHECK(MPI_Type_contiguous((int)rec, MPI_BYTE, &one));
  CHECK(MPI_Type_create_resized(one, 0, (MPI_Aint)(rec * (size_t)g_size), &l->ftype));
  CHECK(MPI_Type_commit(&l->ftype));
  CHECK(MPI_Type_free(&one));
}

/* Bytes of each rank's slice in check_file: an equal share, rounded up to whole doubles. */
static size_t slice_bytes(const struct layout *l) {
  return ((l->total + (size_t)g_size - 1) / (size_t)g_size + 7) / 8 * 8;
}

/* File offset of byte i of this rank's buffer. */
static inline size_t file_offset(const struct layout *l, size_t i) {
  if (l->is_array) {
    size_t e = i / 8, li = e / (size_t)l->nc, lj = e % (size_t)l->nc;
    return (((size_t)(l->r0) + li) * (size_t)l->cols + (size_t)l->c0 + lj) * 8 + i % 8;
  }
  size_t r = i / l->rec;
  return (r * (size_t)g_size + (size_t)g_rank) * l->rec + i % l->rec;
}

static void fill(const struct layout *l, uint8_t *buf, unsigned seed) {
  if (l->is_array) {
    double *d = (double *)buf;
    for (int li = 0; li < l->nr; li++)
      for (int lj = 0; lj < l->nc; lj++) {
        size_t k = (size_t)(l->r0 + li) * (size_t)l->cols + (size_t)(l->c0 + lj);
        d[(size_t)li * (size_t)l->nc + (size_t)lj] = array_value(k, seed);
      }
  } else {
    for (size_t i = 0; i < l->local; i++) buf[i] = record_byte(file_offset(l, i), seed);
  }
}

/* The read buffer against what this rank wrote: compared as a whole, located when wrong. */
static void check_read(const struct layout *l, const uint8_t *got, const uint8_t *want,
                       unsigned seed) {
  if (!memcmp(got, want, l->local)) return;
  for (size_t i = 0; i < l->local; i++)
    if (got[i] != want[i]) {
      size_t x = file_offset(l, i);
      fail("read_all", l->name, x, got[i], file_byte(l->is_array, x, seed));
    }
}

/* Every rank reads one contiguous slice of the file (no view) and checks every byte. */
static void check_file(MPI_File fh, const struct layout *l, uint8_t *buf, unsigned seed) {
  size_t slice = slice_bytes(l), start = slice * (size_t)g_rank;
  size_t len = start >= l->total ? 0 : (l->total - start < slice ? l->total - start : slice);
  CHECK(MPI_File_read_at_all(fh, (MPI_Offset)start, buf, (int)len, MPI_BYTE,
                             MPI_STATUS_IGNORE));
  for (size_t i = 0; i < len; i += 8) { /* slices start at multiples of 8: whole doubles */
    size_t n = len - i < 8 ? len - i : 8;
    uint8_t want[8];
    if (l->is_array) {
      double v = array_value((start + i) / 8, seed);
      memcpy(want, &v, 8);
    } else {
      for (size_t j = 0; j < n; j++) want[j] = record_byte(start + i + j, seed);
    }
    if (memcmp(buf + i, want, n))
      for (size_t j = 0; j < n; j++)
        if (buf[i + j] != want[j])
          fail("file contents", l->name, start + i + j, buf[i + j], want[j]);
  }
}

/* ---- timing ------------------------------------------------------------------------------ */

static double slowest(double t0) {
  double mine = MPI_Wtime() - t0, all = 0;
  CHECK(MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return all;
}

static double timed_write(const char *path, const struct layout *l, const void *buf,
                          MPI_Info info) {
  MPI_File fh;
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  double t0 = MPI_Wtime();
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh));
  CHECK(MPI_File_set_view(fh, l->disp, l->etype, l->ftype, "native", MPI_INFO_NULL));
  CHECK(MPI_File_write_all(fh, buf, l->count, l->etype, MPI_STATUS_IGNORE));
  CHECK(MPI_File_sync(fh));
  CHECK(MPI_File_close(&fh));
  return slowest(t0);
}

static double timed_read(const char *path, const struct layout *l, void *buf, MPI_Info info) {
  MPI_File fh;
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  double t0 = MPI_Wtime();
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, info, &fh));
  CHECK(MPI_File_set_view(fh, l->disp, l->etype, l->ftype, "native", MPI_INFO_NULL));
  CHECK(MPI_File_read_all(fh, buf, l->count, l->etype, MPI_STATUS_IGNORE));
  CHECK(MPI_File_close(&fh));
  return slowest(t0);
}

/* Drops the file's pages from the page cache (they are clean after the sync). */
static void evict(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
    fprintf(stderr, "iobench: warning: could not evict %s from the page cache\n", path);
  if (fd >= 0) close(fd);
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof(double), cmp_double);
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void print_result(const struct layout *l, const char *op, double *t, int reps) {
  if (g_rank != 0) return;
  double med = median(t, reps);
  printf("{\"benchmark\":\"io\",\"case\":\"%s\",\"op\":\"%s\",\"ranks\":%d,\"grid\":\"%s\","
         "\"bytes\":%zu,\"reps\":%d,\"median_s\":%.6f,\"min_s\":%.6f,\"mib_s\":%.2f,"
         "\"verified\":true}\n",
         l->name, op, g_size, l->grid, l->total, reps, med, t[0],
         (double)l->total / (double)MIB / med);
  fflush(stdout);
}

static void run_case(const struct options *o, struct layout *l) {
  char path[4096];
  snprintf(path, sizeof path, "%s/iobench-%s.dat", o->dir, l->name);
  size_t slice = slice_bytes(l);
  uint8_t *wbuf = alloc(l->local), *rbuf = alloc(l->local > slice ? l->local : slice);
  double *tw = malloc(sizeof(double) * (size_t)o->reps);
  double *tr = malloc(sizeof(double) * (size_t)o->reps);
  if (!tw || !tr) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int k = 0; k < o->reps; k++) {
    unsigned seed = 1 + (unsigned)k;
    fill(l, wbuf, seed);
    if (g_rank == 0) MPI_File_delete(path, MPI_INFO_NULL); /* absent the first time */
    tw[k] = timed_write(path, l, wbuf, o->info);
    if (g_rank == 0 && !o->keep_cache) evict(path);
    memset(rbuf, POISON, l->local);
    tr[k] = timed_read(path, l, rbuf, o->info);
    if (k == 0 && o->corrupt && !strcmp(o->corrupt, l->name) && g_rank == g_size - 1 &&
        l->local > 0)
      rbuf[l->local / 2] ^= 0x10;
    check_read(l, rbuf, wbuf, seed);
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    check_file(fh, l, rbuf, seed);
    CHECK(MPI_File_close(&fh));
  }
  print_result(l, "write", tw, o->reps);
  print_result(l, "read", tr, o->reps);
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  if (g_rank == 0) CHECK(MPI_File_delete(path, MPI_INFO_NULL));
  CHECK(MPI_Type_free(&l->ftype));
  free(wbuf);
  free(rbuf);
  free(tw);
  free(tr);
}

/* ---- options ----------------------------------------------------------------------------- */

static void usage_error(const char *msg, const char *arg) {
  if (g_rank == 0)
    fprintf(stderr,
            "iobench: %s%s%s\nusage: iobench [--dir DIR] [--cases array,records] "
            "[--array-bytes N] [--records-bytes N] [--record-bytes N] [--reps R] "
            "[--keep-cache] [--hint KEY=VALUE]... [--selftest-corrupt CASE]\n",
            msg, arg ? ": " : "", arg ? arg : "");
  MPI_Finalize();
  exit(2);
}

static size_t parse_size(const char *s) {
  char *end;
  double v = strtod(s, &end);
  size_t mul = 1;
  if (*end == 'K' || *end == 'k') mul = KIB, end++;
  else if (*end == 'M' || *end == 'm') mul = MIB, end++;
  else if (*end == 'G' || *end == 'g') mul = MIB * KIB, end++;
  if (end == s || *end || !(v > 0)) usage_error("bad size", s);
  return (size_t)(v * (double)mul);
}

static void parse_options(int argc, char **argv, struct options *o) {
  *o = (struct options){".", 1, 1, 256 * MIB, 64 * MIB, 256, 3, 0, MPI_INFO_NULL, NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--keep-cache")) {
      o->keep_cache = 1;
      continue;
    }
    if (i + 1 >= argc) usage_error("missing value or unknown option", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--dir")) {
      o->dir = v;
    } else if (!strcmp(a, "--cases")) {
      o->array = o->records = 0;
      char *list = strdup(v);
      for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "array")) o->array = 1;
        else if (!strcmp(tok, "records")) o->records = 1;
        else usage_error("unknown case", tok);
      }
      free(list);
    } else if (!strcmp(a, "--array-bytes")) {
      o->array_bytes = parse_size(v);
    } else if (!strcmp(a, "--records-bytes")) {
      o->records_bytes = parse_size(v);
    } else if (!strcmp(a, "--record-bytes")) {
      o->record_bytes = parse_size(v);
    } else if (!strcmp(a, "--reps")) {
      o->reps = atoi(v);
      if (o->reps < 1) usage_error("--reps must be at least 1", v);
    } else if (!strcmp(a, "--hint")) {
      const char *eq = strchr(v, '=');
      if (!eq || eq == v) usage_error("--hint takes KEY=VALUE", v);
      char key[MPI_MAX_INFO_KEY + 1];
      snprintf(key, sizeof key, "%.*s", (int)(eq - v), v);
      if (o->info == MPI_INFO_NULL) CHECK(MPI_Info_create(&o->info));
      CHECK(MPI_Info_set(o->info, key, eq + 1));
    } else if (!strcmp(a, "--selftest-corrupt")) {
      o->corrupt = v;
    } else {
      usage_error("unknown option", a);
    }
  }
  if (o->array_bytes < 8 * (size_t)g_size) usage_error("--array-bytes too small", NULL);
  if (o->records_bytes < o->record_bytes * (size_t)g_size)
    usage_error("--records-bytes must hold a record per rank", NULL);
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

  struct layout l;
  if (o.array) {
    setup_array(&l, o.array_bytes);
    run_case(&o, &l);
  }
  if (o.records) {
    setup_records(&l, o.records_bytes, o.record_bytes);
    run_case(&o, &l);
  }
  if (o.info != MPI_INFO_NULL) CHECK(MPI_Info_free(&o.info));
  CHECK(MPI_Finalize());
  return 0;
}
