/*
 * coll_util.h: what the collective tests share: the datatype table (size, kind, pair layout),
 * typed load/store for every nexar datatype, byte patterns that depend only on (origin,
 * element, byte), and request completion in five styles (waitall, wait in reverse, test loop,
 * waitany, testall loop) so every non-blocking batch exercises a different completion path.
 */
#ifndef NEXAR_CTEST_COLL_UTIL_H
#define NEXAR_CTEST_COLL_UTIL_H

#include "check.h"

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Guard elements after every receive buffer (must stay SENT), and the filler byte. */
#define GUARD 8
#define SENT 0xA5
/* Most ranks the tests size fixed arrays for. */
#define MAXR 64

/* The communicator under test and this rank's place in it (see use_comm). */
static nexar_comm_t g_comm;
static int g_rank, g_size;

static inline void use_comm(nexar_comm_t c)
{
    g_comm = c;
    CHECK_OK(nexar_comm_rank(c, &g_rank));
    CHECK_OK(nexar_comm_size(c, &g_size));
    REQUIRE(g_size <= MAXR);
}

enum kind { K_SIGNED, K_UNSIGNED, K_FLOAT, K_PAIR };

typedef struct {
    nexar_datatype_t dt;
    const char *name;
    size_t size;     /* bytes per element (C struct size for pairs, padding included) */
    enum kind kind;  /* K_PAIR: value kind in vkind */
    enum kind vkind; /* scalar kind of the value (pairs: of the value field) */
    size_t vsize;    /* bytes of the (value) scalar */
    size_t ioff;     /* pairs: offset of the int index */
    int half;        /* floats stored as uint16_t: 1 = binary16, 2 = bfloat16 */
} type_t;

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct int_int { int v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };

#define SCALAR(code, nm, ty, k) { code, nm, sizeof(ty), k, k, sizeof(ty), 0, 0 }
#define PAIR(code, nm, st, vk) \
    { code, nm, sizeof(struct st), K_PAIR, vk, sizeof(((struct st *)0)->v), offsetof(struct st, i), 0 }

static const type_t TYPES[] = {
    SCALAR(NEXAR_DTYPE_INT8, "int8", int8_t, K_SIGNED),
    SCALAR(NEXAR_DTYPE_UINT8, "uint8", uint8_t, K_UNSIGNED),
    SCALAR(NEXAR_DTYPE_INT16, "int16", int16_t, K_SIGNED),
    SCALAR(NEXAR_DTYPE_UINT16, "uint16", uint16_t, K_UNSIGNED),
    SCALAR(NEXAR_DTYPE_INT32, "int32", int32_t, K_SIGNED),
    SCALAR(NEXAR_DTYPE_UINT32, "uint32", uint32_t, K_UNSIGNED),
    SCALAR(NEXAR_DTYPE_INT64, "int64", int64_t, K_SIGNED),
    SCALAR(NEXAR_DTYPE_UINT64, "uint64", uint64_t, K_UNSIGNED),
    { NEXAR_DTYPE_FLOAT16, "float16", 2, K_FLOAT, K_FLOAT, 2, 0, 1 },
    { NEXAR_DTYPE_BFLOAT16, "bfloat16", 2, K_FLOAT, K_FLOAT, 2, 0, 2 },
    SCALAR(NEXAR_DTYPE_FLOAT, "float", float, K_FLOAT),
    SCALAR(NEXAR_DTYPE_DOUBLE, "double", double, K_FLOAT),
    PAIR(NEXAR_DTYPE_FLOAT_INT, "float_int", float_int, K_FLOAT),
    PAIR(NEXAR_DTYPE_DOUBLE_INT, "double_int", double_int, K_FLOAT),
    PAIR(NEXAR_DTYPE_2INT, "2int", int_int, K_SIGNED),
    PAIR(NEXAR_DTYPE_LONG_INT, "long_int", long_int, K_SIGNED),
    PAIR(NEXAR_DTYPE_SHORT_INT, "short_int", short_int, K_SIGNED),
};
#define NTYPES (sizeof TYPES / sizeof TYPES[0])

static inline const type_t *type_of(nexar_datatype_t dt)
{
    for (size_t i = 0; i < NTYPES; i++) {
        if (TYPES[i].dt == dt) {
            return &TYPES[i];
        }
    }
    REQUIRE(!"unknown datatype in the test table");
    return NULL;
}

/* binary16 <-> float for the exactly representable values the tests use. */
static inline uint16_t f16_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    uint16_t sign = (uint16_t)((b >> 16) & 0x8000u);
    if ((b & 0x7fffffffu) == 0) {
        return sign;
    }
    int e = (int)((b >> 23) & 0xff) - 127 + 15; /* normal numbers only */
    return (uint16_t)(sign | (uint16_t)(e << 10) | (uint16_t)((b >> 13) & 0x3ff));
}

static inline float f16_value(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, b;
    if (e == 0 && m == 0) {
        b = sign;
    } else if (e == 0) { /* subnormal: m * 2^-24 */
        float v = (float)m / 16777216.0f;
        return sign ? -v : v;
    } else {
        b = sign | ((e - 15 + 127) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* Stores scalar `x` (an exactly representable value) as `k`/`size` at `p`. */
static inline void store_scalar(enum kind k, size_t size, int half, void *p, double x)
{
    if (k == K_FLOAT) {
        if (half == 1) {
            uint16_t h = f16_bits((float)x);
            memcpy(p, &h, 2);
        } else if (half == 2) {
            float f = (float)x;
            uint32_t b;
            memcpy(&b, &f, 4);
            uint16_t h = (uint16_t)(b >> 16);
            memcpy(p, &h, 2);
        } else if (size == 4) {
            float f = (float)x;
            memcpy(p, &f, 4);
        } else {
            memcpy(p, &x, 8);
        }
        return;
    }
    int64_t v = (int64_t)x;
    switch (size) {
    case 1: { int8_t t = (int8_t)v; memcpy(p, &t, 1); break; }
    case 2: { int16_t t = (int16_t)v; memcpy(p, &t, 2); break; }
    case 4: { int32_t t = (int32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static inline double load_scalar(enum kind k, size_t size, int half, const void *p)
{
    if (k == K_FLOAT) {
        if (half) {
            uint16_t h;
            memcpy(&h, p, 2);
            if (half == 1) {
                return f16_value(h);
            }
            uint32_t b = (uint32_t)h << 16;
            float f;
            memcpy(&f, &b, 4);
            return f;
        }
        if (size == 4) {
            float f;
            memcpy(&f, p, 4);
            return f;
        }
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    if (k == K_SIGNED) {
        switch (size) {
        case 1: { int8_t t; memcpy(&t, p, 1); return t; }
        case 2: { int16_t t; memcpy(&t, p, 2); return t; }
        case 4: { int32_t t; memcpy(&t, p, 4); return t; }
        default: { int64_t t; memcpy(&t, p, 8); return (double)t; }
        }
    }
    switch (size) {
    case 1: { uint8_t t; memcpy(&t, p, 1); return t; }
    case 2: { uint16_t t; memcpy(&t, p, 2); return t; }
    case 4: { uint32_t t; memcpy(&t, p, 4); return t; }
    default: { uint64_t t; memcpy(&t, p, 8); return (double)t; }
    }
}

/* Element `i` of a typed buffer: value (scalar or pair value) and pair index. */
static inline void put_elem(const type_t *t, void *buf, size_t i, double v, int idx)
{
    unsigned char *p = (unsigned char *)buf + i * t->size;
    store_scalar(t->vkind, t->vsize, t->half, p, v);
    if (t->kind == K_PAIR) {
        memcpy(p + t->ioff, &idx, sizeof idx);
    }
}

static inline double get_val(const type_t *t, const void *buf, size_t i)
{
    return load_scalar(t->vkind, t->vsize, t->half, (const unsigned char *)buf + i * t->size);
}

static inline int get_idx(const type_t *t, const void *buf, size_t i)
{
    int idx;
    memcpy(&idx, (const unsigned char *)buf + i * t->size + t->ioff, sizeof idx);
    return idx;
}

/* The byte pattern data moved by collectives carries: a function of who made it, the element's
 * position in its sender's buffer, the byte and a per-case salt. */
static inline unsigned char pat(int origin, size_t elem, size_t byte, int salt)
{
    return (unsigned char)(origin * 37 + (int)(elem % 4093) * 11 + (int)byte * 3 + salt * 5 + 1);
}

/* Writes elements [first, first + n) of `origin`'s pattern at `dst`. */
static inline void fill_pat(void *dst, int origin, size_t first, size_t n, size_t esize, int salt)
{
    unsigned char *d = dst;
    for (size_t e = 0; e < n; e++) {
        for (size_t b = 0; b < esize; b++) {
            d[e * esize + b] = pat(origin, first + e, b, salt);
        }
    }
}

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    REQUIRE(p != NULL);
    return p;
}

/* A buffer of `bytes` filled with SENT. */
static inline unsigned char *sent_buf(size_t bytes)
{
    unsigned char *p = xmalloc(bytes);
    memset(p, SENT, bytes);
    return p;
}

/* Index of the first byte where a and b differ, or (size_t)-1. */
static inline size_t first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return i;
        }
    }
    return (size_t)-1;
}

/*
 * Completes `n` requests (NULL entries allowed) in one of five ways, checking that each handle
 * is reset to NEXAR_REQUEST_NULL and each status reports success.
 */
static inline void complete_requests(nexar_request_t *r, size_t n, int style)
{
    nexar_status_t *st = xmalloc((n + 1) * sizeof *st);
    switch (style % 5) {
    case 0:
        CHECK_OK(nexar_waitall(n, r, st));
        for (size_t i = 0; i < n; i++) {
            CHECK(st[i].error == NEXAR_SUCCESS);
        }
        break;
    case 1:
        for (size_t i = n; i-- > 0;) {
            CHECK_OK(nexar_wait(&r[i], &st[0]));
            CHECK(st[0].error == NEXAR_SUCCESS);
        }
        break;
    case 2: {
        size_t left = n;
        while (left > 0) {
            left = 0;
            for (size_t i = 0; i < n; i++) {
                if (r[i] == NEXAR_REQUEST_NULL) {
                    continue;
                }
                int flag = -1;
                CHECK_OK(nexar_test(&r[i], &flag, &st[0]));
                CHECK(flag == 0 || flag == 1);
                if (flag == 1) {
                    CHECK(r[i] == NEXAR_REQUEST_NULL);
                    CHECK(st[0].error == NEXAR_SUCCESS);
                } else {
                    CHECK(r[i] != NEXAR_REQUEST_NULL);
                    left++;
                }
            }
            if (left > 0) {
                sched_yield();
            }
        }
        break;
    }
    case 3: {
        unsigned char *seen = calloc(n ? n : 1, 1);
        size_t live = 0;
        for (size_t i = 0; i < n; i++) {
            live += r[i] != NEXAR_REQUEST_NULL;
        }
        for (size_t k = 0; k < live; k++) {
            int idx = -2;
            CHECK_OK(nexar_waitany(n, r, &idx, &st[0]));
            REQUIRE(idx >= 0 && (size_t)idx < n && !seen[idx]);
            seen[idx] = 1;
            CHECK(r[idx] == NEXAR_REQUEST_NULL);
            CHECK(st[0].error == NEXAR_SUCCESS);
        }
        int idx = -2;
        CHECK_OK(nexar_waitany(n, r, &idx, NULL));
        CHECK(idx == NEXAR_UNDEFINED);
        free(seen);
        break;
    }
    default: {
        int flag = 0;
        while (!flag) {
            CHECK_OK(nexar_testall(n, r, &flag, st));
            if (!flag) {
                sched_yield();
            }
        }
        for (size_t i = 0; i < n; i++) {
            CHECK(st[i].error == NEXAR_SUCCESS);
        }
        break;
    }
    }
    for (size_t i = 0; i < n; i++) {
        CHECK(r[i] == NEXAR_REQUEST_NULL);
    }
    free(st);
}

#endif /* NEXAR_CTEST_COLL_UTIL_H */
