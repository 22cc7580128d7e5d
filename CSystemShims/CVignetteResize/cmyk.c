// CMYK to RGB from a grid of littleCMS' own nodes: see vgn_cmyk_table_make in CVignetteResize.h.
// The arithmetic is littleCMS' Eval4Inputs (cmsintrp.c), which its optimised 8-bit CMYK transforms
// run: 8-bit samples widened to 16 bits (v × 257), linear in the first channel between two 3-D
// slices, tetrahedral in the other three, 16.16 fixed point; the 16-bit result cut to 8 bits as
// littleCMS does. What is left out is its per-pixel formatter and pipeline calls.
#include "CVignetteResize.h"

#include <stdlib.h>
#include <string.h>

struct vgn_cmyk_table {
    /// Per channel and 8-bit value: the offset of the node below it in `grid` (in samples), the
    /// offset to the next node (0 at the last value, as littleCMS steps no further there), and
    /// the fraction past the node (0–65535).
    int32_t node[4][256];
    int32_t next[4][256];
    int32_t rest[4][256];
    uint16_t grid[];
};

/// littleCMS' _cmsToFixedDomain: a value times the grid's last index, from 0–65535 to 16.16.
static inline int32_t fixed_domain(int32_t a) { return a + ((a + 0x7fff) / 0xffff); }

vgn_cmyk_table *vgn_cmyk_table_make(const uint16_t *grid, int points) {
    if (grid == NULL || points < 2 || points > 33) return NULL;
    const size_t nodes = (size_t)points * points * points * points;
    vgn_cmyk_table *table = malloc(sizeof *table + nodes * 3 * sizeof(uint16_t));
    if (table == NULL) return NULL;
    memcpy(table->grid, grid, nodes * 3 * sizeof(uint16_t));
    const int32_t strides[4] = {points * points * points * 3, points * points * 3, points * 3, 3};
    for (int channel = 0; channel < 4; channel++) {
        for (int v = 0; v < 256; v++) {
            const int32_t fixed = fixed_domain(v * 257 * (points - 1));
            table->node[channel][v] = (fixed >> 16) * strides[channel];
            table->rest[channel][v] = fixed & 0xffff;
            table->next[channel][v] = v == 255 ? 0 : strides[channel];
        }
    }
    return table;
}

/// One 3-D slice's tetrahedral interpolation for the three outputs at `base`: the path from the
/// node to the opposite corner taken along the axes in the order of their fractions (`first`,
/// `second`, `third` the offsets, `a` ≥ `b` ≥ `c` the fractions). The sum of the steps times the
/// fractions is littleCMS' (its six cases spelt out; equal fractions give the same sum either way).
static inline void tetrahedral(const uint16_t *base, int32_t first, int32_t second, int32_t third, int64_t a, int64_t b,
                               int64_t c, int32_t out[3]) {
    for (int channel = 0; channel < 3; channel++) {
        const uint16_t *t = base + channel;
        const int32_t c0 = t[0], c1 = t[first], c2 = t[first + second], c3 = t[first + second + third];
        const int64_t rest = (c1 - c0) * a + (c2 - c1) * b + (c3 - c2) * c;
        out[channel] = (uint16_t)(c0 + ((fixed_domain((int32_t)rest) + 0x8000) >> 16));
    }
}

/// Swaps the (fraction, offset) pairs so that the first has the larger fraction, without a branch
/// (the order of a photo's fractions is anybody's guess).
static inline void order(int32_t *r1, int32_t *s1, int32_t *r2, int32_t *s2) {
    const int32_t swap = -(int32_t)(*r2 > *r1);
    const int32_t dr = (*r1 ^ *r2) & swap, ds = (*s1 ^ *s2) & swap;
    *r1 ^= dr; *r2 ^= dr; *s1 ^= ds; *s2 ^= ds;
}

void vgn_cmyk_table_apply(const vgn_cmyk_table *table, const uint8_t *in, uint8_t *out, size_t count) {
    for (size_t i = 0; i < count; i++, in += 4, out += 3) {
        const uint8_t c = in[0], m = in[1], y = in[2], k = in[3];
        const uint16_t *base = table->grid + table->node[0][c] + table->node[1][m] + table->node[2][y] + table->node[3][k];
        int32_t ra = table->rest[1][m], rb = table->rest[2][y], rc = table->rest[3][k];
        int32_t sa = table->next[1][m], sb = table->next[2][y], sc = table->next[3][k];
        order(&ra, &sa, &rb, &sb);
        order(&rb, &sb, &rc, &sc);
        order(&ra, &sa, &rb, &sb);
        int32_t low[3], high[3];
        tetrahedral(base, sa, sb, sc, ra, rb, rc, low);
        tetrahedral(base + table->next[0][c], sa, sb, sc, ra, rb, rc, high);
        const int32_t rk = table->rest[0][c];
        for (int channel = 0; channel < 3; channel++) {
            // littleCMS' LinearInterp, then FROM_16_TO_8.
            const int32_t value = (uint16_t)((((high[channel] - low[channel]) * rk + 0x8000) >> 16) + low[channel]);
            out[channel] = (uint8_t)(((uint32_t)value * 65281u + 8388608u) >> 24);
        }
    }
}

void vgn_cmyk_table_free(vgn_cmyk_table *table) { free(table); }
