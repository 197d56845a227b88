// A legacy-style C++ MPI program: nonblocking rings (MPI_Irecv from MPI_ANY_SOURCE, MPI_Isend,
// MPI_Waitall with every status checked), a token that travels the whole ring, and messages
// of sizes the receiver does not know (MPI_Probe with MPI_ANY_SOURCE, MPI_Get_count, then an
// MPI_Recv of exactly that size) from every rank, each verified.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int g_rank = -1;
int g_failures = 0;

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            ++g_failures;                                                                 \
            std::fprintf(stderr, "[rank %d] %s:%d: CHECK failed: %s\n", g_rank, __FILE__, \
                         __LINE__, #cond);                                                \
        }                                                                                 \
    } while (0)

#define CHECK_OK(call)                                                                \
    do {                                                                              \
        int rc_ = (call);                                                             \
        if (rc_ != MPI_SUCCESS) {                                                     \
            std::fprintf(stderr, "[rank %d] %s:%d: %s returned %d\n", g_rank, __FILE__, \
                         __LINE__, #call, rc_);                                       \
            MPI_Abort(MPI_COMM_WORLD, 1);                                             \
        }                                                                             \
    } while (0)

constexpr int TAG_RIGHTWARD = 1, TAG_LEFTWARD = 2, TAG_TOKEN = 3, TAG_UNKNOWN = 4;
constexpr int N = 5;

// The payload rank `from` sends in direction `tag`.
int payload(int from, int tag, int k) { return from * 100 + tag * 10 + k; }

// Both neighbours exchange N ints: received with MPI_ANY_SOURCE, told apart by tag.
void neighbours(int rank, int size)
{
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    std::vector<int> to_right(N), to_left(N), from_left(N, -1), from_right(N, -1);
    for (int k = 0; k < N; ++k) {
        to_right[static_cast<size_t>(k)] = payload(rank, TAG_RIGHTWARD, k);
        to_left[static_cast<size_t>(k)] = payload(rank, TAG_LEFTWARD, k);
    }
    MPI_Request req[4];
    MPI_Status st[4];
    CHECK_OK(MPI_Irecv(from_left.data(), N, MPI_INT, MPI_ANY_SOURCE, TAG_RIGHTWARD,
                       MPI_COMM_WORLD, &req[0]));
    CHECK_OK(MPI_Irecv(from_right.data(), N, MPI_INT, MPI_ANY_SOURCE, TAG_LEFTWARD,
                       MPI_COMM_WORLD, &req[1]));
    CHECK_OK(MPI_Isend(to_right.data(), N, MPI_INT, right, TAG_RIGHTWARD, MPI_COMM_WORLD,
                       &req[2]));
    CHECK_OK(MPI_Isend(to_left.data(), N, MPI_INT, left, TAG_LEFTWARD, MPI_COMM_WORLD,
                       &req[3]));
    CHECK_OK(MPI_Waitall(4, req, st));
    for (auto r : req)
        CHECK(r == MPI_REQUEST_NULL);
    int n = -1;
    CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == TAG_RIGHTWARD);
    CHECK_OK(MPI_Get_count(&st[0], MPI_INT, &n));
    CHECK(n == N);
    CHECK(st[1].MPI_SOURCE == right && st[1].MPI_TAG == TAG_LEFTWARD);
    CHECK_OK(MPI_Get_count(&st[1], MPI_INT, &n));
    CHECK(n == N);
    for (int k = 0; k < N; ++k) {
        CHECK(from_left[static_cast<size_t>(k)] == payload(left, TAG_RIGHTWARD, k));
        CHECK(from_right[static_cast<size_t>(k)] == payload(right, TAG_LEFTWARD, k));
    }
}

// Every rank's value travels the whole ring in size - 1 shifts; each rank sums what passes.
void token(int rank, int size)
{
    const int right = (rank + 1) % size;
    long long carry = 1000 + rank, sum = 0;
    for (int s = 1; s < size; ++s) {
        long long in = -1;
        MPI_Request req[2];
        MPI_Status st[2];
        CHECK_OK(MPI_Irecv(&in, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_TOKEN, MPI_COMM_WORLD,
                           &req[0]));
        CHECK_OK(MPI_Isend(&carry, 1, MPI_LONG_LONG, right, TAG_TOKEN, MPI_COMM_WORLD, &req[1]));
        CHECK_OK(MPI_Waitall(2, req, st));
        CHECK(st[0].MPI_SOURCE == (rank + size - 1) % size);
        // The value that left rank - s, s shifts ago.
        CHECK(in == 1000 + (rank + size - s) % size);
        carry = in;
        sum += in;
    }
    long long want = 0;
    for (int r = 0; r < size; ++r)
        want += r == rank ? 0 : 1000 + r;
    CHECK(sum == want);
}

// The text rank `from` sends rank `to`: its length varies with both.
std::string message(int from, int to)
{
    std::string s = "from " + std::to_string(from) + " to " + std::to_string(to) + ":";
    s.append(static_cast<size_t>((from * 5 + to * 3) % 17), static_cast<char>('a' + from % 26));
    return s;
}

// Every rank sends every rank (itself included) a message of a size the receiver learns
// with MPI_Probe and MPI_Get_count, in whatever order they arrive. Each round has its own tag:
// a rank already in the next round may send before this one has received everything.
void unknown_sizes(int rank, int size, int round)
{
    const int tag = TAG_UNKNOWN + 10 * round;
    std::vector<std::string> out(static_cast<size_t>(size));
    std::vector<MPI_Request> req(static_cast<size_t>(size));
    for (int d = 0; d < size; ++d) {
        out[static_cast<size_t>(d)] = message(rank, d);
        const std::string &m = out[static_cast<size_t>(d)];
        CHECK_OK(MPI_Isend(m.data(), static_cast<int>(m.size()), MPI_CHAR, d, tag,
                           MPI_COMM_WORLD, &req[static_cast<size_t>(d)]));
    }
    std::vector<int> seen(static_cast<size_t>(size), 0);
    for (int i = 0; i < size; ++i) {
        MPI_Status st;
        CHECK_OK(MPI_Probe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
        int n = -1;
        CHECK_OK(MPI_Get_count(&st, MPI_CHAR, &n));
        const int src = st.MPI_SOURCE;
        CHECK(src >= 0 && src < size && st.MPI_TAG == tag);
        if (src < 0 || src >= size || n < 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
        const std::string want = message(src, rank);
        CHECK(n == static_cast<int>(want.size()));
        std::vector<char> buf(static_cast<size_t>(n) + 1, '#');
        MPI_Status rs;
        CHECK_OK(MPI_Recv(buf.data(), n, MPI_CHAR, src, tag, MPI_COMM_WORLD, &rs));
        int got = -1;
        CHECK_OK(MPI_Get_count(&rs, MPI_CHAR, &got));
        CHECK(got == n && rs.MPI_SOURCE == src);
        CHECK(std::string(buf.data(), static_cast<size_t>(n)) == want);
        CHECK(buf[static_cast<size_t>(n)] == '#');
        ++seen[static_cast<size_t>(src)];
    }
    for (int s = 0; s < size; ++s)
        CHECK(seen[static_cast<size_t>(s)] == 1);
    CHECK_OK(MPI_Waitall(size, req.data(), MPI_STATUSES_IGNORE));
}

}  // namespace

int main(int argc, char **argv)
{
    CHECK_OK(MPI_Init(&argc, &argv));
    int size = 0;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int round = 0; round < 3; ++round) {
        neighbours(g_rank, size);
        token(g_rank, size);
        unknown_sizes(g_rank, size, round);
    }
    int failed = 0;
    CHECK_OK(MPI_Allreduce(&g_failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (g_rank == 0 && failed == 0)
        std::printf("legacy_ring: %d ranks OK\n", size);
    CHECK_OK(MPI_Finalize());
    return g_failures ? 1 : 0;
}
