// SSIMULACRA 2.1's kernels with AVX2 and FMA (x86-64 only, compiled for them function by function
// and run only when the CPU has both). Each does the scalar twin's float operations in the same
// order (fused multiply-adds in the recursion only, as fmaf there), eight samples at a time: the
// vertical Gaussian down eight columns, the horizontal one on eight rows turned into columns (8×8
// transposes through a small buffer), so every sample comes out as the scalar path makes it; only
// the double sums of the maps add up in another order.
#include "ssimulacra2_internal.h"

#if defined(VGN_S2_HAVE_AVX2)

#include <immintrin.h>
#include <string.h>

#define VGN_AVX2 __attribute__((target("avx2,fma")))

/// Transposes the 8×8 block `r` in place.
VGN_AVX2 static inline void vgn_s2_transpose8(__m256 r[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/// The recursion over `length` steps on eight lanes: `sum(n)` is the pair of inputs at n, the
/// output at n ≥ 0 goes to `store(n)`. Written as a macro body so both passes share it.
#define VGN_S2_RECURSION(g, length, SUM, STORE)                                                          \
    do {                                                                                                 \
        const __m256 n2_0 = _mm256_set1_ps((g)->n2[0]), n2_1 = _mm256_set1_ps((g)->n2[1]);               \
        const __m256 n2_2 = _mm256_set1_ps((g)->n2[2]);                                                  \
        const __m256 d1_0 = _mm256_set1_ps((g)->d1[0]), d1_1 = _mm256_set1_ps((g)->d1[1]);               \
        const __m256 d1_2 = _mm256_set1_ps((g)->d1[2]);                                                  \
        __m256 p0 = _mm256_setzero_ps(), p1 = p0, p2 = p0, b0 = p0, b1 = p0, b2 = p0;                    \
        for (int n = -(g)->radius + 1; n < (length); n++) {                                              \
            const __m256 sum = SUM;                                                                      \
            const __m256 y0 = _mm256_fmadd_ps(n2_0, sum, _mm256_fnmsub_ps(d1_0, p0, b0));                 \
            const __m256 y1 = _mm256_fmadd_ps(n2_1, sum, _mm256_fnmsub_ps(d1_1, p1, b1));                 \
            const __m256 y2 = _mm256_fmadd_ps(n2_2, sum, _mm256_fnmsub_ps(d1_2, p2, b2));                 \
            b0 = p0, b1 = p1, b2 = p2;                                                                   \
            p0 = y0, p1 = y1, p2 = y2;                                                                   \
            if (n >= 0) STORE(n, _mm256_add_ps(_mm256_add_ps(y0, y1), y2));                              \
        }                                                                                                \
    } while (0)

/// The horizontal pass: eight rows at a time turned into eight lanes of `lines` (zero past both
/// ends), the recursion along them, and turned back into `out`'s rows.
VGN_AVX2 static void vgn_s2_blur_rows_avx2(const vgn_s2_gaussian *g, const vgn_s2_plane *in, vgn_s2_plane *out,
                                          float *lines) {
    const int radius = g->radius, width = in->width, blocks = (width + 7) / 8;
    const int pad = 2 * radius; // lines[(j + pad) * 8 + lane] is row lane's sample j
    float *turned = lines + (size_t)(width + 3 * radius + 8) * 8; // the outputs, same layout, no pad
    memset(lines, 0, (size_t)pad * 8 * sizeof(float));
    for (int y0 = 0; y0 < in->height; y0 += 8) {
        const int rows = in->height - y0 < 8 ? in->height - y0 : 8;
        for (int block = 0; block < blocks; block++) {
            __m256 r[8];
            for (int i = 0; i < 8; i++) {
                r[i] = i < rows ? _mm256_load_ps(vgn_s2_row(in, y0 + i) + block * 8) : _mm256_setzero_ps();
            }
            vgn_s2_transpose8(r);
            for (int i = 0; i < 8; i++) _mm256_store_ps(lines + (size_t)(block * 8 + i + pad) * 8, r[i]);
        }
        // The last block's columns past the width, and the pad after it, are zeros.
        memset(lines + (size_t)(width + pad) * 8, 0, (size_t)(radius + 8) * 8 * sizeof(float));
#define VGN_S2_ROW_SUM \
    _mm256_add_ps(_mm256_load_ps(lines + (size_t)(n - radius - 1 + pad) * 8), \
                  _mm256_load_ps(lines + (size_t)(n + radius - 1 + pad) * 8))
#define VGN_S2_ROW_STORE(n, value) _mm256_store_ps(turned + (size_t)(n) * 8, value)
        VGN_S2_RECURSION(g, width, VGN_S2_ROW_SUM, VGN_S2_ROW_STORE);
#undef VGN_S2_ROW_SUM
#undef VGN_S2_ROW_STORE
        for (int block = 0; block < blocks; block++) {
            __m256 r[8];
            for (int i = 0; i < 8; i++) r[i] = _mm256_load_ps(turned + (size_t)(block * 8 + i) * 8);
            vgn_s2_transpose8(r);
            for (int i = 0; i < rows; i++) _mm256_store_ps(vgn_s2_row(out, y0 + i) + block * 8, r[i]);
        }
    }
}

/// The vertical pass: eight columns at a time down the plane, the states in registers.
VGN_AVX2 static void vgn_s2_blur_columns_avx2(const vgn_s2_gaussian *g, const vgn_s2_plane *in, vgn_s2_plane *out) {
    const int radius = g->radius, height = in->height;
    const __m256 zero = _mm256_setzero_ps();
    for (int x = 0; x < in->width; x += 8) {
#define VGN_S2_COLUMN_SUM \
    _mm256_add_ps(n - radius - 1 >= 0 ? _mm256_load_ps(vgn_s2_row(in, n - radius - 1) + x) : zero, \
                  n + radius - 1 < height ? _mm256_load_ps(vgn_s2_row(in, n + radius - 1) + x) : zero)
#define VGN_S2_COLUMN_STORE(n, value) _mm256_store_ps(vgn_s2_row(out, n) + x, value)
        VGN_S2_RECURSION(g, height, VGN_S2_COLUMN_SUM, VGN_S2_COLUMN_STORE);
#undef VGN_S2_COLUMN_SUM
#undef VGN_S2_COLUMN_STORE
    }
}

VGN_AVX2 static void vgn_s2_blur_avx2(const vgn_s2_gaussian *g, const vgn_s2_plane *in, vgn_s2_plane *out,
                                     vgn_s2_plane *scratch, float *lines) {
    vgn_s2_blur_rows_avx2(g, in, scratch, lines);
    vgn_s2_blur_columns_avx2(g, scratch, out);
}

VGN_AVX2 static void vgn_s2_multiply_avx2(const vgn_s2_plane *a, const vgn_s2_plane *b, vgn_s2_plane *out) {
    for (int y = 0; y < a->height; y++) {
        const float *ra = vgn_s2_row(a, y), *rb = vgn_s2_row(b, y);
        float *ro = vgn_s2_row(out, y);
        for (int x = 0; x < a->width; x += 8) {
            _mm256_store_ps(ro + x, _mm256_mul_ps(_mm256_load_ps(ra + x), _mm256_load_ps(rb + x)));
        }
    }
}

/// vgn_s2_cbrt on eight lanes: the same first guess (the bits divided by 3 exactly, by a multiply
/// by 0xAAAAAAAB and a shift of 33 on each half) and the same two Halley steps.
VGN_AVX2 static inline __m256 vgn_s2_cbrt_avx2(__m256 x) {
    x = _mm256_max_ps(x, _mm256_set1_ps(1e-30f));
    const __m256i bits = _mm256_castps_si256(x), magic = _mm256_set1_epi32((int)0xAAAAAAABu);
    const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(bits, magic), 33);
    const __m256i odd = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(bits, 32), magic), 33);
    const __m256i third = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
    __m256 y = _mm256_castsi256_ps(_mm256_add_epi32(third, _mm256_set1_epi32(0x2a5137a0)));
    const __m256 two = _mm256_set1_ps(2.0f), twice_x = _mm256_mul_ps(two, x);
    for (int i = 0; i < 2; i++) {
        const __m256 y3 = _mm256_mul_ps(_mm256_mul_ps(y, y), y);
        y = _mm256_div_ps(_mm256_mul_ps(y, _mm256_add_ps(y3, twice_x)), _mm256_add_ps(_mm256_mul_ps(two, y3), x));
    }
    return y;
}

VGN_AVX2 static void vgn_s2_xyb_avx2(const vgn_s2_plane linear[3], vgn_s2_plane xyb[3]) {
    const __m256 m00 = _mm256_set1_ps(VGN_S2_M00), m01 = _mm256_set1_ps(VGN_S2_M01), m02 = _mm256_set1_ps(VGN_S2_M02);
    const __m256 m10 = _mm256_set1_ps(VGN_S2_M10), m11 = _mm256_set1_ps(VGN_S2_M11), m12 = _mm256_set1_ps(VGN_S2_M12);
    const __m256 m20 = _mm256_set1_ps(VGN_S2_M20), m21 = _mm256_set1_ps(VGN_S2_M21), m22 = _mm256_set1_ps(VGN_S2_M22);
    const __m256 bias = _mm256_set1_ps(VGN_S2_BIAS), zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
    const __m256 bias_root = _mm256_set1_ps(vgn_s2_cbrt(VGN_S2_BIAS));
    for (int y = 0; y < linear[0].height; y++) {
        const float *rr = vgn_s2_row(&linear[0], y), *rg = vgn_s2_row(&linear[1], y), *rb = vgn_s2_row(&linear[2], y);
        float *ox = vgn_s2_row(&xyb[0], y), *oy = vgn_s2_row(&xyb[1], y), *ob = vgn_s2_row(&xyb[2], y);
        for (int x = 0; x < linear[0].width; x += 8) {
            const __m256 r = _mm256_load_ps(rr + x), g = _mm256_load_ps(rg + x), b = _mm256_load_ps(rb + x);
#define VGN_S2_MIX(a0, a1, a2) \
    _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a0, r), _mm256_mul_ps(a1, g)), _mm256_mul_ps(a2, b)), bias)
            const __m256 l = _mm256_sub_ps(vgn_s2_cbrt_avx2(_mm256_max_ps(VGN_S2_MIX(m00, m01, m02), zero)), bias_root);
            const __m256 m = _mm256_sub_ps(vgn_s2_cbrt_avx2(_mm256_max_ps(VGN_S2_MIX(m10, m11, m12), zero)), bias_root);
            const __m256 s = _mm256_sub_ps(vgn_s2_cbrt_avx2(_mm256_max_ps(VGN_S2_MIX(m20, m21, m22), zero)), bias_root);
#undef VGN_S2_MIX
            const __m256 cx = _mm256_mul_ps(half, _mm256_sub_ps(l, m)), cy = _mm256_mul_ps(half, _mm256_add_ps(l, m));
            _mm256_store_ps(ox + x, _mm256_add_ps(_mm256_mul_ps(cx, _mm256_set1_ps(14.0f)), _mm256_set1_ps(0.42f)));
            _mm256_store_ps(oy + x, _mm256_add_ps(cy, _mm256_set1_ps(0.01f)));
            _mm256_store_ps(ob + x, _mm256_add_ps(_mm256_sub_ps(s, cy), _mm256_set1_ps(0.55f)));
        }
    }
}

/// The four lanes of `low` and `high` (eight floats) added into `sum` as doubles.
VGN_AVX2 static inline __m256d vgn_s2_add_wide(__m256d sum, __m256 value) {
    const __m256d low = _mm256_cvtps_pd(_mm256_castps256_ps128(value));
    const __m256d high = _mm256_cvtps_pd(_mm256_extractf128_ps(value, 1));
    return _mm256_add_pd(sum, _mm256_add_pd(low, high));
}

VGN_AVX2 static double vgn_s2_total(__m256d sum) {
    double lanes[4];
    _mm256_storeu_pd(lanes, sum);
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

VGN_AVX2 static void vgn_s2_maps_avx2(const vgn_s2_plane *img1, const vgn_s2_plane *mu1, const vgn_s2_plane *s11,
                                     const vgn_s2_plane *img2, const vgn_s2_plane *mu2, const vgn_s2_plane *s22,
                                     const vgn_s2_plane *s12, vgn_s2_sums *sums) {
    const __m256 one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f), c2 = _mm256_set1_ps(VGN_S2_C2);
    const __m256 zero = _mm256_setzero_ps(), magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256d ssim = _mm256_setzero_pd(), ssim4 = ssim, artifact = ssim, artifact4 = ssim, lost = ssim, lost4 = ssim;
    const int whole = img1->width & ~7;
    for (int y = 0; y < img1->height; y++) {
        const float *i1 = vgn_s2_row(img1, y), *m1 = vgn_s2_row(mu1, y), *v1 = vgn_s2_row(s11, y);
        const float *i2 = vgn_s2_row(img2, y), *m2 = vgn_s2_row(mu2, y), *v2 = vgn_s2_row(s22, y);
        const float *c12 = vgn_s2_row(s12, y);
        for (int x = 0; x < whole; x += 8) {
            const __m256 a = _mm256_load_ps(m1 + x), b = _mm256_load_ps(m2 + x);
            const __m256 dm = _mm256_sub_ps(a, b);
            const __m256 num_m = _mm256_sub_ps(one, _mm256_mul_ps(dm, dm));
            const __m256 num_s = _mm256_add_ps(_mm256_mul_ps(two, _mm256_sub_ps(_mm256_load_ps(c12 + x), _mm256_mul_ps(a, b))), c2);
            const __m256 den_s = _mm256_add_ps(_mm256_add_ps(_mm256_sub_ps(_mm256_load_ps(v1 + x), _mm256_mul_ps(a, a)),
                                                             _mm256_sub_ps(_mm256_load_ps(v2 + x), _mm256_mul_ps(b, b))),
                                               c2);
            const __m256 d = _mm256_max_ps(_mm256_sub_ps(one, _mm256_div_ps(_mm256_mul_ps(num_m, num_s), den_s)), zero);
            const __m256 d2 = _mm256_mul_ps(d, d);
            ssim = vgn_s2_add_wide(ssim, d);
            ssim4 = vgn_s2_add_wide(ssim4, _mm256_mul_ps(d2, d2));
            const __m256 e2 = _mm256_and_ps(_mm256_sub_ps(_mm256_load_ps(i2 + x), b), magnitude);
            const __m256 e1 = _mm256_and_ps(_mm256_sub_ps(_mm256_load_ps(i1 + x), a), magnitude);
            const __m256 ratio = _mm256_sub_ps(_mm256_div_ps(_mm256_add_ps(one, e2), _mm256_add_ps(one, e1)), one);
            const __m256 more = _mm256_max_ps(ratio, zero), less = _mm256_max_ps(_mm256_sub_ps(zero, ratio), zero);
            const __m256 more2 = _mm256_mul_ps(more, more), less2 = _mm256_mul_ps(less, less);
            artifact = vgn_s2_add_wide(artifact, more);
            artifact4 = vgn_s2_add_wide(artifact4, _mm256_mul_ps(more2, more2));
            lost = vgn_s2_add_wide(lost, less);
            lost4 = vgn_s2_add_wide(lost4, _mm256_mul_ps(less2, less2));
        }
    }
    sums->ssim += vgn_s2_total(ssim);
    sums->ssim4 += vgn_s2_total(ssim4);
    sums->artifact += vgn_s2_total(artifact);
    sums->artifact4 += vgn_s2_total(artifact4);
    sums->lost += vgn_s2_total(lost);
    sums->lost4 += vgn_s2_total(lost4);
    if (whole < img1->width) {
        // The columns past the last whole vector, by the scalar kernel on a view of them.
        const size_t offset = (size_t)whole;
        const vgn_s2_plane tail[7] = {
            {img1->data + offset, img1->width - whole, img1->height, img1->stride},
            {mu1->data + offset, img1->width - whole, img1->height, mu1->stride},
            {s11->data + offset, img1->width - whole, img1->height, s11->stride},
            {img2->data + offset, img1->width - whole, img1->height, img2->stride},
            {mu2->data + offset, img1->width - whole, img1->height, mu2->stride},
            {s22->data + offset, img1->width - whole, img1->height, s22->stride},
            {s12->data + offset, img1->width - whole, img1->height, s12->stride},
        };
        vgn_s2_scalar_kernels.maps(&tail[0], &tail[1], &tail[2], &tail[3], &tail[4], &tail[5], &tail[6], sums);
    }
}

const vgn_s2_kernels vgn_s2_avx2_kernels = {
    .blur = vgn_s2_blur_avx2,
    .multiply = vgn_s2_multiply_avx2,
    .xyb = vgn_s2_xyb_avx2,
    .maps = vgn_s2_maps_avx2,
};

#endif
