// The scalar twins of libjpeg-turbo's reduced IDCTs (see idct_reduced.h): on x86-64 (and any
// other CPU) of its SSE2 code, on arm64 of its Neon code; the same integers, lane by lane.
#include "idct_reduced.h"

#define F_0_211 1730
#define F_0_509 4176
#define F_0_601 4926
#define F_0_720 5906
#define F_0_765 6270
#define F_0_850 6967
#define F_0_899 7373
#define F_1_061 8697
#define F_1_272 10426
#define F_1_451 11893
#define F_1_847 15137
#define F_2_172 17799
#define F_2_562 20995
#define F_3_624 29692

/// pmullw: the low 16 bits of coefficient times quantiser.
static inline int16_t dequantise(int16_t coef, uint16_t quant) { return (int16_t)(uint16_t)((uint32_t)(uint16_t)coef * quant); }

/// pmaddwd: a * ca + b * cb in a 32-bit lane (it wraps only for two products of 2^30).
static inline int32_t madd(int16_t a, int16_t b, int ca, int cb) {
    return (int32_t)((uint32_t)(a * ca) + (uint32_t)(b * cb));
}

/// paddd / psubd.
static inline int32_t add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

#if !defined(__aarch64__)

/// paddd of the rounding constant, then psrad.
static inline int32_t descale(int32_t x, int n) { return add(x, 1 << (n - 1)) >> n; }

/// packssdw.
static inline int16_t saturate16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }

/// packssdw, packsswb, then paddb of CENTERJSAMPLE.
static inline uint8_t sample(int32_t v) {
    int s = saturate16(v);
    return (uint8_t)((s > 127 ? 127 : s < -128 ? -128 : s) + 128);
}

void vgn_jpeg_idct_4x4(const int16_t coef[64], const uint16_t quant[64], uint8_t *out, int stride) {
    int16_t ws[4][8];   // pass 1's rows 0-3, every column (column 4 unused)
    // The SSE2 code's test of the whole block: rows 1-3 and 5-7 all zero (raw coefficients).
    int ac = 0;
    for (int i = 8; i < 64; i++)
        if (i < 32 || i >= 40) ac |= coef[i];
    if (!ac) {
        for (int c = 0; c < 8; c++) {
            int16_t dc = (int16_t)(uint16_t)((uint32_t)(uint16_t)dequantise(coef[c], quant[c]) << 2);   // psllw
            ws[0][c] = ws[1][c] = ws[2][c] = ws[3][c] = dc;
        }
    } else {
        for (int c = 0; c < 8; c++) {
            if (c == 4) continue;
            int16_t r0 = dequantise(coef[c], quant[c]), r1 = dequantise(coef[8 + c], quant[8 + c]);
            int16_t r2 = dequantise(coef[16 + c], quant[16 + c]), r3 = dequantise(coef[24 + c], quant[24 + c]);
            int16_t r5 = dequantise(coef[40 + c], quant[40 + c]), r6 = dequantise(coef[48 + c], quant[48 + c]);
            int16_t r7 = dequantise(coef[56 + c], quant[56 + c]);
            int32_t tmp2 = add(madd(r1, r3, F_2_562, F_0_899), madd(r5, r7, -F_0_601, -F_0_509));
            int32_t tmp0 = add(madd(r1, r3, F_1_061, -F_2_172), madd(r5, r7, F_1_451, -F_0_211));
            int32_t even = (int32_t)r0 * (1 << 14), rotated = madd(r2, r6, F_1_847, -F_0_765);
            int32_t tmp10 = add(even, rotated), tmp12 = sub(even, rotated);
            ws[0][c] = saturate16(descale(add(tmp10, tmp2), 12));
            ws[3][c] = saturate16(descale(sub(tmp10, tmp2), 12));
            ws[1][c] = saturate16(descale(add(tmp12, tmp0), 12));
            ws[2][c] = saturate16(descale(sub(tmp12, tmp0), 12));
        }
    }
    for (int r = 0; r < 4; r++) {
        const int16_t *w = ws[r];
        int32_t tmp2 = add(madd(w[1], w[3], F_2_562, F_0_899), madd(w[5], w[7], -F_0_601, -F_0_509));
        int32_t tmp0 = add(madd(w[1], w[3], F_1_061, -F_2_172), madd(w[5], w[7], F_1_451, -F_0_211));
        int32_t even = (int32_t)w[0] * (1 << 14), rotated = madd(w[2], w[6], F_1_847, -F_0_765);
        int32_t tmp10 = add(even, rotated), tmp12 = sub(even, rotated);
        uint8_t *row = out + r * stride;
        row[0] = sample(descale(add(tmp10, tmp2), 19));
        row[3] = sample(descale(sub(tmp10, tmp2), 19));
        row[1] = sample(descale(add(tmp12, tmp0), 19));
        row[2] = sample(descale(sub(tmp12, tmp0), 19));
    }
}

void vgn_jpeg_idct_2x2(const int16_t coef[64], const uint16_t quant[64], uint8_t *out, int stride) {
    // Pass 1 over columns 0, 1, 3, 5, 7: a (output row 0) and b (row 1), kept at 32 bits; column
    // 0's go on to pass 2 so, the others saturated to 16 bits.
    static const int columns[5] = {0, 1, 3, 5, 7};
    int32_t a[8], b[8];
    for (int i = 0; i < 5; i++) {
        int c = columns[i];
        int16_t r0 = dequantise(coef[c], quant[c]), r1 = dequantise(coef[8 + c], quant[8 + c]);
        int16_t r3 = dequantise(coef[24 + c], quant[24 + c]), r5 = dequantise(coef[40 + c], quant[40 + c]);
        int16_t r7 = dequantise(coef[56 + c], quant[56 + c]);
        int32_t tmp0 = add(madd(r1, r3, F_3_624, -F_1_272), madd(r5, r7, F_0_850, -F_0_720));
        int32_t tmp10 = (int32_t)r0 * (1 << 15);
        a[c] = descale(add(tmp10, tmp0), 13);
        b[c] = descale(sub(tmp10, tmp0), 13);
    }
    for (int r = 0; r < 2; r++) {
        const int32_t *w = r == 0 ? a : b;
        int32_t tmp0 = add(madd(saturate16(w[1]), saturate16(w[3]), F_3_624, -F_1_272),
                           madd(saturate16(w[5]), saturate16(w[7]), F_0_850, -F_0_720));
        int32_t tmp10 = (int32_t)((uint32_t)w[0] << 15);   // pslld
        out[r * stride] = sample(descale(add(tmp10, tmp0), 20));
        out[r * stride + 1] = sample(descale(sub(tmp10, tmp0), 20));
    }
}

uint8_t vgn_jpeg_idct_dc_only(int16_t dc, uint16_t quant, int scale) {
    int16_t q = dequantise(dc, quant);
    if (scale == 4) {
        // The SSE2 code's all-zero test holds: pass 1 is psllw by 2, pass 2 sees column 0 alone.
        int16_t w = (int16_t)(uint16_t)((uint32_t)(uint16_t)q << 2);
        return sample(descale((int32_t)w * (1 << 14), 19));
    }
    int32_t a = descale((int32_t)q * (1 << 15), 13);
    return sample(descale((int32_t)((uint32_t)a << 15), 20));
}

#else

// libjpeg-turbo's arm64 build runs its Neon reduced IDCTs (simd/arm/jidctred-neon.c). Their sums
// are the SSE2 code's, but the narrowing differs: pass 1's results are rounded in full precision
// and keep their low 16 bits (vrshrn: no saturation; the 2x2's column 0 is narrowed too), pass 2
// takes the high half of each 32-bit sum (vaddhn, vsubhn), rounds that (vrsra) and saturates it
// to 0..255 (vqmovun). Its 4x4 shortcut for columns without AC coefficients gives what the sums
// give, so there is none here.

/// vrshrn_n_s32: `x` shifted right by `n` with rounding, in full precision, its low 16 bits.
static inline int16_t narrow(int32_t x, int n) { return (int16_t)(uint16_t)(uint64_t)(((int64_t)x + (1 << (n - 1))) >> n); }

/// vaddhn_s32 (the high half of a wrapped sum), vrsraq_n_s16 onto CENTERJSAMPLE, vqmovun_s16.
static inline uint8_t sample_of(int32_t sum, int n) {
    int16_t high = (int16_t)(uint16_t)((uint32_t)sum >> 16);
    int v = 128 + ((high + (1 << (n - 1))) >> n);
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void vgn_jpeg_idct_4x4(const int16_t coef[64], const uint16_t quant[64], uint8_t *out, int stride) {
    int16_t ws[4][8];   // pass 1's rows 0-3, every column (column 4 unused)
    for (int c = 0; c < 8; c++) {
        if (c == 4) continue;
        int16_t r0 = dequantise(coef[c], quant[c]), r1 = dequantise(coef[8 + c], quant[8 + c]);
        int16_t r2 = dequantise(coef[16 + c], quant[16 + c]), r3 = dequantise(coef[24 + c], quant[24 + c]);
        int16_t r5 = dequantise(coef[40 + c], quant[40 + c]), r6 = dequantise(coef[48 + c], quant[48 + c]);
        int16_t r7 = dequantise(coef[56 + c], quant[56 + c]);
        int32_t tmp2 = add(madd(r1, r3, F_2_562, F_0_899), madd(r5, r7, -F_0_601, -F_0_509));
        int32_t tmp0 = add(madd(r1, r3, F_1_061, -F_2_172), madd(r5, r7, F_1_451, -F_0_211));
        int32_t even = (int32_t)r0 * (1 << 14), rotated = madd(r2, r6, F_1_847, -F_0_765);
        int32_t tmp10 = add(even, rotated), tmp12 = sub(even, rotated);
        ws[0][c] = narrow(add(tmp10, tmp2), 12);
        ws[3][c] = narrow(sub(tmp10, tmp2), 12);
        ws[1][c] = narrow(add(tmp12, tmp0), 12);
        ws[2][c] = narrow(sub(tmp12, tmp0), 12);
    }
    for (int r = 0; r < 4; r++) {
        const int16_t *w = ws[r];
        int32_t tmp2 = add(madd(w[1], w[3], F_2_562, F_0_899), madd(w[5], w[7], -F_0_601, -F_0_509));
        int32_t tmp0 = add(madd(w[1], w[3], F_1_061, -F_2_172), madd(w[5], w[7], F_1_451, -F_0_211));
        int32_t even = (int32_t)w[0] * (1 << 14), rotated = madd(w[2], w[6], F_1_847, -F_0_765);
        int32_t tmp10 = add(even, rotated), tmp12 = sub(even, rotated);
        uint8_t *row = out + r * stride;
        row[0] = sample_of(add(tmp10, tmp2), 3);
        row[3] = sample_of(sub(tmp10, tmp2), 3);
        row[1] = sample_of(add(tmp12, tmp0), 3);
        row[2] = sample_of(sub(tmp12, tmp0), 3);
    }
}

void vgn_jpeg_idct_2x2(const int16_t coef[64], const uint16_t quant[64], uint8_t *out, int stride) {
    // Pass 1 over columns 0, 1, 3, 5, 7: a (output row 0) and b (row 1), narrowed to 16 bits.
    static const int columns[5] = {0, 1, 3, 5, 7};
    int16_t a[8], b[8];
    for (int i = 0; i < 5; i++) {
        int c = columns[i];
        int16_t r0 = dequantise(coef[c], quant[c]), r1 = dequantise(coef[8 + c], quant[8 + c]);
        int16_t r3 = dequantise(coef[24 + c], quant[24 + c]), r5 = dequantise(coef[40 + c], quant[40 + c]);
        int16_t r7 = dequantise(coef[56 + c], quant[56 + c]);
        int32_t tmp0 = add(madd(r1, r3, F_3_624, -F_1_272), madd(r5, r7, F_0_850, -F_0_720));
        int32_t tmp10 = (int32_t)r0 * (1 << 15);
        a[c] = narrow(add(tmp10, tmp0), 13);
        b[c] = narrow(sub(tmp10, tmp0), 13);
    }
    for (int r = 0; r < 2; r++) {
        const int16_t *w = r == 0 ? a : b;
        int32_t tmp0 = add(madd(w[1], w[3], F_3_624, -F_1_272), madd(w[5], w[7], F_0_850, -F_0_720));
        int32_t tmp10 = (int32_t)w[0] * (1 << 15);
        out[r * stride] = sample_of(add(tmp10, tmp0), 4);
        out[r * stride + 1] = sample_of(sub(tmp10, tmp0), 4);
    }
}

uint8_t vgn_jpeg_idct_dc_only(int16_t dc, uint16_t quant, int scale) {
    int16_t q = dequantise(dc, quant);
    if (scale == 4) return sample_of(narrow((int32_t)q * (1 << 14), 12) * (1 << 14), 3);
    return sample_of(narrow((int32_t)q * (1 << 15), 13) * (1 << 15), 4);
}

#endif
