// SSIMULACRA 2.1's per-sample kernels in portable C: the recursive Gaussian, products, XYB and the
// error maps. The AVX2 twin (ssimulacra2_avx2.c) does the same float operations in the same order
// per sample; only the order in which the double sums add up differs.
//
// The recursion's steps are fused multiply-adds (fmaf: one instruction on arm64 and on x86-64 CPUs
// with FMA). Its poles are on the unit circle, so rounding errors never die out, and the metric
// rectifies them (max(d, 0)) into a bias where images are nearly flat or nearly equal; libjxl's
// tool rounds as fused steps do, and separate multiplies and adds put high-quality scores about
// 0.5 lower than its (docs/performance.md has the comparison).
#include "ssimulacra2_internal.h"

#include <math.h>

/// Columns the vertical pass walks down together: their recursion states fit in the L1 cache.
enum { VGN_S2_STRIP = 64 };

/// One line of `length` samples blurred into `out`.
static void vgn_s2_blur_line(const vgn_s2_gaussian *g, const float *in, float *out, int length) {
    const int radius = g->radius;
    float previous[3] = {0, 0, 0}, before[3] = {0, 0, 0};
    for (int n = -radius + 1; n < length; n++) {
        const int left = n - radius - 1, right = n + radius - 1;
        const float sum = (left >= 0 ? in[left] : 0.0f) + (right < length ? in[right] : 0.0f);
        float total = 0.0f;
        for (int k = 0; k < 3; k++) {
            const float y = fmaf(g->n2[k], sum, fmaf(-g->d1[k], previous[k], -before[k]));
            before[k] = previous[k];
            previous[k] = y;
            total += y;
        }
        if (n >= 0) out[n] = total;
    }
}

/// The vertical pass, VGN_S2_STRIP columns at a time, each column's recursion as in blur_line.
static void vgn_s2_blur_columns(const vgn_s2_gaussian *g, const vgn_s2_plane *in, vgn_s2_plane *out) {
    const int radius = g->radius, height = in->height;
    for (int x0 = 0; x0 < in->width; x0 += VGN_S2_STRIP) {
        const int count = in->width - x0 < VGN_S2_STRIP ? in->width - x0 : VGN_S2_STRIP;
        float previous[3][VGN_S2_STRIP] = {{0}}, before[3][VGN_S2_STRIP] = {{0}};
        for (int n = -radius + 1; n < height; n++) {
            const int top = n - radius - 1, bottom = n + radius - 1;
            const float *a = top >= 0 ? vgn_s2_row(in, top) + x0 : NULL;
            const float *b = bottom < height ? vgn_s2_row(in, bottom) + x0 : NULL;
            float *o = n >= 0 ? vgn_s2_row(out, n) + x0 : NULL;
            for (int i = 0; i < count; i++) {
                const float sum = (a ? a[i] : 0.0f) + (b ? b[i] : 0.0f);
                float total = 0.0f;
                for (int k = 0; k < 3; k++) {
                    const float y = fmaf(g->n2[k], sum, fmaf(-g->d1[k], previous[k][i], -before[k][i]));
                    before[k][i] = previous[k][i];
                    previous[k][i] = y;
                    total += y;
                }
                if (o) o[i] = total;
            }
        }
    }
}

static void vgn_s2_blur_scalar(const vgn_s2_gaussian *g, const vgn_s2_plane *in, vgn_s2_plane *out,
                               vgn_s2_plane *scratch, float *lines) {
    (void)lines;
    for (int y = 0; y < in->height; y++) vgn_s2_blur_line(g, vgn_s2_row(in, y), vgn_s2_row(scratch, y), in->width);
    vgn_s2_blur_columns(g, scratch, out);
}

static void vgn_s2_multiply_scalar(const vgn_s2_plane *a, const vgn_s2_plane *b, vgn_s2_plane *out) {
    for (int y = 0; y < a->height; y++) {
        const float *ra = vgn_s2_row(a, y), *rb = vgn_s2_row(b, y);
        float *ro = vgn_s2_row(out, y);
        for (int x = 0; x < a->width; x++) ro[x] = ra[x] * rb[x];
    }
}

static void vgn_s2_xyb_scalar(const vgn_s2_plane linear[3], vgn_s2_plane xyb[3]) {
    const float bias_root = vgn_s2_cbrt(VGN_S2_BIAS);
    for (int y = 0; y < linear[0].height; y++) {
        const float *r = vgn_s2_row(&linear[0], y), *g = vgn_s2_row(&linear[1], y), *b = vgn_s2_row(&linear[2], y);
        float *ox = vgn_s2_row(&xyb[0], y), *oy = vgn_s2_row(&xyb[1], y), *ob = vgn_s2_row(&xyb[2], y);
        for (int x = 0; x < linear[0].width; x++) {
            float l = VGN_S2_M00 * r[x] + VGN_S2_M01 * g[x] + VGN_S2_M02 * b[x] + VGN_S2_BIAS;
            float m = VGN_S2_M10 * r[x] + VGN_S2_M11 * g[x] + VGN_S2_M12 * b[x] + VGN_S2_BIAS;
            float s = VGN_S2_M20 * r[x] + VGN_S2_M21 * g[x] + VGN_S2_M22 * b[x] + VGN_S2_BIAS;
            l = vgn_s2_cbrt(l > 0.0f ? l : 0.0f) - bias_root;
            m = vgn_s2_cbrt(m > 0.0f ? m : 0.0f) - bias_root;
            s = vgn_s2_cbrt(s > 0.0f ? s : 0.0f) - bias_root;
            const float cx = 0.5f * (l - m), cy = 0.5f * (l + m);
            // Shifted and scaled so that all three are positive and of similar range.
            ox[x] = cx * 14.0f + 0.42f;
            oy[x] = cy + 0.01f;
            ob[x] = (s - cy) + 0.55f;
        }
    }
}

static void vgn_s2_maps_scalar(const vgn_s2_plane *img1, const vgn_s2_plane *mu1, const vgn_s2_plane *s11,
                               const vgn_s2_plane *img2, const vgn_s2_plane *mu2, const vgn_s2_plane *s22,
                               const vgn_s2_plane *s12, vgn_s2_sums *sums) {
    for (int y = 0; y < img1->height; y++) {
        const float *i1 = vgn_s2_row(img1, y), *m1 = vgn_s2_row(mu1, y), *v1 = vgn_s2_row(s11, y);
        const float *i2 = vgn_s2_row(img2, y), *m2 = vgn_s2_row(mu2, y), *v2 = vgn_s2_row(s22, y);
        const float *c12 = vgn_s2_row(s12, y);
        for (int x = 0; x < img1->width; x++) {
            // SSIM without the means' denominator (SSIMULACRA 2 keeps only 1 - (μ1 - μ2)²), as an
            // error: 1 - SSIM, floored at 0.
            const float dm = m1[x] - m2[x];
            const float num_m = 1.0f - dm * dm;
            const float num_s = 2.0f * (c12[x] - m1[x] * m2[x]) + VGN_S2_C2;
            const float den_s = (v1[x] - m1[x] * m1[x]) + (v2[x] - m2[x] * m2[x]) + VGN_S2_C2;
            float d = 1.0f - num_m * num_s / den_s;
            d = d > 0.0f ? d : 0.0f;
            const float d2 = d * d;
            sums->ssim += d;
            sums->ssim4 += d2 * d2;
            // Edge strength of the candidate over the reference's: above 1 where the candidate has
            // detail the reference does not (ringing, blocks), below where detail was lost (blur).
            const float ratio = (1.0f + fabsf(i2[x] - m2[x])) / (1.0f + fabsf(i1[x] - m1[x])) - 1.0f;
            const float artifact = ratio > 0.0f ? ratio : 0.0f, lost = ratio < 0.0f ? -ratio : 0.0f;
            const float a2 = artifact * artifact, l2 = lost * lost;
            sums->artifact += artifact;
            sums->artifact4 += a2 * a2;
            sums->lost += lost;
            sums->lost4 += l2 * l2;
        }
    }
}

const vgn_s2_kernels vgn_s2_scalar_kernels = {
    .blur = vgn_s2_blur_scalar,
    .multiply = vgn_s2_multiply_scalar,
    .xyb = vgn_s2_xyb_scalar,
    .maps = vgn_s2_maps_scalar,
};
