// The reduced IDCTs of idct_reduced.c for two blocks at once in AVX2: block A in the low 128-bit
// lane, block B in the high one. Every instruction libjpeg-turbo's SSE2 code uses (pmullw,
// punpck*, pmaddwd, paddd, psrad, packssdw, packsswb, paddb, pshufd) works within a lane in its
// 256-bit form, so this is that instruction sequence run on two blocks, and each lane's integers
// are the SSE2 code's (and so the scalar twin's) by construction.
#include "idct_reduced.h"
#include "vgn_jpeg_dc.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#define VGN_AVX2 __attribute__((target("avx2")))

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

/// A word pair (a, b) in every dword.
#define PAIR(a, b) _mm256_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)(a) | (uint32_t)(uint16_t)(int16_t)(b) << 16))

/// Row `r` (8 coefficients) of A and of B, each times its quantiser row (pmullw).
VGN_AVX2 static inline __m256i dequantised_row(const int16_t *a, const int16_t *b, const uint16_t *qa, const uint16_t *qb, int r) {
    __m256i c = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(a + 8 * r))),
                                        _mm_loadu_si128((const __m128i *)(b + 8 * r)), 1);
    __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(qa + 8 * r))),
                                        _mm_loadu_si128((const __m128i *)(qb + 8 * r)), 1);
    return _mm256_mullo_epi16(c, q);
}

/// Whether rows 1-3 and 5-7 of `coef` are all zero: the SSE2 4x4 code's test of the whole block.
static inline int rows_zero(const int16_t *coef) {
    uint64_t any = 0, word;
    for (int i = 8; i < 64; i += 4) {
        if (i == 32) i = 40;
        memcpy(&word, coef + i, 8);
        any |= word;
    }
    return any == 0;
}

VGN_AVX2 void vgn_jpeg_idct_4x4_pair_avx2(const int16_t *a, const int16_t *b, const uint16_t *qa, const uint16_t *qb,
                                          uint8_t out[32]) {
    const __m256i descale1 = _mm256_set1_epi32(1 << 11), descale2 = _mm256_set1_epi32(1 << 18);
    // Pass 1, odd part.
    __m256i x0 = dequantised_row(a, b, qa, qb, 1), x1 = dequantised_row(a, b, qa, qb, 3);
    __m256i x2 = dequantised_row(a, b, qa, qb, 5), x3 = dequantised_row(a, b, qa, qb, 7);
    __m256i lo13 = _mm256_unpacklo_epi16(x0, x1), hi13 = _mm256_unpackhi_epi16(x0, x1);
    __m256i lo57 = _mm256_unpacklo_epi16(x2, x3), hi57 = _mm256_unpackhi_epi16(x2, x3);
    __m256i tmp2l = _mm256_add_epi32(_mm256_madd_epi16(lo57, PAIR(-F_0_601, -F_0_509)), _mm256_madd_epi16(lo13, PAIR(F_2_562, F_0_899)));
    __m256i tmp2h = _mm256_add_epi32(_mm256_madd_epi16(hi57, PAIR(-F_0_601, -F_0_509)), _mm256_madd_epi16(hi13, PAIR(F_2_562, F_0_899)));
    __m256i tmp0l = _mm256_add_epi32(_mm256_madd_epi16(lo57, PAIR(F_1_451, -F_0_211)), _mm256_madd_epi16(lo13, PAIR(F_1_061, -F_2_172)));
    __m256i tmp0h = _mm256_add_epi32(_mm256_madd_epi16(hi57, PAIR(F_1_451, -F_0_211)), _mm256_madd_epi16(hi13, PAIR(F_1_061, -F_2_172)));
    // Pass 1, even part.
    __m256i r0 = dequantised_row(a, b, qa, qb, 0), r2 = dequantised_row(a, b, qa, qb, 2), r6 = dequantised_row(a, b, qa, qb, 6);
    const __m256i zero = _mm256_setzero_si256();
    __m256i even_l = _mm256_srai_epi32(_mm256_unpacklo_epi16(zero, r0), 2), even_h = _mm256_srai_epi32(_mm256_unpackhi_epi16(zero, r0), 2);
    __m256i rot_l = _mm256_madd_epi16(_mm256_unpacklo_epi16(r2, r6), PAIR(F_1_847, -F_0_765));
    __m256i rot_h = _mm256_madd_epi16(_mm256_unpackhi_epi16(r2, r6), PAIR(F_1_847, -F_0_765));
    __m256i tmp10l = _mm256_add_epi32(even_l, rot_l), tmp10h = _mm256_add_epi32(even_h, rot_h);
    __m256i tmp12l = _mm256_sub_epi32(even_l, rot_l), tmp12h = _mm256_sub_epi32(even_h, rot_h);
#define DESCALE1(v) _mm256_srai_epi32(_mm256_add_epi32((v), descale1), 12)
    __m256i data0 = _mm256_packs_epi32(DESCALE1(_mm256_add_epi32(tmp10l, tmp2l)), DESCALE1(_mm256_add_epi32(tmp10h, tmp2h)));
    __m256i data3 = _mm256_packs_epi32(DESCALE1(_mm256_sub_epi32(tmp10l, tmp2l)), DESCALE1(_mm256_sub_epi32(tmp10h, tmp2h)));
    __m256i data1 = _mm256_packs_epi32(DESCALE1(_mm256_add_epi32(tmp12l, tmp0l)), DESCALE1(_mm256_add_epi32(tmp12h, tmp0h)));
    __m256i data2 = _mm256_packs_epi32(DESCALE1(_mm256_sub_epi32(tmp12l, tmp0l)), DESCALE1(_mm256_sub_epi32(tmp12h, tmp0h)));
#undef DESCALE1
    __m256i t01l = _mm256_unpacklo_epi16(data0, data1), t01h = _mm256_unpackhi_epi16(data0, data1);
    __m256i t23l = _mm256_unpacklo_epi16(data2, data3), t23h = _mm256_unpackhi_epi16(data2, data3);
    __m256i c01 = _mm256_unpacklo_epi32(t01l, t23l), c23 = _mm256_unpackhi_epi32(t01l, t23l);
    __m256i c45 = _mm256_unpacklo_epi32(t01h, t23h), c67 = _mm256_unpackhi_epi32(t01h, t23h);
    // A block whose rows 1-3 and 5-7 are zero takes the SSE2 code's shortcut: row 0 dequantised,
    // shifted left by 2 in 16 bits (psllw), down every column.
    int zero_a = rows_zero(a), zero_b = rows_zero(b);
    if (zero_a | zero_b) {
        __m256i dc = _mm256_slli_epi16(r0, 2);
        __m256i dl = _mm256_unpacklo_epi16(dc, dc), dh = _mm256_unpackhi_epi16(dc, dc);
        __m256i lane = _mm256_set_epi64x(-(int64_t)zero_b, -(int64_t)zero_b, -(int64_t)zero_a, -(int64_t)zero_a);
        c01 = _mm256_blendv_epi8(c01, _mm256_shuffle_epi32(dl, 0x50), lane);
        c23 = _mm256_blendv_epi8(c23, _mm256_shuffle_epi32(dl, 0xFA), lane);
        c45 = _mm256_blendv_epi8(c45, _mm256_shuffle_epi32(dh, 0x50), lane);
        c67 = _mm256_blendv_epi8(c67, _mm256_shuffle_epi32(dh, 0xFA), lane);
    }
    // Pass 2: rows; column 4 is not read.
    __m256i even = _mm256_srai_epi32(_mm256_unpacklo_epi16(zero, c01), 2);
    __m256i p13 = _mm256_unpackhi_epi16(c01, c23), p57 = _mm256_unpackhi_epi16(c45, c67);
    __m256i tmp2 = _mm256_add_epi32(_mm256_madd_epi16(p57, PAIR(-F_0_601, -F_0_509)), _mm256_madd_epi16(p13, PAIR(F_2_562, F_0_899)));
    __m256i tmp0 = _mm256_add_epi32(_mm256_madd_epi16(p57, PAIR(F_1_451, -F_0_211)), _mm256_madd_epi16(p13, PAIR(F_1_061, -F_2_172)));
    __m256i rot = _mm256_madd_epi16(_mm256_unpacklo_epi16(c23, c67), PAIR(F_1_847, -F_0_765));
    __m256i tmp10 = _mm256_add_epi32(even, rot), tmp12 = _mm256_sub_epi32(even, rot);
#define DESCALE2(v) _mm256_srai_epi32(_mm256_add_epi32((v), descale2), 19)
    __m256i o0 = DESCALE2(_mm256_add_epi32(tmp10, tmp2)), o3 = DESCALE2(_mm256_sub_epi32(tmp10, tmp2));
    __m256i o1 = DESCALE2(_mm256_add_epi32(tmp12, tmp0)), o2 = DESCALE2(_mm256_sub_epi32(tmp12, tmp0));
#undef DESCALE2
    __m256i o02 = _mm256_packs_epi32(o0, o2), o13 = _mm256_packs_epi32(o1, o3);
    __m256i lo = _mm256_unpacklo_epi16(o02, o13), hi = _mm256_unpackhi_epi16(o02, o13);
    __m256i rows = _mm256_packs_epi16(_mm256_unpacklo_epi32(lo, hi), _mm256_unpackhi_epi32(lo, hi));
    rows = _mm256_add_epi8(rows, _mm256_set1_epi8((char)128));
    _mm256_storeu_si256((__m256i *)out, rows);
}

VGN_AVX2 void vgn_jpeg_idct_2x2_pair_avx2(const int16_t *a, const int16_t *b, const uint16_t *qa, const uint16_t *qb,
                                          uint8_t out[8]) {
    // Pass 1: columns 0, 1, 3, 5, 7 of rows 0, 1, 3, 5, 7.
    __m256i x0 = dequantised_row(a, b, qa, qb, 1), x1 = dequantised_row(a, b, qa, qb, 3);
    __m256i x2 = dequantised_row(a, b, qa, qb, 5), x3 = dequantised_row(a, b, qa, qb, 7);
    const __m256i high_words = _mm256_slli_epi32(_mm256_cmpeq_epi32(x0, x0), 16);
    __m256i low = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), PAIR(F_3_624, -F_1_272)),
                                   _mm256_madd_epi16(_mm256_unpacklo_epi16(x2, x3), PAIR(F_0_850, -F_0_720)));   // tmp0, col 0
    __m256i odd13 = _mm256_or_si256(_mm256_srli_epi32(x0, 16), _mm256_and_si256(x1, high_words));
    __m256i odd57 = _mm256_or_si256(_mm256_srli_epi32(x2, 16), _mm256_and_si256(x3, high_words));
    __m256i odd = _mm256_add_epi32(_mm256_madd_epi16(odd13, PAIR(F_3_624, -F_1_272)), _mm256_madd_epi16(odd57, PAIR(F_0_850, -F_0_720)));   // tmp0, cols 1 3 5 7
    __m256i r0 = dequantised_row(a, b, qa, qb, 0);
    __m256i even0 = _mm256_srai_epi32(_mm256_slli_epi32(r0, 16), 1);                    // tmp10, col 0
    __m256i even_odd = _mm256_srai_epi32(_mm256_and_si256(r0, high_words), 1);          // tmp10, cols 1 3 5 7
    __m256i col0 = _mm256_unpacklo_epi32(_mm256_add_epi32(even0, low), _mm256_sub_epi32(even0, low));   // (A0 B0 ...)
    __m256i a_odd = _mm256_add_epi32(even_odd, odd), b_odd = _mm256_sub_epi32(even_odd, odd);
    __m256i p13 = _mm256_unpacklo_epi64(a_odd, b_odd), p57 = _mm256_unpackhi_epi64(a_odd, b_odd);   // (A1 A3 B1 B3), (A5 A7 B5 B7)
    const __m256i descale1 = _mm256_set1_epi32(1 << 12);
    col0 = _mm256_srai_epi32(_mm256_add_epi32(col0, descale1), 13);
    p13 = _mm256_srai_epi32(_mm256_add_epi32(p13, descale1), 13);
    p57 = _mm256_srai_epi32(_mm256_add_epi32(p57, descale1), 13);
    // Pass 2.
    __m256i tmp0 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_packs_epi32(p13, p13), PAIR(F_3_624, -F_1_272)),
                                    _mm256_madd_epi16(_mm256_packs_epi32(p57, p57), PAIR(F_0_850, -F_0_720)));
    __m256i tmp10 = _mm256_slli_epi32(col0, 15);
    __m256i s = _mm256_unpacklo_epi32(_mm256_add_epi32(tmp10, tmp0), _mm256_sub_epi32(tmp10, tmp0));   // (C0 D0 C1 D1)
    s = _mm256_srai_epi32(_mm256_add_epi32(s, _mm256_set1_epi32(1 << 19)), 20);
    s = _mm256_packs_epi32(s, s);
    s = _mm256_add_epi8(_mm256_packs_epi16(s, s), _mm256_set1_epi8((char)128));
    uint32_t la = (uint32_t)_mm256_extract_epi32(s, 0), lb = (uint32_t)_mm256_extract_epi32(s, 4);
    memcpy(out, &la, 4);
    memcpy(out + 4, &lb, 4);
}

int vgn_jpeg_idct_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

int vgn_jpeg_scaled_idct_agrees(const int16_t a[64], const int16_t b[64], const uint16_t qa[64], const uint16_t qb[64], int scale) {
    if (!vgn_jpeg_idct_has_avx2() || (scale != 2 && scale != 4)) return -1;
    uint8_t twin[32], pair[32];
    if (scale == 4) {
        vgn_jpeg_idct_4x4(a, qa, twin, 4);
        vgn_jpeg_idct_4x4(b, qb, twin + 16, 4);
        vgn_jpeg_idct_4x4_pair_avx2(a, b, qa, qb, pair);
        return memcmp(twin, pair, 32) == 0;
    }
    vgn_jpeg_idct_2x2(a, qa, twin, 2);
    vgn_jpeg_idct_2x2(b, qb, twin + 4, 2);
    vgn_jpeg_idct_2x2_pair_avx2(a, b, qa, qb, pair);
    return memcmp(twin, pair, 8) == 0;
}

#else

int vgn_jpeg_idct_has_avx2(void) { return 0; }

int vgn_jpeg_scaled_idct_agrees(const int16_t a[64], const int16_t b[64], const uint16_t qa[64], const uint16_t qb[64], int scale) {
    (void)a, (void)b, (void)qa, (void)qb, (void)scale;
    return -1;
}

#endif
