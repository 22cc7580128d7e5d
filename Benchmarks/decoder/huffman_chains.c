// Whether two Huffman chains in one thread decode a sequential scan faster than one (issue 48):
// the entropy decode of vgn_jpeg_scaled_decode alone (scaled.c's decode_block: every symbol
// decoded, the coefficients its reduced IDCT reads kept; no IDCT, no samples), over the whole
// entropy-coded segment of each baseline JPEG given that has no restart intervals, in these ways:
//   one chain          today's order, block after block;
//   blocks interleaved a block of chain A (from the start), then one of chain B (from the MCU
//                      boundary nearest the middle), and so on;
//   inside the block   A's and B's blocks decoded together, one table lookup of each in turn;
//   inside, stored     the same, B's blocks copied to a store (allocated each decode, or kept),
//                      as the real design must keep them until A finds their places and DC;
//   steps, one / two   a decoder with no branch at the end of a block (one table lookup a step,
//                      DC and AC entries in one format, the next table chosen without a branch),
//                      one chain, and two chains in lockstep.
// B starts at the true MCU boundary, found by a first decode: no resynchronisation search and no
// DC fix-up. These times are therefore what the two-chain design could at best save. Each way's final bit positions are checked against the
// first decode's. Built and run by Benchmarks/huffman-chains.sh; times are CPU time, the median
// of ROUNDS (15) rounds in which the ways alternate, each round ITERATIONS (20) decodes.
#include "../../CSystemShims/CVignetteJPEGDC/scaled.c"

#include <stdio.h>
#include <time.h>

#define FAST __attribute__((target("avx2,bmi2"), noinline))

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/// One scan's decode: tables, the unstuffed segment, the component of each block of an MCU.
typedef struct {
    const tables *t;
    const vgn_dc_scan *scan;
    const uint8_t *data;
    size_t size;
    int blocks;           // a MCU
    int comp_of[VGN_DC_MAX_BLOCKS_IN_MCU];
    long mcus;
    long *bounds;         // the bit position of each MCU boundary, [0, mcus]
} scan_data;

static void start_at(vgn_dc_reader *r, const scan_data *d, long bit) {
    *r = (vgn_dc_reader){.data = d->data, .size = d->size, .pos = (size_t)(bit / 8)};
    vgn_dc_refill(r);
    vgn_dc_drop(r, (int)(bit % 8));
}

static long bit_of(const vgn_dc_reader *r) { return 8 * (long)r->pos - r->count; }

/// Today's order: the MCUs [first, end) block after block, recording each MCU's start when asked.
FAST static int one_chain(const scan_data *d, vgn_dc_reader *r, long first, long end, long *record) {
    _Alignas(32) int16_t block[BLOCK_STRIDE] = {0};
    uint16_t pred[3] = {0};
    const tables *t = d->t;
    for (long m = first; m < end; m++) {
        if (record) record[m] = bit_of(r);
        for (int b = 0; b < d->blocks; b++) {
            int i = d->comp_of[b];
            if (decode_block(r, &t->dc[d->scan->td[i]], &t->ac[d->scan->ta[i]], t->keep, block, &pred[i]) < 0) return -1;
            memset(block, 0, 64 * sizeof block[0]);
        }
    }
    if (record) record[end] = bit_of(r);
    return 0;
}

/// A block of A, then one of B, for `count` MCUs each.
FAST static int blocks_interleaved(const scan_data *d, vgn_dc_reader *ra, vgn_dc_reader *rb, long count) {
    _Alignas(32) int16_t ba[BLOCK_STRIDE] = {0}, bb[BLOCK_STRIDE] = {0};
    uint16_t pa[3] = {0}, pb[3] = {0};
    const tables *t = d->t;
    vgn_dc_reader a = *ra, b = *rb;
    for (long m = 0; m < count; m++)
        for (int k = 0; k < d->blocks; k++) {
            int i = d->comp_of[k];
            const vgn_dc_huffman *dc = &t->dc[d->scan->td[i]];
            const ac_table *ac = &t->ac[d->scan->ta[i]];
            if (decode_block(&a, dc, ac, t->keep, ba, &pa[i]) < 0 || decode_block(&b, dc, ac, t->keep, bb, &pb[i]) < 0) return -1;
            memset(ba, 0, 64 * sizeof ba[0]);
            memset(bb, 0, 64 * sizeof bb[0]);
        }
    *ra = a;
    *rb = b;
    return 0;
}

/// One AC table lookup of decode_block's loop for the block `block` at index `k` of reader `r`.
#define LOOKUP(r, k, block, ac, keep)                                                                        \
    do {                                                                                                     \
        uint64_t e = ac->fast[vgn_dc_peek(r, AC_LOOKAHEAD)];                                                 \
        vgn_dc_refill(r);                                                                                    \
        if (__builtin_expect(k + E_BEFORE_LAST(e) >= 63, 0)) {                                               \
            if (E_TO1(e) != 0) {                                                                             \
                k += E_TO1(e);                                                                               \
                block[keep[k]] = (int16_t)E_VAL1(e);                                                         \
                vgn_dc_drop(r, E_FIRST(e));                                                                  \
            } else {                                                                                         \
                int symbol;                                                                                  \
                if (E_FIRST(e)) {                                                                            \
                    vgn_dc_drop(r, E_FIRST(e));                                                              \
                    symbol = (int)(e >> 36 & 0xFF);                                                          \
                } else if ((symbol = vgn_dc_decode_slow(r, &ac->slow, AC_LOOKAHEAD + 1)) < 0) {              \
                    return -1;                                                                               \
                }                                                                                            \
                int s = symbol & 15, value = 0;                                                              \
                if (s) {                                                                                     \
                    value = vgn_dc_extend(vgn_dc_peek(r, s), s);                                             \
                    vgn_dc_drop(r, s);                                                                       \
                }                                                                                            \
                k += (unsigned)advance_of(symbol);                                                           \
                block[keep[k]] = (int16_t)value;                                                             \
            }                                                                                                \
        } else {                                                                                             \
            block[keep[k + E_TO3(e)]] = (int16_t)E_VAL3(e);                                                  \
            block[keep[k + E_TO2(e)]] = (int16_t)E_VAL2(e);                                                  \
            block[keep[k + E_TO1(e)]] = (int16_t)E_VAL1(e);                                                  \
            k += E_TO3(e);                                                                                   \
            (r)->bits <<= e & 63;                                                                            \
            (r)->count -= E_TOTAL(e);                                                                        \
        }                                                                                                    \
    } while (0)

/// A block of A and one of B together: both DCs, then a lookup of each in turn while both are
/// open, then the one left alone.
static inline __attribute__((always_inline)) int decode_pair(vgn_dc_reader *ra, vgn_dc_reader *rb, const vgn_dc_huffman *dc,
                                                             const ac_table *ac, const uint8_t *keep, int16_t *ba, int16_t *bb,
                                                             uint16_t *pa, uint16_t *pb) {
    int da, db;
    if (vgn_dc_decode_dc(ra, dc, &da) != 0 || vgn_dc_decode_dc(rb, dc, &db) != 0) return -1;
    *pa = (uint16_t)(*pa + (uint16_t)da);
    *pb = (uint16_t)(*pb + (uint16_t)db);
    ba[0] = (int16_t)*pa;
    bb[0] = (int16_t)*pb;
    unsigned ka = 0, kb = 0;
    while (ka < 63 && kb < 63) {
        LOOKUP(ra, ka, ba, ac, keep);
        LOOKUP(rb, kb, bb, ac, keep);
    }
    while (ka < 63) LOOKUP(ra, ka, ba, ac, keep);
    while (kb < 63) LOOKUP(rb, kb, bb, ac, keep);
    return 0;
}

/// As above; with `store`, B's blocks are copied there (64 coefficients each), as a B that cannot
/// yet know its blocks' places or DC values has to keep them.
FAST static int inside_the_block(const scan_data *d, vgn_dc_reader *ra, vgn_dc_reader *rb, long count, int16_t *store) {
    _Alignas(32) int16_t ba[BLOCK_STRIDE] = {0}, bb[BLOCK_STRIDE] = {0};
    uint16_t pa[3] = {0}, pb[3] = {0};
    const tables *t = d->t;
    vgn_dc_reader a = *ra, b = *rb;
    for (long m = 0; m < count; m++)
        for (int k = 0; k < d->blocks; k++) {
            int i = d->comp_of[k];
            if (decode_pair(&a, &b, &t->dc[d->scan->td[i]], &t->ac[d->scan->ta[i]], t->keep, ba, bb, &pa[i], &pb[i]) != 0) return -1;
            if (store) {
                memcpy(store, bb, 64 * sizeof bb[0]);
                store += 64;
            }
            memset(ba, 0, 64 * sizeof ba[0]);
            memset(bb, 0, 64 * sizeof bb[0]);
        }
    *ra = a;
    *rb = b;
    return 0;
}

// The step decoder. Its DC tables have AC entries' format (one symbol: its bits, its value at index
// 1 of a block counted from 1, so that index 0 means "DC next"); an index past 63 ends the block
// and picks the next block's DC table with a conditional move.

static uint64_t dc_steps[4][1 << AC_LOOKAHEAD];
static const uint64_t *dc_table_of[VGN_DC_MAX_BLOCKS_IN_MCU], *ac_table_of[VGN_DC_MAX_BLOCKS_IN_MCU];
static const vgn_dc_huffman *dc_slow_of[VGN_DC_MAX_BLOCKS_IN_MCU], *ac_slow_of[VGN_DC_MAX_BLOCKS_IN_MCU];
static int next_of[VGN_DC_MAX_BLOCKS_IN_MCU];
static uint8_t keep_from_1[KEEP_SIZE + 1];

static void build_dc_steps(const vgn_dc_huffman_spec *spec, uint64_t *fast) {
    uint16_t single[1 << AC_LOOKAHEAD];
    vgn_dc_build_lookup(spec, AC_LOOKAHEAD, single);
    for (uint32_t e = 0; e < 1u << AC_LOOKAHEAD; e++) {
        int length, symbol = vgn_dc_symbol_at(single, AC_LOOKAHEAD, e, AC_LOOKAHEAD, &length), s = symbol & 15;
        if (symbol < 0 || length + s > AC_LOOKAHEAD) {
            fast[e] = PARTIAL_ENTRY;   // to 0: the slow path
            continue;
        }
        int value = s ? vgn_dc_extend((e >> (AC_LOOKAHEAD - length - s)) & ((1u << s) - 1), s) : 0;
        fast[e] = (uint64_t)(length + s) | (uint64_t)(length + s) << 6 | 1ull << 16 | 1ull << 22 | 1ull << 29
                | ((uint64_t)(uint32_t)value & 4095) << 36;
    }
}

typedef struct {
    uint64_t bits;
    int count;
    size_t pos;
    unsigned k;                         // index counted from 1; 0: DC next
    int b;                              // block of the MCU
    long done;                          // blocks finished
    const uint64_t *table, *ac, *dc_next;
} step_chain;

/// The slow path of a step: a DC code past the lookahead, an AC entry that ends the block early
/// or a partial one; 0, or -1 for a bad code.
FAST static int step_slow(step_chain *c, uint64_t e, int16_t *block, const uint8_t *data, size_t size) {
    vgn_dc_reader r = {.data = data, .size = size, .pos = c->pos, .bits = c->bits, .count = c->count};
    if (c->k == 0) {
        int diff;
        if (vgn_dc_decode_dc(&r, dc_slow_of[c->b], &diff) != 0) return -1;
        block[0] = (int16_t)diff;
        c->k = 1;
    } else if (E_TO1(e) != 0) {
        c->k += E_TO1(e);
        block[keep_from_1[c->k]] = (int16_t)E_VAL1(e);
        vgn_dc_drop(&r, E_FIRST(e));
    } else {
        int symbol;
        if (E_FIRST(e)) {
            vgn_dc_drop(&r, E_FIRST(e));
            symbol = (int)(e >> 36 & 0xFF);
        } else if ((symbol = vgn_dc_decode_slow(&r, ac_slow_of[c->b], AC_LOOKAHEAD + 1)) < 0) {
            return -1;
        }
        int s = symbol & 15, value = 0;
        if (s) {
            value = vgn_dc_extend(vgn_dc_peek(&r, s), s);
            vgn_dc_drop(&r, s);
        }
        c->k += (unsigned)advance_of(symbol);
        block[keep_from_1[c->k]] = (int16_t)value;
    }
    c->pos = r.pos;
    c->bits = r.bits;
    c->count = r.count;
    return 0;
}

#define STEP(c, ring)                                                                                        \
    do {                                                                                                     \
        uint64_t e = c.table[c.bits >> 52];                                                                  \
        if (__builtin_expect(c.pos + 8 <= size, 1)) {                                                        \
            c.bits |= vgn_dc_load_be64(data + c.pos) >> c.count;                                             \
            c.pos += (size_t)((63 - c.count) >> 3);                                                          \
            c.count |= 56;                                                                                   \
        } else {                                                                                             \
            vgn_dc_reader r_ = {.data = data, .size = size, .pos = c.pos, .bits = c.bits, .count = c.count}; \
            vgn_dc_refill(&r_);                                                                              \
            c.pos = r_.pos, c.bits = r_.bits, c.count = r_.count;                                             \
        }                                                                                                    \
        int16_t *block = ring + (c.done & 63) * BLOCK_STRIDE;                                                \
        if (__builtin_expect(E_TO1(e) == 0 || c.k + E_BEFORE_LAST(e) >= 64, 0)) {                            \
            step_chain t_ = c;                                                                               \
            if (step_slow(&t_, e, block, data, size) != 0) return -1;                                        \
            c = t_;                                                                                          \
        } else {                                                                                             \
            block[keep_from_1[c.k + E_TO3(e)]] = (int16_t)E_VAL3(e);                                         \
            block[keep_from_1[c.k + E_TO2(e)]] = (int16_t)E_VAL2(e);                                         \
            block[keep_from_1[c.k + E_TO1(e)]] = (int16_t)E_VAL1(e);                                         \
            c.k += E_TO3(e);                                                                                 \
            c.bits <<= e & 63;                                                                               \
            c.count -= E_TOTAL(e);                                                                           \
        }                                                                                                    \
        unsigned end = c.k > 63;                                                                             \
        c.done += end;                                                                                       \
        c.k &= end - 1u;                                                                                     \
        c.table = end ? c.dc_next : c.ac;                                                                    \
        c.b = end ? next_of[c.b] : c.b;                                                                      \
        c.ac = ac_table_of[c.b];                                                                             \
        c.dc_next = dc_table_of[next_of[c.b]];                                                               \
    } while (0)

static step_chain step_start(const scan_data *d, long bit) {
    vgn_dc_reader r;
    start_at(&r, d, bit);
    return (step_chain){.bits = r.bits, .count = r.count, .pos = r.pos, .table = dc_table_of[0], .ac = ac_table_of[0],
                        .dc_next = dc_table_of[next_of[0]]};
}

static long step_bit(const step_chain *c) { return 8 * (long)c->pos - c->count; }

static _Alignas(32) int16_t ring_a[64 * BLOCK_STRIDE], ring_b[64 * BLOCK_STRIDE];

FAST static int steps_one(const scan_data *d, step_chain *ca, long blocks) {
    const uint8_t *data = d->data;
    size_t size = d->size;
    step_chain a = *ca;
    while (a.done < blocks) STEP(a, ring_a);
    *ca = a;
    return 0;
}

FAST static int steps_two(const scan_data *d, step_chain *ca, step_chain *cb, long blocks) {
    const uint8_t *data = d->data;
    size_t size = d->size;
    step_chain a = *ca, b = *cb;
    while (a.done < blocks && b.done < blocks) {
        STEP(a, ring_a);
        STEP(b, ring_b);
    }
    while (a.done < blocks) STEP(a, ring_a);
    while (b.done < blocks) STEP(b, ring_b);
    *ca = a;
    *cb = b;
    return 0;
}

enum { ONE, BLOCKS, INSIDE, INSIDE_STORED, INSIDE_REUSED, STEPS_ONE, STEPS_TWO, WAYS };
static const char *const way_names[WAYS] = {"one chain", "blocks interleaved", "inside the block", "inside, B's stored",
                                            "inside, store reused", "steps, one chain", "steps, two chains"};
/// The store of INSIDE_REUSED: allocated and touched once.
static int16_t *reused_store;

/// One decode of the whole segment in way `w`: 0 when every chain ends where the first decode did.
static int run(const scan_data *d, int w) {
    long half = d->mcus / 2, mid = d->bounds[half], end = d->bounds[d->mcus];
    vgn_dc_reader a, b;
    start_at(&a, d, 0);
    start_at(&b, d, mid);
    switch (w) {
    case ONE:
        return one_chain(d, &a, 0, d->mcus, NULL) == 0 && bit_of(&a) == end ? 0 : -1;
    case BLOCKS:
    case INSIDE:
    case INSIDE_STORED:
    case INSIDE_REUSED: {
        // A takes [0, half), B [half, 2 * half); an odd last MCU is B's afterwards. INSIDE_STORED
        // allocates the store for each decode, as a decoder would; INSIDE_REUSED keeps one.
        int16_t *store = w == INSIDE_STORED ? malloc((size_t)(half * d->blocks) * 64 * sizeof *store)
                       : w == INSIDE_REUSED ? reused_store : NULL;
        int status = w == BLOCKS ? blocks_interleaved(d, &a, &b, half) : inside_the_block(d, &a, &b, half, store);
        if (w == INSIDE_STORED) free(store);
        if (status != 0 || bit_of(&a) != mid || bit_of(&b) != d->bounds[2 * half]) return -1;
        return one_chain(d, &b, 2 * half, d->mcus, NULL) == 0 && bit_of(&b) == end ? 0 : -1;
    }
    case STEPS_ONE: {
        step_chain s = step_start(d, 0);
        return steps_one(d, &s, d->mcus * d->blocks) == 0 && step_bit(&s) == end ? 0 : -1;
    }
    default: {
        step_chain sa = step_start(d, 0), sb = step_start(d, mid);
        if (steps_two(d, &sa, &sb, half * d->blocks) != 0 || step_bit(&sa) != mid || step_bit(&sb) != d->bounds[2 * half])
            return -1;
        start_at(&b, d, step_bit(&sb));
        return one_chain(d, &b, 2 * half, d->mcus, NULL) == 0 && bit_of(&b) == end ? 0 : -1;
    }
    }
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned char *read_file(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    unsigned char *bytes = NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        bytes = malloc((size_t)*size);
        if (bytes != NULL && fread(bytes, 1, (size_t)*size, f) != (size_t)*size) {
            free(bytes);
            bytes = NULL;
        }
    }
    fclose(f);
    return bytes;
}

int main(int argc, char **argv) {
    int iterations = getenv("ITERATIONS") ? atoi(getenv("ITERATIONS")) : 20, rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 15;
    int scale = getenv("SCALE") ? atoi(getenv("SCALE")) : 2, failed = 0;
    if (iterations < 1 || rounds < 1 || (scale != 2 && scale != 4)) return 2;
    for (int f = 1; f < argc; f++) {
        long n = 0;
        unsigned char *jpeg = read_file(argv[f], &n);
        vgn_dc_state st;
        memset(&st, 0, sizeof st);
        vgn_dc_scan scan;
        size_t pos = jpeg ? vgn_dc_read_header(jpeg, (size_t)n, &st, &scan) : 0;
        if (pos == 0 || vgn_dc_check_sequential_scan(&st, &scan) != 0 || st.restart_interval != 0) {
            printf("%s: not a sequential scan without restart intervals; skipped\n", argv[f]);
            free(jpeg);
            continue;
        }
        tables *t = malloc(sizeof *t);
        uint8_t *segment = malloc((size_t)n);
        scan_data d = {.t = t, .scan = &scan, .data = segment};
        int marker, per_row;
        size_t after;
        for (int k = 0; k < KEEP_SIZE; k++) {
            int p = k < 64 ? natural_order[k] : k < END_OF_BLOCK ? 63 : DROPPED;
            t->keep[k] = (uint8_t)(p != DROPPED && needed(p, scale) ? p : DROPPED);
        }
        keep_from_1[0] = DROPPED;
        memcpy(keep_from_1 + 1, t->keep, KEEP_SIZE);
        for (int i = 0; i < scan.count; i++) {
            vgn_dc_build_huffman(&st.dc[scan.td[i]], &t->dc[scan.td[i]]);
            vgn_dc_build_huffman(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]].slow);
            build_ac_table(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]]);
            build_dc_steps(&st.dc[scan.td[i]], dc_steps[scan.td[i]]);
            int blocks = scan.count == 1 ? 1 : st.comp[i].h * st.comp[i].v;
            for (int k = 0; k < blocks; k++) d.comp_of[d.blocks++] = i;
        }
        for (int k = 0; k < d.blocks; k++) {
            int i = d.comp_of[k];
            dc_table_of[k] = dc_steps[scan.td[i]];
            ac_table_of[k] = t->ac[scan.ta[i]].fast;
            dc_slow_of[k] = &t->dc[scan.td[i]];
            ac_slow_of[k] = &t->ac[scan.ta[i]].slow;
            next_of[k] = k + 1 == d.blocks ? 0 : k + 1;
        }
        d.mcus = vgn_dc_mcus_in_scan(&st, &scan, &per_row);
        d.bounds = malloc((size_t)(d.mcus + 1) * sizeof *d.bounds);
        vgn_dc_reader r;
        if (vgn_dc_unstuff(jpeg, (size_t)n, pos, segment, &d.size, &marker, &after) != 0 || d.mcus < 2
            || (start_at(&r, &d, 0), one_chain(&d, &r, 0, d.mcus, d.bounds)) != 0 || vgn_dc_overrun(&r) > 0) {
            printf("%s: declined\n", argv[f]);
        } else {
            free(reused_store);
            reused_store = calloc((size_t)(d.mcus / 2 * d.blocks) * 64, sizeof *reused_store);
            double *times = malloc(sizeof(double) * WAYS * (size_t)rounds);
            for (int round = 0; round < rounds; round++)
                for (int w = 0; w < WAYS; w++) {
                    double start = cpu_seconds();
                    for (int i = 0; i < iterations; i++)
                        if (run(&d, w) != 0 && !failed) failed = 1, printf("%s: %s ended at another bit position\n", argv[f], way_names[w]);
                    times[w * rounds + round] = (cpu_seconds() - start) / iterations;
                }
            printf("%s at 1/%d: %ld MCUs of %d blocks, %.1f bits a block\n", argv[f], 8 / scale, d.mcus, d.blocks,
                   8.0 * (double)d.size / (double)(d.mcus * d.blocks));
            double base = 0;
            for (int w = 0; w < WAYS; w++) {
                qsort(times + w * rounds, (size_t)rounds, sizeof *times, compare_double);
                double median = times[w * rounds + rounds / 2];
                if (w == ONE) base = median;
                printf("  %-20s %.3f ms  (%.2fx one chain's time)\n", way_names[w], median * 1e3, median / base);
            }
            free(times);
        }
        free(d.bounds);
        free(segment);
        free(t);
        free(jpeg);
    }
    if (failed) printf("a way ended at another bit position than the first decode\n");
    return failed;
}
