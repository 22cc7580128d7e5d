// The sequential Huffman decoder at 1/4 and 1/2 (SOF0, SOF1; 8-bit; 1 or 3 components; any
// sampling factors that libjpeg-turbo decodes at one IDCT size for all components; restart
// intervals): every AC symbol is decoded, only the coefficients the reduced IDCT reads are kept
// (vgn_jpeg_idct_2x2: rows and columns 0, 1, 3, 5, 7; vgn_jpeg_idct_4x4: all but row 4), and each
// block becomes 2x2 or 4x4 samples as libjpeg-turbo's tjDecompressToYUVPlanes makes them here.
// It declines wherever libjpeg-turbo would warn or fail, as the DC-only decoder does
// (sequential.c): a bad Huffman code, bits needed past the end of a segment, a whole unused byte
// before a marker, a missing or misnumbered restart marker, anything but EOI after the scan.
#include "vgn_jpeg_dc.h"
#include "entropy.h"
#include "idct_reduced.h"
#include "scaled_output.h"

#include <stdlib.h>
#include <string.h>

#define AC_LOOKAHEAD 12

/// AC table entries (64 bits). A full entry is up to three whole symbols with their extra bits,
/// the block left open by all but the last: bits 0-5 the bits of all (a shift by the entry drops
/// them: x86 takes shift counts modulo 64), 6-9 of the first, 10-15 how far the symbols before
/// the last move the coefficient index, 16-21, 22-28 and 29-35 how far the first, the first two
/// and all three move it (run + 1 each; 16 for ZRL; EOB_ADVANCE for EOB; a missing symbol moves
/// it 0), 36-47, 48-55 and 56-63 their coefficients (12, 8 and 8 bits; 0 for ZRL, EOB and a
/// missing symbol). A partial entry has 63 in bits 10-15 and 0 in bits 16-21: a code whose extra
/// bits pass the lookahead (bits 6-9 its length, 36-43 the symbol), or, with length 0, a code
/// longer than the lookahead (libjpeg's walk).
#define PARTIAL_ENTRY (63u << 10)
/// EOB's advance in a full entry: from any index below 63 it reaches 63 or more; the index it
/// reaches stores a zero where nothing was stored yet (64-79 -> 63 only from an index below 17)
/// or into the dropped entry.
#define EOB_ADVANCE 63
/// Past the last index any block reaches in the partial path (63 + 16); EOB's there.
#define END_OF_BLOCK 80

#define E_TOTAL(e) ((int)((e) & 63))
#define E_FIRST(e) ((int)((e) >> 6 & 15))
#define E_BEFORE_LAST(e) ((unsigned)((e) >> 10 & 63))
#define E_TO1(e) ((unsigned)((e) >> 16 & 63))
#define E_TO2(e) ((unsigned)((e) >> 22 & 127))
#define E_TO3(e) ((unsigned)((e) >> 29 & 127))
#define E_VAL1(e) ((int)((int64_t)((e) << 16) >> 52))
#define E_VAL2(e) ((int)((int64_t)((e) << 8) >> 56))
#define E_VAL3(e) ((int)((int64_t)(e) >> 56))

/// An AC table: one lookup of AC_LOOKAHEAD bits (entries as above), libjpeg's walk for the rest.
typedef struct {
    uint64_t fast[1 << AC_LOOKAHEAD];
    vgn_dc_huffman slow;
} ac_table;

/// Where coefficient index k (0..63, libjpeg's extra entries 64..79 -> 63, 80.. -> dropped) is
/// stored: its natural position, or DROPPED when the IDCT does not read it.
#define DROPPED 64
#define KEEP_SIZE (63 + END_OF_BLOCK + 1)

typedef struct {
    vgn_dc_huffman dc[4];
    ac_table ac[4];
    uint8_t keep[KEEP_SIZE];
} tables;



/// How far symbol `symbol` moves the index: run + 1, 16 for ZRL, END_OF_BLOCK for EOB.
static inline int advance_of(int symbol) {
    int run = symbol >> 4;
    if (symbol & 15) return run + 1;
    return run == 15 ? 16 : END_OF_BLOCK;
}

/// Fills `t->fast` from `spec` (canonical codes, figure C.2).
static void build_ac_table(const vgn_dc_huffman_spec *spec, ac_table *t) {
    uint16_t single[1 << AC_LOOKAHEAD];
    vgn_dc_build_lookup(spec, AC_LOOKAHEAD, single);
    static const int value_bits[3] = {12, 8, 8}, value_shift[3] = {36, 48, 56}, to_shift[3] = {16, 22, 29};
    for (uint32_t e = 0; e < 1u << AC_LOOKAHEAD; e++) {
        int length, symbol = vgn_dc_symbol_at(single, AC_LOOKAHEAD, e, AC_LOOKAHEAD, &length);
        if (symbol < 0) {
            t->fast[e] = PARTIAL_ENTRY;
            continue;
        }
        int s = symbol & 15;
        if (length + s > AC_LOOKAHEAD) {
            t->fast[e] = PARTIAL_ENTRY | (uint64_t)length << 6 | (uint64_t)symbol << 36;
            continue;
        }
        uint64_t entry = 0;
        int used = 0, to = 0, before_last = 0;
        int after[3];   // the index after each symbol, from 0; a missing one's is its predecessor's
        int n = 0;
        while (n < 3) {
            if (n > 0) {
                symbol = vgn_dc_symbol_at(single, AC_LOOKAHEAD, e << used, AC_LOOKAHEAD - used, &length);
                if (symbol < 0) break;
                s = symbol & 15;
                if (used + length + s > AC_LOOKAHEAD || s >= value_bits[n]) break;
            }
            int advance = advance_of(symbol) == END_OF_BLOCK ? EOB_ADVANCE : advance_of(symbol);
            int value = s ? vgn_dc_extend((e >> (AC_LOOKAHEAD - used - length - s)) & ((1u << s) - 1), s) : 0;
            before_last = to;
            to += advance;
            after[n] = to;
            used += length + s;
            entry |= ((uint64_t)(uint32_t)value & ((1u << value_bits[n]) - 1)) << value_shift[n];
            if (n == 0) entry |= (uint64_t)used << 6;
            n++;
            if (advance == EOB_ADVANCE) break;
        }
        for (int i = n; i < 3; i++) after[i] = after[i - 1];
        for (int i = 0; i < 3; i++) entry |= (uint64_t)after[i] << to_shift[i];
        t->fast[e] = entry | (uint64_t)used | (uint64_t)before_last << 10;
    }
}

/// One full entry's symbols: each coefficient stored, last to first (a missing symbol stores a
/// zero where the one before it stores next), the index moved past them, their bits dropped.
#define TAKE_ALL(e)                                                  \
    do {                                                             \
        block[keep[k + E_TO3(e)]] = (int16_t)E_VAL3(e);              \
        block[keep[k + E_TO2(e)]] = (int16_t)E_VAL2(e);              \
        block[keep[k + E_TO1(e)]] = (int16_t)E_VAL1(e);              \
        any |= (e) >> 36;                                            \
        k += E_TO3(e);                                               \
        r->bits <<= (e) & 63;                                        \
        r->count -= E_TOTAL(e);                                      \
    } while (0)

/// Decodes one block's coefficients into `block` (DROPPED + 1 entries, zero but for what this
/// writes; the last takes what the IDCT does not read), DC included: nonzero when it has AC
/// coefficients, 0 when it has none, -1 for a bad code.
static inline __attribute__((always_inline)) int decode_block(vgn_dc_reader *r, const vgn_dc_huffman *dc, const ac_table *ac, const uint8_t *keep,
                               int16_t *block, uint16_t *pred) {
    int diff;
    if (vgn_dc_decode_dc(r, dc, &diff) != 0) return -1;
    *pred = (uint16_t)(*pred + (uint16_t)diff);
    block[0] = (int16_t)*pred;
    uint64_t any = 0;
    unsigned k = 0;   // the index of the last coefficient placed
    for (;;) {
        // At least 12 bits are left here, enough for the first lookup, so the refill runs beside
        // it: 25 after the DC; from the 56 a refill leaves, two entries of at most 12 bits take 24,
        // an entry and a partial code (at most 31 bits with its extra bits) 43. The second lookup
        // needs no refill of its own (44 left), nor does a partial code at either (31 or more).
        uint64_t e = ac->fast[vgn_dc_peek(r, AC_LOOKAHEAD)];
        vgn_dc_refill(r);
        if (__builtin_expect(k + E_BEFORE_LAST(e) >= 63, 0)) goto other;
        TAKE_ALL(e);
        if (k >= 63) break;
        e = ac->fast[vgn_dc_peek(r, AC_LOOKAHEAD)];
        if (__builtin_expect(k + E_BEFORE_LAST(e) >= 63, 0)) goto other;
        TAKE_ALL(e);
        if (k >= 63) break;
        continue;
    other:
        if (E_TO1(e) != 0) {
            // One before the last ends the block (at index 63, without EOB): the first alone.
            int value = E_VAL1(e);
            k += E_TO1(e);
            block[keep[k]] = (int16_t)value;
            any |= (uint64_t)(uint32_t)value;
            vgn_dc_drop(r, E_FIRST(e));
        } else {
            int symbol;
            if (E_FIRST(e)) {
                vgn_dc_drop(r, E_FIRST(e));
                symbol = (int)(e >> 36 & 0xFF);
            } else {
                symbol = vgn_dc_decode_slow(r, &ac->slow, AC_LOOKAHEAD + 1);
                if (symbol < 0) return -1;
            }
            int s = symbol & 15, value = 0;
            if (s) {
                value = vgn_dc_extend(vgn_dc_peek(r, s), s);
                vgn_dc_drop(r, s);
            }
            k += (unsigned)advance_of(symbol);
            block[keep[k]] = (int16_t)value;
            any |= (uint64_t)(uint32_t)value;
        }
        if (k >= 63) break;
    }
    return any != 0;
}




/// Blocks wait for the IDCT in two banks of two (the AVX2 IDCT takes two blocks a call): a full
/// bank's IDCT runs only once the other bank has filled, so that the coefficient stores of its
/// blocks have reached the cache when the IDCT's vector loads read them (a load that overlaps a
/// store still in flight waits for it).
#define BLOCK_STRIDE 80   // int16 entries a block: 64 coefficients, the dropped entry, padding to 32 bytes

/// A block waiting for its IDCT: its component's output and where.
typedef struct {
    const output *out;
    int bx, by;
} pending_block;

typedef struct {
    const vgn_dc_scan *scan;
    const tables *tables;
    const output *out;
    int scale, avx2;
    int h[3], v[3];
    uint16_t pred[3];
    int bank;                // the bank being filled
    int waiting[2];          // blocks of each bank awaiting the IDCT
    pending_block pending[2][2];
    _Alignas(32) int16_t blocks[2][2][BLOCK_STRIDE];   // zero between blocks
} interval_context;

/// Runs the IDCT of bank `k`'s waiting blocks (1 or 2), writes their samples and clears them.
static inline void flush_bank(interval_context *c, int k) {
    int scale = c->scale, count = c->waiting[k];
    int16_t(*blocks)[BLOCK_STRIDE] = c->blocks[k];
    const pending_block *pending = c->pending[k];
    uint8_t samples[32];
#if defined(__x86_64__)
    if (c->avx2) {
        const uint16_t *qa = pending[0].out->quant, *qb = count == 2 ? pending[1].out->quant : qa;
        if (scale == 4) vgn_jpeg_idct_4x4_pair_avx2(blocks[0], blocks[1], qa, qb, samples);
        else vgn_jpeg_idct_2x2_pair_avx2(blocks[0], blocks[1], qa, qb, samples);
    } else
#endif
    {
        for (int b = 0; b < count; b++) {
            if (scale == 4) vgn_jpeg_idct_4x4(blocks[b], pending[b].out->quant, samples + 16 * b, 4);
            else vgn_jpeg_idct_2x2(blocks[b], pending[b].out->quant, samples + 4 * b, 2);
        }
    }
    for (int b = 0; b < count; b++) {
        put_samples(pending[b].out, samples + b * scale * scale, scale, pending[b].bx, pending[b].by);
        memset(blocks[b], 0, 64 * sizeof blocks[b][0]);   // the dropped entry is never read
    }
    c->waiting[k] = 0;
}

/// The IDCT of every waiting block, the older bank first.
static void flush_all(interval_context *c) {
    if (c->waiting[!c->bank]) flush_bank(c, !c->bank);
    if (c->waiting[c->bank]) flush_bank(c, c->bank);
}

static inline __attribute__((always_inline)) int decode_one_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    interval_context *c = context;
    const output *o = &c->out[i];
    const tables *t = c->tables;
    int bank = c->bank, slot = c->waiting[bank];
    int16_t *block = c->blocks[bank][slot];
    int any_ac = decode_block(r, &t->dc[c->scan->td[i]], &t->ac[c->scan->ta[i]], t->keep, block, &c->pred[i]);
    if (any_ac < 0) return -1;
    if (bx >= o->wide || by >= o->high) {
        memset(block, 0, 64 * sizeof block[0]);
        return 0;
    }
    if (!any_ac) {
        put_dc_only(o, block[0], c->scale, bx, by);
        block[0] = 0;
        return 0;
    }
    c->pending[bank][slot] = (pending_block){.out = o, .bx = bx, .by = by};
    if (++c->waiting[bank] == 2) {
        // This bank is full: the other one's IDCT runs now, and it is filled next.
        if (c->waiting[!bank]) flush_bank(c, !bank);
        c->bank = !bank;
    }
    return 0;
}

/// Decodes the MCUs [first, first + count) of one restart interval from `r`.
static inline __attribute__((always_inline)) int decode_interval_body(void *context, vgn_dc_reader *r, long first, long count,
                                                                      int per_row) {
    interval_context *c = context;
    memset(c->pred, 0, sizeof c->pred);
    // The reader in locals, so that its bits stay in registers across the calls that flush blocks.
    vgn_dc_reader local = *r;
    int status = vgn_dc_decode_blocks(&local, c->scan, c->h, c->v, first, count, per_row, decode_one_block, c);
    *r = local;
    return status;
}

static int decode_interval(void *context, vgn_dc_reader *r, long first, long count, int per_row) {
    return decode_interval_body(context, r, first, count, per_row);
}

#if defined(__x86_64__)
/// The same compiled for CPUs with AVX2 and BMI2 (chosen at run time): BMI2's shifts by a register
/// (shlx, shrx) shorten the chain from one table lookup to the next.
__attribute__((target("avx2,bmi2"))) static int decode_interval_bmi2(void *context, vgn_dc_reader *r, long first, long count,
                                                                     int per_row) {
    return decode_interval_body(context, r, first, count, per_row);
}
#endif

int vgn_jpeg_scaled_vectorised(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return vgn_jpeg_idct_has_avx2() && __builtin_cpu_supports("bmi2") ? 1 : 0;
#else
    return 0;
#endif
}

int vgn_jpeg_scaled_decode(
    const uint8_t *jpeg, size_t size, int scale, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]) {
    if (!scaled_call_usable(jpeg, scale, planes, strides, widths, heights)) return VGN_JPEG_DC_DECLINED;
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    vgn_dc_scan scan;
    size_t pos = vgn_dc_read_header(jpeg, size, &st, &scan);
    if (pos == 0 || vgn_dc_check_sequential_scan(&st, &scan) != 0 || plane_count != st.ncomp || !one_idct_size(&st))
        return VGN_JPEG_DC_DECLINED;
    output out[3];
    if (setup_outputs(&st, scale, planes, strides, widths, heights, out) != 0) return VGN_JPEG_DC_DECLINED;
    for (int c = 0; c < st.ncomp; c++)
        for (int k = 0; k < 64; k++) out[c].quant[natural_order[k]] = st.quant[st.comp[c].tq][k];
    tables *t = malloc(sizeof *t);
    uint8_t *scratch = malloc(size - pos + 8);
    int status = VGN_JPEG_DC_NO_MEMORY;
    if (t == NULL || scratch == NULL) goto done;
    for (int k = 0; k < KEEP_SIZE; k++) {
        int p = k < 64 ? natural_order[k] : k < END_OF_BLOCK ? 63 : DROPPED;
        t->keep[k] = (uint8_t)(p != DROPPED && needed(p, scale) ? p : DROPPED);
    }
    int built = 0;   // bit n: DC table n, bit 4 + n: AC table n
    for (int i = 0; i < scan.count; i++) {
        if (!(built & 1 << scan.td[i])) vgn_dc_build_huffman(&st.dc[scan.td[i]], &t->dc[scan.td[i]]);
        if (!(built & 16 << scan.ta[i])) {
            vgn_dc_build_huffman(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]].slow);
            build_ac_table(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]]);
        }
        built |= 1 << scan.td[i] | 16 << scan.ta[i];
    }
    status = VGN_JPEG_DC_DECLINED;
    interval_context context = {.scan = &scan, .tables = t, .out = out, .scale = scale, .avx2 = vgn_jpeg_idct_has_avx2()};
    for (int i = 0; i < scan.count; i++) {
        context.h[i] = out[i].h;
        context.v[i] = out[i].v;
    }
    vgn_dc_interval_decoder decode = decode_interval;
#if defined(__x86_64__)
    if (vgn_jpeg_scaled_vectorised()) decode = decode_interval_bmi2;
#endif
    if (vgn_dc_decode_scan(jpeg, size, pos, &st, &scan, scratch, decode, &context) != 0) goto done;
    flush_all(&context);
    pad_outputs(out, st.ncomp, scale);
    status = VGN_JPEG_DC_OK;
done:
    free(scratch);
    free(t);
    return status;
}
