/*
 * io_file.c: MPI-IO file management and errors: the error classes (missing file, EXCL on an
 * existing file, writing a read-only file, reading a write-only one, bad access modes,
 * sequential-mode misuse, unknown data representation) with a message naming the file,
 * MPI_ERRORS_RETURN as the files' default handler and user file error handlers, sizes,
 * preallocation, hints, group, amode, atomicity, DELETE_ON_CLOSE, APPEND, short reads at the
 * end of the file, and an external32 round trip (big-endian in the file).
 */
#include "io_common.h"

#include <stdint.h>

static int handler_calls, handler_code;
static MPI_File handler_file;

static void on_file_error(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_file = *fh;
}

static int datarep_extent(MPI_Datatype t, MPI_Aint *extent, void *state)
{
    MPI_Aint lb;
    (void)state;
    return MPI_Type_get_extent(t, &lb, extent);
}

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static void errors(const char *dir, int nprocs)
{
    char path[512], missing[512], msg[MPI_MAX_ERROR_STRING];
    int len = 0, rc;
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    int x = 5;

    /* A missing file: MPI_ERR_NO_SUCH_FILE on every rank, the message names it. */
    snprintf(missing, sizeof missing, "%s/does-not-exist", dir);
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(class_of(rc) == MPI_ERR_NO_SUCH_FILE);
    CHECK(fh == MPI_FILE_NULL);
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "does-not-exist") != NULL);
    EXPECT_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);

    /* Bad access modes. */
    snprintf(path, sizeof path, "%s/errors", dir);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_WRONLY,
                               MPI_INFO_NULL, &fh),
                 MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                               MPI_INFO_NULL, &fh),
                 MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path,
                               MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE,
                               MPI_INFO_NULL, &fh),
                 MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE, MPI_INFO_NULL, &fh),
                 MPI_ERR_AMODE);

    /* EXCL: the first open creates, the second finds it. */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path,
                           MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL, MPI_INFO_NULL, &fh));
    /* Reading a write-only file. */
    EXPECT_CLASS(MPI_File_read_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_ACCESS);
    CHECK_OK(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st));
    /* An unknown data representation. */
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL),
                 MPI_ERR_UNSUPPORTED_DATAREP);
    CHECK_OK(MPI_File_close(&fh));
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path,
                               MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
                               MPI_INFO_NULL, &fh),
                 MPI_ERR_FILE_EXISTS);
    CHECK(fh == MPI_FILE_NULL);

    /* Writing a read-only file. */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_READ_ONLY);
    EXPECT_CLASS(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY);
    /* Reading past the end reads short. */
    {
        int two[2] = {-1, -1}, n = -1;
        CHECK_OK(MPI_File_read_at(fh, 0, two, 2, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == 1 && two[0] == 5 && two[1] == -1);
        CHECK_OK(MPI_File_read_at(fh, 100, two, 2, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == 0);
        /* Collectively too (every rank reads the same bytes: two-phase), the buffer past the
         * end of the file untouched. */
        two[0] = two[1] = -1;
        CHECK_OK(MPI_File_read_at_all(fh, 0, two, 2, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == 1 && two[0] == 5 && two[1] == -1);
    }
    /* A user handler on the file sees the error and the file. */
    {
        MPI_Errhandler eh, got;
        CHECK_OK(MPI_File_create_errhandler(on_file_error, &eh));
        CHECK_OK(MPI_File_set_errhandler(fh, eh));
        CHECK_OK(MPI_File_get_errhandler(fh, &got));
        CHECK(got == eh);
        MPI_Errhandler_free(&got);
        handler_calls = 0;
        rc = MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st);
        CHECK(class_of(rc) == MPI_ERR_READ_ONLY);
        CHECK(handler_calls == 1 && class_of(handler_code) == MPI_ERR_READ_ONLY &&
              handler_file == fh);
        CHECK_OK(MPI_File_call_errhandler(fh, MPI_ERR_IO));
        CHECK(handler_calls == 2 && handler_code == MPI_ERR_IO);
        MPI_Errhandler_free(&eh);
    }
    CHECK_OK(MPI_File_close(&fh));

    /* The default handler of files is MPI_ERRORS_RETURN, set through MPI_FILE_NULL. */
    {
        MPI_Errhandler eh;
        CHECK_OK(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
        CHECK(eh == MPI_ERRORS_RETURN);
    }

    /* Sequential mode: shared pointer only. */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                           MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_OK(MPI_File_write_ordered(fh, &x, 1, MPI_INT, &st));
    CHECK_OK(MPI_File_close(&fh));
    {
        MPI_Offset size = -1;
        CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
        CHECK_OK(MPI_File_get_size(fh, &size));
        CHECK(size == 4L * nprocs); /* the ordered writes from the start of the file */
        CHECK_OK(MPI_File_close(&fh));
    }

    EXPECT_CLASS(MPI_Register_datarep("external32", NULL, NULL, NULL, NULL),
                 MPI_ERR_DUP_DATAREP);
    /* A user representation without conversion functions stores native data. */
    {
        char rep[MPI_MAX_DATAREP_STRING];
        MPI_Offset disp;
        MPI_Datatype et, ft;
        static int once;
        if (!once++) {
            CHECK_OK(MPI_Register_datarep("nexar-test-rep", MPI_CONVERSION_FN_NULL,
                                          MPI_CONVERSION_FN_NULL, datarep_extent, NULL));
            EXPECT_CLASS(MPI_Register_datarep("nexar-test-rep", MPI_CONVERSION_FN_NULL,
                                              MPI_CONVERSION_FN_NULL, datarep_extent, NULL),
                         MPI_ERR_DUP_DATAREP);
        }
        CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
        CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "nexar-test-rep", MPI_INFO_NULL));
        CHECK_OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        CHECK(!strcmp(rep, "nexar-test-rep"));
        x = -1;
        CHECK_OK(MPI_File_read_at(fh, 0, &x, 1, MPI_INT, &st));
        CHECK(x == 5);
        CHECK_OK(MPI_File_close(&fh));
    }
    EXPECT_CLASS(MPI_File_close(&fh), MPI_ERR_FILE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0)
        CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
}

static void management(const char *dir, int nprocs)
{
    char path[512], value[MPI_MAX_INFO_VAL];
    MPI_File fh;
    MPI_Info info, used;
    MPI_Group g, wg;
    MPI_Offset size = -1, pos = -1;
    MPI_Status st;
    int amode = 0, flag = 0, cmp = -1, x[4] = {1, 2, 3, 4};

    snprintf(path, sizeof path, "%s/managed", dir);
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "1048576");
    MPI_Info_set(info, "striping_factor", "4");
    MPI_Info_set(info, "access_style", "write_once");
    MPI_Info_set(info, "romio_cb_write", "disable");
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path,
                           MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE, info, &fh));
    MPI_Info_free(&info);
    CHECK_OK(MPI_File_get_info(fh, &used));
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && !strcmp(value, "1048576"));
    MPI_Info_get(used, "striping_factor", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && !strcmp(value, "4"));
    MPI_Info_get(used, "romio_cb_write", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && !strcmp(value, "disable"));
    MPI_Info_get(used, "romio_cb_read", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && !strcmp(value, "automatic")); /* the default */
    MPI_Info_free(&used);

    CHECK_OK(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE));
    CHECK_OK(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    CHECK_OK(MPI_File_set_size(fh, 1000));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 1000);
    CHECK_OK(MPI_File_preallocate(fh, 500)); /* never shrinks */
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 1000);
    CHECK_OK(MPI_File_preallocate(fh, 4096));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 4096);
    CHECK_OK(MPI_File_set_size(fh, 16));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 16);

    CHECK_OK(MPI_File_set_atomicity(fh, 1));
    CHECK_OK(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 1);
    /* Every rank writes the same 16 bytes atomically; the file holds one copy. */
    CHECK_OK(MPI_File_write_at_all(fh, 0, x, 4, MPI_INT, &st));
    CHECK_OK(MPI_File_set_atomicity(fh, 0));

    /* SEEK_END counts etypes of the view from the end of the file. */
    CHECK_OK(MPI_File_set_view(fh, 4, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_seek(fh, -1, MPI_SEEK_END));
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 2);
    {
        int y = -1;
        MPI_Offset byte = -1;
        CHECK_OK(MPI_File_read(fh, &y, 1, MPI_INT, &st));
        CHECK(y == 4);
        CHECK_OK(MPI_File_get_byte_offset(fh, 2, &byte));
        CHECK(byte == 12);
    }
    CHECK_OK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access(path, F_OK) != 0); /* DELETE_ON_CLOSE */
    MPI_Barrier(MPI_COMM_WORLD);

    /* APPEND: both pointers start at the end. */
    if (check_rank == 0) {
        FILE *f = fopen(path, "wb");
        fwrite("0123456789", 1, 10, f);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND,
                           MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 10);
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 10);
    CHECK_OK(MPI_File_write_ordered(fh, "ab", 2, MPI_CHAR, &st));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 10 + 2L * nprocs);
    CHECK_OK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0)
        CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
}

/* external32: big-endian in the file, the same values back through the view. */
static void external32(const char *dir, int nprocs)
{
    char path[512];
    MPI_File fh;
    MPI_Status st;
    int32_t v[3] = {0x01020304, -2, check_rank};
    double d = 1.5 + check_rank, dback = 0;
    int32_t back[3] = {0, 0, 0};
    MPI_Aint ext = 0;

    snprintf(path, sizeof path, "%s/ext32", dir);
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL,
                           &fh));
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 4);
    CHECK_OK(MPI_File_write_at_all(fh, 20 * check_rank, v, 3, MPI_INT, &st));
    CHECK_OK(MPI_File_write_at_all(fh, 20 * check_rank + 12, &d, 1, MPI_DOUBLE, &st));
    CHECK_OK(MPI_File_read_at_all(fh, 20 * check_rank, back, 3, MPI_INT, &st));
    CHECK_OK(MPI_File_read_at_all(fh, 20 * check_rank + 12, &dback, 1, MPI_DOUBLE, &st));
    CHECK(back[0] == v[0] && back[1] == v[1] && back[2] == v[2]);
    CHECK(dback == d);
    {
        char rep[MPI_MAX_DATAREP_STRING];
        MPI_Offset disp;
        MPI_Datatype et, ft;
        CHECK_OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        CHECK(!strcmp(rep, "external32") && et == MPI_BYTE && ft == MPI_BYTE && disp == 0);
    }
    CHECK_OK(MPI_File_close(&fh));
    if (check_rank == 0) {
        long len;
        unsigned char *img = io_slurp(path, &len);
        CHECK(len == 20L * nprocs);
        for (int r = 0; img && r < nprocs && len == 20L * nprocs; r++) {
            const unsigned char *p = img + 20 * r;
            CHECK(p[0] == 1 && p[1] == 2 && p[2] == 3 && p[3] == 4);
            CHECK(p[4] == 0xff && p[7] == 0xfe);
            CHECK(p[8] == 0 && p[11] == (unsigned char)r);
            double dr = 1.5 + r;
            uint64_t bits;
            memcpy(&bits, &dr, 8);
            for (int j = 0; j < 8; j++)
                CHECK(p[12 + j] == (unsigned char)(bits >> (56 - 8 * j)));
        }
        free(img);
        CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
    }
}

int main(int argc, char **argv)
{
    char dir[256];
    int nprocs;
    check_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    io_tmpdir(MPI_COMM_WORLD, dir);
    errors(dir, nprocs);
    management(dir, nprocs);
    external32(dir, nprocs);
    io_rmdir(MPI_COMM_WORLD, dir);
    return check_finish();
}
