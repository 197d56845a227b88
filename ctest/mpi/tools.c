/* The MPI tool information interface: before MPI_Init (not initialized, then nested
 * initializations, a control variable readable already), the catalogue (every name maps back
 * to its index, bad names and indices refused, MPI_T's string-length convention), control
 * variables (the transport in use after MPI_Init, numbers, writes refused), performance
 * variables (bytes_sent counts a ring exchange while started and not after stopping; the
 * unexpected queue shows messages that wait for a receive and drops to 0 once they are
 * received; levels cannot be started; nothing can be written or reset), categories, no
 * events, the clock source, and MPI_T_finalize ending it. */
#include "mpi_check.h"
#include <time.h>

static int cvar_index(const char *name)
{
    int i = -1;
    CHECK(MPI_T_cvar_get_index(name, &i) == MPI_SUCCESS);
    return i;
}

static unsigned long long read_cvar_number(const char *name)
{
    MPI_T_cvar_handle h;
    int count = 0;
    unsigned long long v = 0;
    CHECK(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, &count) == MPI_SUCCESS);
    CHECK(count == 1);
    CHECK(MPI_T_cvar_read(h, &v) == MPI_SUCCESS);
    CHECK(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS && h == MPI_T_CVAR_HANDLE_NULL);
    return v;
}

static void read_transport(char *out, int cap)
{
    MPI_T_cvar_handle h;
    int count = 0;
    CHECK(MPI_T_cvar_handle_alloc(cvar_index("NEXAR_TRANSPORT"), NULL, &h, &count) ==
          MPI_SUCCESS);
    CHECK(count > 1 && count <= cap);
    CHECK(MPI_T_cvar_read(h, out) == MPI_SUCCESS);
    CHECK((int)strlen(out) + 1 == count);
    CHECK(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS);
}

static int pvar_index(const char *name, int cls)
{
    int i = -1;
    CHECK(MPI_T_pvar_get_index(name, cls, &i) == MPI_SUCCESS);
    return i;
}

static unsigned long long pvar_read(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ULL;
    CHECK(MPI_T_pvar_read(s, h, &v) == MPI_SUCCESS);
    return v;
}

static void catalogue(void)
{
    int n = 0, len, idx;
    char name[128], small[4];
    CHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n >= 5);
    for (int i = 0; i < n; i++) {
        len = sizeof name;
        CHECK(MPI_T_cvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
              MPI_SUCCESS);
        CHECK(MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS && idx == i);
        /* A zero length asks for the length; a short buffer gets a truncated, terminated
         * copy and the full length. */
        int full = 0;
        CHECK(MPI_T_cvar_get_info(i, name, &full, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
              MPI_SUCCESS);
        CHECK(full == (int)strlen(name) + 1);
        len = sizeof small;
        CHECK(MPI_T_cvar_get_info(i, small, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
              MPI_SUCCESS);
        CHECK(len == full && strlen(small) == sizeof small - 1 &&
              strncmp(small, name, sizeof small - 1) == 0);
    }
    CHECK(MPI_T_cvar_get_index("NO SUCH VARIABLE", &idx) == MPI_T_ERR_INVALID_NAME);
    CHECK(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
          MPI_T_ERR_INVALID_INDEX);

    CHECK(MPI_T_pvar_get_num(&n) == MPI_SUCCESS && n >= 5);
    for (int i = 0; i < n; i++) {
        int cls = -1, ro = -1, cont = -1;
        MPI_Datatype dt = MPI_DATATYPE_NULL;
        len = sizeof name;
        CHECK(MPI_T_pvar_get_info(i, name, &len, NULL, &cls, &dt, NULL, NULL, NULL, NULL, &ro,
                                  &cont, NULL) == MPI_SUCCESS);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG && ro == 1);
        CHECK(MPI_T_pvar_get_index(name, cls, &idx) == MPI_SUCCESS && idx == i);
    }
    CHECK(MPI_T_pvar_get_index("bytes_sent", MPI_T_PVAR_CLASS_LEVEL, &idx) ==
          MPI_T_ERR_INVALID_NAME); /* right name, wrong class */

    CHECK(MPI_T_category_get_num(&n) == MPI_SUCCESS && n == 2);
    int total_c = 0, total_p = 0;
    for (int i = 0; i < n; i++) {
        int nc = -1, np = -1, ncat = -1, list[64];
        len = sizeof name;
        CHECK(MPI_T_category_get_info(i, name, &len, NULL, NULL, &nc, &np, &ncat) ==
              MPI_SUCCESS);
        CHECK(MPI_T_category_get_index(name, &idx) == MPI_SUCCESS && idx == i);
        CHECK(ncat == 0 && nc >= 0 && np >= 0 && nc < 64 && np < 64);
        CHECK(MPI_T_category_get_cvars(i, nc, list) == MPI_SUCCESS);
        for (int k = 0; k < nc; k++) CHECK(list[k] == k);
        CHECK(MPI_T_category_get_pvars(i, np, list) == MPI_SUCCESS);
        total_c += nc;
        total_p += np;
    }
    int nc_all = 0, np_all = 0;
    MPI_T_cvar_get_num(&nc_all);
    MPI_T_pvar_get_num(&np_all);
    CHECK(total_c == nc_all && total_p == np_all);

    CHECK(MPI_T_event_get_num(&n) == MPI_SUCCESS && n == 0);
    CHECK(MPI_T_event_get_index("anything", &idx) == MPI_T_ERR_INVALID_NAME);
    CHECK(MPI_T_source_get_num(&n) == MPI_SUCCESS && n == 1);
    MPI_Count t0 = 0, t1 = 0, ticks = 0;
    MPI_Info info = MPI_INFO_NULL;
    CHECK(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, NULL, &ticks, NULL, &info) ==
          MPI_SUCCESS);
    CHECK(ticks == 1000000000 && info != MPI_INFO_NULL);
    MPI_Info_free(&info);
    CHECK(MPI_T_source_get_timestamp(0, &t0) == MPI_SUCCESS);
    CHECK(MPI_T_source_get_timestamp(0, &t1) == MPI_SUCCESS && t1 >= t0);
}

int main(int argc, char **argv)
{
    int provided = -1, n = 0;
    char transport[64];

    /* Before anything: not initialized; then nested initializations, before MPI_Init. */
    CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_SINGLE);
    CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    read_transport(transport, sizeof transport);
    CHECK(MPI_T_finalize() == MPI_SUCCESS);

    check_init(&argc, &argv);
    int size, me;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    me = check_rank;
    catalogue();

    /* Control variables after MPI_Init: the transport in use, numbers, no writes. */
    read_transport(transport, sizeof transport);
    const char *forced = getenv("NEXAR_TRANSPORT");
    const char *want = size == 1 ? "self" : (forced && strcmp(forced, "quic") == 0 ? "quic" : "shm");
    CHECK(strcmp(transport, want) == 0);
    CHECK(read_cvar_number("NEXAR_MAX_UNEXPECTED") > 0);
    CHECK(read_cvar_number("NEXAR_MAX_MESSAGE") > 0);
    MPI_T_cvar_handle ch;
    unsigned long long v = 1;
    CHECK(MPI_T_cvar_handle_alloc(cvar_index("NEXAR_THREADS"), NULL, &ch, &n) == MPI_SUCCESS);
    CHECK(MPI_T_cvar_write(ch, &v) == MPI_T_ERR_CVAR_SET_NEVER);
    CHECK(MPI_T_cvar_handle_free(&ch) == MPI_SUCCESS);

    /* Performance variables. */
    MPI_T_pvar_session s;
    MPI_T_pvar_handle sent, queued;
    CHECK(MPI_T_pvar_session_create(&s) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(s, pvar_index("bytes_sent", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                  &sent, &n) == MPI_SUCCESS && n == 1);
    CHECK(MPI_T_pvar_handle_alloc(s, pvar_index("unexpected_messages", MPI_T_PVAR_CLASS_LEVEL),
                                  NULL, &queued, &n) == MPI_SUCCESS);
    CHECK(pvar_read(s, sent) == 0); /* not started: nothing counted */
    CHECK(MPI_T_pvar_start(s, queued) == MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    char out[4096], in[4096];
    memset(out, me, sizeof out);
    int up = (me + 1) % size, down = (me + size - 1) % size;
    CHECK_OK(MPI_Sendrecv(out, sizeof out, MPI_BYTE, up, 1, in, sizeof in, MPI_BYTE, down, 1,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    /* A transport may count a frame when its writer task sends it, a moment after the call
     * returned (QUIC): wait for it while counting. */
    time_t deadline = time(NULL) + 10;
    while (size > 1 && pvar_read(s, sent) < sizeof out && time(NULL) < deadline) {
    }
    CHECK(MPI_T_pvar_stop(s, sent) == MPI_SUCCESS);
    unsigned long long counted = pvar_read(s, sent);
    if (size > 1) CHECK(counted >= sizeof out);
    CHECK_OK(MPI_Sendrecv(out, sizeof out, MPI_BYTE, up, 2, in, sizeof in, MPI_BYTE, down, 2,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(pvar_read(s, sent) == counted); /* stopped: the second exchange is not counted */
    CHECK(MPI_T_pvar_write(s, sent, &v) == MPI_T_ERR_PVAR_NO_WRITE);
    CHECK(MPI_T_pvar_reset(s, sent) == MPI_T_ERR_PVAR_NO_WRITE);

    /* The unexpected queue: three messages from the rank above wait for their receives. */
    if (size > 1) {
        int x = 7;
        for (int k = 0; k < 3; k++) CHECK_OK(MPI_Send(&x, 1, MPI_INT, down, 50 + k, MPI_COMM_WORLD));
        int flag = 0;
        time_t until = time(NULL) + 10;
        unsigned long long q = 0;
        while ((q = pvar_read(s, queued)) < 3 && time(NULL) < until) {
            CHECK_OK(MPI_Iprobe(up, 52, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        }
        CHECK(q >= 3);
        for (int k = 0; k < 3; k++)
            CHECK_OK(MPI_Recv(&x, 1, MPI_INT, up, 50 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(pvar_read(s, queued) == 0);
    }
    CHECK(MPI_T_pvar_handle_free(s, &sent) == MPI_SUCCESS && sent == MPI_T_PVAR_HANDLE_NULL);
    CHECK(MPI_T_pvar_read(s, sent, &v) == MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_pvar_session_free(&s) == MPI_SUCCESS && s == MPI_T_PVAR_SESSION_NULL);
    CHECK(MPI_T_pvar_read(s, queued, &v) == MPI_T_ERR_INVALID_SESSION);

    CHECK(MPI_T_finalize() == MPI_SUCCESS);
    CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED);
    return check_finish();
}
