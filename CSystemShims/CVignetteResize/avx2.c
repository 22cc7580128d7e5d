// The AVX2 passes (x86-64 only, compiled for AVX2 function by function and run only when the CPU
// has it). Both compute exactly the integers of the scalar passes: 16-bit samples × 16-bit
// weights summed in 32 bits by _mm256_madd_epi16, the same rounding, the same clamp.
#include "resize_internal.h"

#if defined(VGN_RESIZE_HAVE_AVX2)

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#define VGN_AVX2 __attribute__((target("avx2")))

VGN_AVX2 static inline __m256i vgn_weight_pair(int16_t first, int16_t second) {
    return _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)first | ((uint32_t)(uint16_t)second << 16)));
}

/// The low `bands` bytes of `value` (little-endian) to `target`.
static inline void vgn_store_pixel(uint8_t *target, uint32_t value, int bands) {
    switch (bands) {
    case 4: memcpy(target, &value, 4); break;
    case 3: memcpy(target, &value, 3); break;
    case 2: memcpy(target, &value, 2); break;
    default: target[0] = (uint8_t)value; break;
    }
}

VGN_AVX2 int vgn_premultiply_rgba_avx2(const uint8_t *source, uint8_t *row, int width) {
    const __m256i zero = _mm256_setzero_si256();
    // Each pixel's alpha word copied over its four words, in each 128-bit lane.
    const __m256i alphas = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                                            6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15);
    const __m256i half = _mm256_set1_epi16(128);
    int x = 0;
    for (; x + 8 <= width; x += 8) {
        const __m256i pixels = _mm256_loadu_si256((const __m256i *)(source + (size_t)x * 4));
        __m256i halves[2] = {_mm256_unpacklo_epi8(pixels, zero), _mm256_unpackhi_epi8(pixels, zero)};
        for (int i = 0; i < 2; i++) {
            // (c × a + 127) / 255 = round(c × a / 255) = (t + (t >> 8)) >> 8 with t = c × a + 128,
            // exact for every c and a (checked over all 65536 pairs); alpha itself is kept.
            const __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(halves[i], _mm256_shuffle_epi8(halves[i], alphas)), half);
            const __m256i scaled = _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
            halves[i] = _mm256_blend_epi16(scaled, halves[i], 0x88);
        }
        _mm256_storeu_si256((__m256i *)(row + (size_t)x * 4), _mm256_packus_epi16(halves[0], halves[1]));
    }
    return x;
}

VGN_AVX2 void vgn_vertical_avx2(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                                size_t row_bytes, const vgn_kernel *kernel) {
    const int taps = kernel->taps;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i half = _mm256_set1_epi32(1 << (VGN_RESIZE_PRECISION - 1));
    for (int i = 0; i < kernel->out_size; i++) {
        const int16_t *weights = kernel->weights + (size_t)i * (size_t)taps;
        const uint8_t *window = in + (size_t)kernel->start[i] * in_stride;
        uint8_t *row = out + (size_t)i * out_stride;
        size_t j = 0;
        for (; j + 32 <= row_bytes; j += 32) {
            __m256i s0 = half, s1 = half, s2 = half, s3 = half;
            for (int t = 0; t < taps; t += 2) {
                // Two rows at a time: their bytes interleaved, widened to 16-bit (a, b) pairs.
                const __m256i a = _mm256_loadu_si256((const __m256i *)(window + (size_t)t * in_stride + j));
                __m256i b, w;
                if (t + 1 < taps) {
                    b = _mm256_loadu_si256((const __m256i *)(window + (size_t)(t + 1) * in_stride + j));
                    w = vgn_weight_pair(weights[t], weights[t + 1]);
                } else {
                    b = zero;
                    w = vgn_weight_pair(weights[t], 0);
                }
                const __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
                s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), w));
                s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), w));
                s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), w));
                s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), w));
            }
            s0 = _mm256_srai_epi32(s0, VGN_RESIZE_PRECISION);
            s1 = _mm256_srai_epi32(s1, VGN_RESIZE_PRECISION);
            s2 = _mm256_srai_epi32(s2, VGN_RESIZE_PRECISION);
            s3 = _mm256_srai_epi32(s3, VGN_RESIZE_PRECISION);
            // The unpacks and packs both work within 128-bit lanes, so the bytes come back in order.
            const __m256i packed = _mm256_packus_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(s2, s3));
            _mm256_storeu_si256((__m256i *)(row + j), packed);
        }
        for (; j < row_bytes; j++) {
            int32_t sum = 1 << (VGN_RESIZE_PRECISION - 1);
            for (int t = 0; t < taps; t++) sum += weights[t] * window[(size_t)t * in_stride + j];
            row[j] = vgn_clamp_sample(sum);
        }
    }
}

/// One band: each output's taps as 16-bit weights in blocks of 16 (zero past the last tap).
VGN_AVX2 static void *vgn_horizontal_avx2_prepare_one_band(const vgn_kernel *kernel) {
    const int taps = kernel->taps, blocks = (taps + 15) / 16, outputs = kernel->out_size;
    const size_t count = (size_t)outputs * (size_t)blocks * 16;
    int16_t *weights = aligned_alloc(32, sizeof(int16_t) * (count > 0 ? count : 16));
    if (!weights) return NULL;
    memset(weights, 0, sizeof(int16_t) * count);
    for (int i = 0; i < outputs; i++) {
        memcpy(weights + (size_t)i * (size_t)blocks * 16, kernel->weights + (size_t)i * (size_t)taps, sizeof(int16_t) * (size_t)taps);
    }
    return weights;
}

VGN_AVX2 void *vgn_horizontal_avx2_prepare(const vgn_kernel *kernel, int bands) {
    if (bands == 1) return vgn_horizontal_avx2_prepare_one_band(kernel);
    const int taps = kernel->taps, groups = taps / 4, outputs = kernel->out_size;
    // Per output and group of 4 taps: (w0, w1) × 4 in the low lane, (w2, w3) × 4 in the high one.
    __m256i *vectors = aligned_alloc(32, sizeof(__m256i) * (size_t)outputs * (size_t)(groups > 0 ? groups : 1));
    if (!vectors) return NULL;
    for (int i = 0; i < outputs; i++) {
        const int16_t *weights = kernel->weights + (size_t)i * (size_t)taps;
        for (int g = 0; g < groups; g++) {
            const __m128i low = _mm256_castsi256_si128(vgn_weight_pair(weights[4 * g], weights[4 * g + 1]));
            const __m128i high = _mm256_castsi256_si128(vgn_weight_pair(weights[4 * g + 2], weights[4 * g + 3]));
            vectors[(size_t)i * (size_t)groups + (size_t)g] = _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
        }
    }
    return vectors;
}

/// The sum of 16 taps at `p` (16 bytes widened to 16 bits) times 16 weights, as 8 partial sums.
VGN_AVX2 static inline __m256i vgn_taps16(const uint8_t *p, const int16_t *weights, int blocks) {
    __m256i sum = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p)),
                                    _mm256_load_si256((const __m256i *)weights));
    for (int b = 1; b < blocks; b++) {
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p + 16 * b))),
                                                      _mm256_load_si256((const __m256i *)(weights + 16 * b))));
    }
    return sum;
}

/// One band (a JPEG's Y, Cb or Cr plane): each output's window is one vector of up to 16 taps (or
/// a few), and four outputs' partial sums are reduced together with horizontal adds, so no lane
/// is spent on bands that are not there. Reads up to 15 bytes past a window's last sample.
VGN_AVX2 static void vgn_horizontal_avx2_one_band(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                                                  int rows, const vgn_kernel *kernel, const int16_t *weights) {
    const int blocks = (kernel->taps + 15) / 16, outputs = kernel->out_size;
    const size_t per_output = (size_t)blocks * 16;
    const __m128i half = _mm_set1_epi32(1 << (VGN_RESIZE_PRECISION - 1));
    for (int y = 0; y < rows; y++) {
        const uint8_t *source = in + (size_t)y * in_stride;
        uint8_t *row = out + (size_t)y * out_stride;
        int i = 0;
        for (; i + 4 <= outputs; i += 4) {
            const int16_t *w = weights + (size_t)i * per_output;
            const __m256i m0 = vgn_taps16(source + kernel->start[i], w, blocks);
            const __m256i m1 = vgn_taps16(source + kernel->start[i + 1], w + per_output, blocks);
            const __m256i m2 = vgn_taps16(source + kernel->start[i + 2], w + 2 * per_output, blocks);
            const __m256i m3 = vgn_taps16(source + kernel->start[i + 3], w + 3 * per_output, blocks);
            // Lane 0: [m0 0-3, m1 0-3, m2 0-3, m3 0-3]; lane 1: the same of sums 4-7.
            const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(m0, m1), _mm256_hadd_epi32(m2, m3));
            __m128i s = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
            s = _mm_srai_epi32(_mm_add_epi32(s, half), VGN_RESIZE_PRECISION);
            s = _mm_packus_epi16(_mm_packs_epi32(s, s), s);
            const uint32_t four = (uint32_t)_mm_cvtsi128_si32(s);
            memcpy(row + i, &four, 4);
        }
        for (; i < outputs; i++) {
            const __m256i m = vgn_taps16(source + kernel->start[i], weights + (size_t)i * per_output, blocks);
            const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(m, m), m);
            __m128i s = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
            s = _mm_srai_epi32(_mm_add_epi32(s, half), VGN_RESIZE_PRECISION);
            s = _mm_packus_epi16(_mm_packs_epi32(s, s), s);
            row[i] = (uint8_t)_mm_cvtsi128_si32(s);
        }
    }
}

VGN_AVX2 void vgn_horizontal_avx2(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                                  int rows, int bands, const vgn_kernel *kernel, const void *prepared) {
    if (bands == 1) {
        vgn_horizontal_avx2_one_band(in, in_stride, out, out_stride, rows, kernel, prepared);
        return;
    }
    const int taps = kernel->taps, groups = taps / 4, outputs = kernel->out_size;
    const __m256i *vectors = prepared;
    // Two neighbouring pixels p, q (bands bytes apart) to 16-bit pairs (p.c, q.c) for c = 0…3;
    // bands past the last are zero.
    int8_t order[16];
    for (int c = 0; c < 4; c++) {
        order[4 * c + 0] = (int8_t)(c < bands ? c : -128);
        order[4 * c + 1] = -128;
        order[4 * c + 2] = (int8_t)(c < bands ? bands + c : -128);
        order[4 * c + 3] = -128;
    }
    const __m128i order128 = _mm_loadu_si128((const __m128i *)order);
    const __m256i shuffle = _mm256_inserti128_si256(_mm256_castsi128_si256(order128), order128, 1);
    const __m128i half = _mm_set1_epi32(1 << (VGN_RESIZE_PRECISION - 1));
    const size_t pair = 2 * (size_t)bands, step = 4 * (size_t)bands;
    // Two rows at a time share each output's weights and window start.
    int y = 0;
    for (; y + 2 <= rows; y += 2) {
        const uint8_t *source0 = in + (size_t)y * in_stride, *source1 = source0 + in_stride;
        uint8_t *row0 = out + (size_t)y * out_stride, *row1 = row0 + out_stride;
        for (int i = 0; i < outputs; i++) {
            const size_t offset = (size_t)kernel->start[i] * (size_t)bands;
            const uint8_t *p0 = source0 + offset, *p1 = source1 + offset;
            const __m256i *w = vectors + (size_t)i * (size_t)groups;
            __m256i sum0 = _mm256_setzero_si256(), sum1 = _mm256_setzero_si256();
            for (int g = 0; g < groups; g++, p0 += step, p1 += step) {
                const __m256i weight = _mm256_load_si256(w + g);
                __m256i v0 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p0)),
                                                     _mm_loadu_si128((const __m128i *)(p0 + pair)), 1);
                __m256i v1 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p1)),
                                                     _mm_loadu_si128((const __m128i *)(p1 + pair)), 1);
                sum0 = _mm256_add_epi32(sum0, _mm256_madd_epi16(_mm256_shuffle_epi8(v0, shuffle), weight));
                sum1 = _mm256_add_epi32(sum1, _mm256_madd_epi16(_mm256_shuffle_epi8(v1, shuffle), weight));
            }
            __m128i s0 = _mm_add_epi32(_mm256_castsi256_si128(sum0), _mm256_extracti128_si256(sum0, 1));
            __m128i s1 = _mm_add_epi32(_mm256_castsi256_si128(sum1), _mm256_extracti128_si256(sum1, 1));
            s0 = _mm_srai_epi32(_mm_add_epi32(s0, half), VGN_RESIZE_PRECISION);
            s1 = _mm_srai_epi32(_mm_add_epi32(s1, half), VGN_RESIZE_PRECISION);
            // Row 0's samples in bytes 0-3, row 1's in bytes 4-7.
            const __m128i packed = _mm_packus_epi16(_mm_packs_epi32(s0, s1), s0);
            vgn_store_pixel(row0 + (size_t)i * (size_t)bands, (uint32_t)_mm_cvtsi128_si32(packed), bands);
            vgn_store_pixel(row1 + (size_t)i * (size_t)bands, (uint32_t)_mm_extract_epi32(packed, 1), bands);
        }
    }
    for (; y < rows; y++) {
        const uint8_t *source = in + (size_t)y * in_stride;
        uint8_t *row = out + (size_t)y * out_stride;
        for (int i = 0; i < outputs; i++) {
            const uint8_t *p = source + (size_t)kernel->start[i] * (size_t)bands;
            const __m256i *w = vectors + (size_t)i * (size_t)groups;
            __m256i sum = _mm256_setzero_si256();
            for (int g = 0; g < groups; g++, p += step) {
                const __m128i first = _mm_loadu_si128((const __m128i *)p);
                const __m128i second = _mm_loadu_si128((const __m128i *)(p + pair));
                __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(first), second, 1);
                v = _mm256_shuffle_epi8(v, shuffle);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, _mm256_load_si256(w + g)));
            }
            __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
            s = _mm_srai_epi32(_mm_add_epi32(s, half), VGN_RESIZE_PRECISION);
            s = _mm_packus_epi16(_mm_packs_epi32(s, s), s);
            vgn_store_pixel(row + (size_t)i * (size_t)bands, (uint32_t)_mm_cvtsi128_si32(s), bands);
        }
    }
}

#endif
