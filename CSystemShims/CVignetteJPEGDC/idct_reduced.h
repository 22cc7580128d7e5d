// The reduced-size inverse DCTs of libjpeg-turbo 2.1 as its x86-64 build runs them: at 1/2 and
// 1/4 scale jddctmgr.c picks jsimd_idct_4x4 / jsimd_idct_2x2 (simd/x86_64/jidctred-sse2.asm)
// whenever the CPU has SSE2, which every x86-64 CPU has. Their arithmetic is the C code's
// (jidctred.c: jpeg_idct_4x4, jpeg_idct_2x2) in 16- and 32-bit lanes: the dequantised
// coefficient is the low 16 bits of the product (pmullw), sums wrap at 32 bits, pass 1's results
// saturate to 16 bits (packssdw), and the samples saturate to -128..127 before the level shift
// instead of going through the range-limit table. For the coefficients an encoder writes the two
// agree; for hostile ones only this twin gives libjpeg-turbo's planes here.
// On arm64 libjpeg-turbo runs its Neon versions (simd/arm/jidctred-neon.c) instead, whose
// narrowing differs from the SSE2 code's: there these functions are the Neon code's twins.
#ifndef VGN_JPEG_IDCT_REDUCED_H
#define VGN_JPEG_IDCT_REDUCED_H

#include <stdint.h>

/// One block's coefficients `coef` (natural order; for 4x4 row 4 is not read, for 2x2 only rows
/// and columns 0, 1, 3, 5 and 7) dequantised by `quant` (natural order) into 4x4 samples, rows
/// `stride` bytes apart from `out`.
void vgn_jpeg_idct_4x4(const int16_t coef[64], const uint16_t quant[64], uint8_t *out, int stride);

/// The same into 2x2 samples.
void vgn_jpeg_idct_2x2(const int16_t coef[64], const uint16_t quant[64], uint8_t *out, int stride);

/// The one sample value of either IDCT for a block whose coefficients are all zero but its DC
/// `dc` (quantiser `quant`): what vgn_jpeg_idct_4x4 (`scale` 4) or vgn_jpeg_idct_2x2 (`scale` 2)
/// writes everywhere for it.
uint8_t vgn_jpeg_idct_dc_only(int16_t dc, uint16_t quant, int scale);

/// Whether this CPU runs AVX2 (the pair IDCTs below); 0 on CPUs other than x86-64.
int vgn_jpeg_idct_has_avx2(void);

#if defined(__x86_64__)
/// vgn_jpeg_idct_4x4 of blocks `a` (quantisers `qa`) and `b` (`qb`) at once, in AVX2 (only where
/// vgn_jpeg_idct_has_avx2): `out` gets A's 4x4 samples row by row, then B's.
void vgn_jpeg_idct_4x4_pair_avx2(const int16_t *a, const int16_t *b, const uint16_t *qa, const uint16_t *qb, uint8_t out[32]);

/// vgn_jpeg_idct_2x2 of two blocks at once in AVX2: `out` gets A's 2x2 samples, then B's.
void vgn_jpeg_idct_2x2_pair_avx2(const int16_t *a, const int16_t *b, const uint16_t *qa, const uint16_t *qb, uint8_t out[8]);
#endif

#endif
