// SSIMULACRA 2.1, from its published description (Jon Sneyers, Cloudinary, 2022-2023; libjxl's
// tools/ssimulacra2): both images to linear light and JPEG XL's XYB at six scales (each a 2×2 box
// halving of the last, in linear RGB); at each scale and for each of X, Y and B, an SSIM error map
// and two edge maps (ringing: detail the candidate has and the reference lacks; blur: the other
// way round) from a Gaussian of σ 1.5, each summarised by its 1-norm and 4-norm; the 108 means
// weighted and summed, then mapped to the 2.1 score (100 = identical).
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* madvise */
#endif
#include "CVignetteMetrics.h"
#include "ssimulacra2_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

// MARK: - Constants

/// The published weights, in the order the score reads them: for X, Y, B, for each scale, for
/// the 1-norm then the 4-norm, the SSIM error, the ringing map and the blur map.
static const double vgn_s2_weights[108] = {
    // X
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,
    0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
    0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,
    0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
    0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,
    0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,
    // Y
    0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
    0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
    225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
    176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
    0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // B
    0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
    0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
    95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307, 0.9807858872435379,
    0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
};

/// The sRGB backgrounds an image with alpha is blended over, and the one for a candidate with
/// alpha whose reference has none.
static const float vgn_s2_dark = 0.1f, vgn_s2_light = 0.9f, vgn_s2_middle = 0.5f;

// MARK: - Shared tables

static vgn_s2_gaussian vgn_s2_gaussian_value;
static float vgn_s2_linear_table[256];
static pthread_once_t vgn_s2_once = PTHREAD_ONCE_INIT;

/// sRGB's decoding curve (IEC 61966-2-1) on [0, 1].
static double vgn_s2_srgb_to_linear(double v) {
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

/// The recursion's coefficients for σ 1.5 (Charalampidis 2016). Each cosine k ∈ {1, 3, 5} has
/// frequency ω_k = kπ / (2 radius), so it is zero at ±radius. Their weights β solve three
/// equations: the taps add up to 1, their second moment is σ² (written Σ (radius² - m²) h = radius²
/// - σ²), and β is otherwise as close as it can be to the Gaussian's own cosine coefficients ρ_k =
/// exp(-σ²ω_k²/2) / radius (the third row is the normal of the first two).
static void vgn_s2_make_tables(void) {
    const double sigma = 1.5;
    const int radius = (int)lround(3.2795 * sigma + 0.2546);
    double omega[3], p[3], r[3], rho[3];
    for (int k = 0; k < 3; k++) {
        omega[k] = (2 * k + 1) * 3.14159265358979323846 / (2.0 * radius);
        p[k] = r[k] = 0;
        for (int m = -radius; m <= radius; m++) {
            p[k] += cos(omega[k] * m);
            r[k] += (double)(radius * radius - m * m) * cos(omega[k] * m);
        }
        rho[k] = exp(-0.5 * sigma * sigma * omega[k] * omega[k]) / radius;
    }
    const double normal[3] = {p[1] * r[2] - p[2] * r[1], p[2] * r[0] - p[0] * r[2], p[0] * r[1] - p[1] * r[0]};
    const double rows[3][3] = {{p[0], p[1], p[2]}, {r[0], r[1], r[2]}, {normal[0], normal[1], normal[2]}};
    const double rhs[3] = {1.0, (double)radius * radius - sigma * sigma,
                           normal[0] * rho[0] + normal[1] * rho[1] + normal[2] * rho[2]};
    // Cramer's rule.
#define VGN_DET3(a) \
    ((a)[0][0] * ((a)[1][1] * (a)[2][2] - (a)[1][2] * (a)[2][1]) - \
     (a)[0][1] * ((a)[1][0] * (a)[2][2] - (a)[1][2] * (a)[2][0]) + \
     (a)[0][2] * ((a)[1][0] * (a)[2][1] - (a)[1][1] * (a)[2][0]))
    const double determinant = VGN_DET3(rows);
    vgn_s2_gaussian_value.radius = radius;
    for (int k = 0; k < 3; k++) {
        double column[3][3];
        memcpy(column, rows, sizeof column);
        for (int i = 0; i < 3; i++) column[i][k] = rhs[i];
        const double beta = VGN_DET3(column) / determinant;
        // The recursion's input weight comes from the cosine just past the window (see the header).
        vgn_s2_gaussian_value.n2[k] = (float)(-beta * cos(omega[k] * (radius + 1.0)));
        vgn_s2_gaussian_value.d1[k] = (float)(-2.0 * cos(omega[k]));
    }
#undef VGN_DET3
    for (int v = 0; v < 256; v++) vgn_s2_linear_table[v] = (float)vgn_s2_srgb_to_linear(v / 255.0);
}

const vgn_s2_gaussian *vgn_s2_gaussian_get(void) {
    pthread_once(&vgn_s2_once, vgn_s2_make_tables);
    return &vgn_s2_gaussian_value;
}

int vgn_ssimulacra2_has_avx2(void) {
#if defined(VGN_S2_HAVE_AVX2)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
#else
    return 0;
#endif
}

// MARK: - Planes

/// Floats between rows for `width`: a multiple of 8 (one AVX2 vector).
static size_t vgn_s2_stride(int width) { return ((size_t)width + 7) & ~(size_t)7; }

/// `bytes` aligned for AVX2 (free() it), or NULL. A block of 4 MB or more is aligned to 2 MB and
/// asked to be backed by huge pages: its pages are faulted in 512 times less often, which makes a
/// preparation at 2000×1500 more than twice as fast (docs/performance.md).
static void *vgn_s2_allocate(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge && bytes <= SIZE_MAX - huge) {
        bytes = (bytes + huge - 1) & ~(huge - 1);
        void *block = aligned_alloc(huge, bytes);
        if (block) madvise(block, bytes, MADV_HUGEPAGE);
        return block;
    }
#endif
    return aligned_alloc(32, (bytes + 31) & ~(size_t)31);
}

/// `count` planes of `width` × `height` in one 32-byte-aligned block (free() it), or NULL.
static float *vgn_s2_planes(vgn_s2_plane *planes, int count, int width, int height) {
    const size_t stride = vgn_s2_stride(width);
    const size_t floats = stride * (size_t)height;
    if (floats > SIZE_MAX / sizeof(float) / (size_t)count) return NULL;
    float *block = vgn_s2_allocate(floats * sizeof(float) * (size_t)count);
    if (!block) return NULL;
    // The padding past each row's width is read by the vector kernels (never summed): zeros, not
    // whatever the allocator left.
    memset(block, 0, floats * sizeof(float) * (size_t)count);
    for (int i = 0; i < count; i++) {
        planes[i] = (vgn_s2_plane){block + floats * (size_t)i, width, height, stride};
    }
    return block;
}

/// The same planes seen at a smaller size (a later scale in a buffer sized for the first).
static void vgn_s2_resize_view(vgn_s2_plane *planes, int count, int width, int height) {
    for (int i = 0; i < count; i++) {
        planes[i].width = width;
        planes[i].height = height;
        planes[i].stride = vgn_s2_stride(width);
    }
}

// MARK: - Pixels to linear light

/// The 8-bit pixels as three linear-light planes: grey repeated into R, G and B; with alpha (bands
/// 2 and 4) blended over `background` in sRGB's encoding first, as the reference tool does.
static void vgn_s2_linearize(const uint8_t *pixels, size_t stride, int bands, float background, vgn_s2_plane linear[3]) {
    const int alpha = bands == 2 || bands == 4, colours = bands >= 3 ? 3 : 1;
    for (int y = 0; y < linear[0].height; y++) {
        const uint8_t *in = pixels + (size_t)y * stride;
        float *out[3] = {vgn_s2_row(&linear[0], y), vgn_s2_row(&linear[1], y), vgn_s2_row(&linear[2], y)};
        for (int x = 0; x < linear[0].width; x++, in += bands) {
            for (int c = 0; c < 3; c++) {
                const uint8_t value = in[colours == 3 ? c : 0];
                if (!alpha) {
                    out[c][x] = vgn_s2_linear_table[value];
                } else {
                    const float a = in[bands - 1] * (1.0f / 255.0f);
                    const float encoded = a * (value * (1.0f / 255.0f)) + (1.0f - a) * background;
                    out[c][x] = (float)vgn_s2_srgb_to_linear(encoded);
                }
            }
        }
    }
}

/// 2×2 box halving; at an odd side the last column or row is repeated.
static void vgn_s2_downsample(const vgn_s2_plane in[3], vgn_s2_plane out[3]) {
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < out[c].height; y++) {
            const float *top = vgn_s2_row(&in[c], 2 * y);
            const float *bottom = vgn_s2_row(&in[c], 2 * y + 1 < in[c].height ? 2 * y + 1 : in[c].height - 1);
            float *row = vgn_s2_row(&out[c], y);
            for (int x = 0; x < out[c].width; x++) {
                const int left = 2 * x, right = 2 * x + 1 < in[c].width ? 2 * x + 1 : in[c].width - 1;
                row[x] = (top[left] + top[right] + bottom[left] + bottom[right]) * 0.25f;
            }
        }
    }
}

// MARK: - The prepared reference

/// Scratch planes for walking the scales: linear RGB at the full size and at half size (the
/// scales alternate between them), the XYB planes, and four planes for products and Gaussians.
typedef struct {
    float *blocks[3], *lines;
    vgn_s2_plane linear[2][3], xyb[3], work[4];
} vgn_s2_scratch;

static void vgn_s2_scratch_free(vgn_s2_scratch *scratch) {
    for (int i = 0; i < 3; i++) {
        free(scratch->blocks[i]);
        scratch->blocks[i] = NULL;
    }
    free(scratch->lines);
    scratch->lines = NULL;
}

/// The bytes vgn_s2_scratch_make allocates for a `width` × `height` image.
static size_t vgn_s2_scratch_bytes(int width, int height) {
    const size_t full = vgn_s2_stride(width) * (size_t)height, half = vgn_s2_stride((width + 1) / 2) * (size_t)((height + 1) / 2);
    return (full * 10 + half * 3 + VGN_S2_LINES(vgn_s2_stride(width))) * sizeof(float);
}

static int vgn_s2_scratch_make(vgn_s2_scratch *scratch, int width, int height) {
    memset(scratch, 0, sizeof *scratch);
    scratch->blocks[0] = vgn_s2_planes(scratch->linear[0], 3, width, height);
    scratch->blocks[1] = vgn_s2_planes(scratch->linear[1], 3, (width + 1) / 2, (height + 1) / 2);
    vgn_s2_plane planes[7];
    scratch->blocks[2] = vgn_s2_planes(planes, 7, width, height);
    scratch->lines = vgn_s2_allocate(VGN_S2_LINES(vgn_s2_stride(width)) * sizeof(float));
    if (!scratch->blocks[0] || !scratch->blocks[1] || !scratch->blocks[2] || !scratch->lines) {
        vgn_s2_scratch_free(scratch);
        return VGN_SSIMULACRA2_NO_MEMORY;
    }
    memcpy(scratch->xyb, planes, sizeof scratch->xyb);
    memcpy(scratch->work, planes + 3, sizeof scratch->work);
    return VGN_SSIMULACRA2_OK;
}

/// One scale of the reference over one background: its XYB planes, their Gaussians (μ) and the
/// Gaussians of their squares (σ² + μ²).
typedef struct {
    float *block;
    vgn_s2_plane xyb[3], mu[3], square[3];
} vgn_s2_level;

struct vgn_ssimulacra2_reference {
    int width, height, bands, scales, backgrounds;
    float background[2];
    const vgn_s2_kernels *kernels;
    size_t bytes;
    vgn_s2_level levels[2][VGN_S2_SCALES];
    /// The preparation's scratch planes, kept for the scores: a search scores one candidate after
    /// another, and fresh planes of this size would be faulted in again by each. A score that
    /// finds them taken (another thread's) makes its own.
    vgn_s2_scratch kept;
    atomic_flag kept_busy;
};

void vgn_ssimulacra2_free(vgn_ssimulacra2_reference *reference) {
    if (!reference) return;
    for (int b = 0; b < 2; b++) {
        for (int s = 0; s < VGN_S2_SCALES; s++) free(reference->levels[b][s].block);
    }
    vgn_s2_scratch_free(&reference->kept);
    free(reference);
}

size_t vgn_ssimulacra2_reference_bytes(const vgn_ssimulacra2_reference *reference) {
    return reference ? reference->bytes : 0;
}

static int vgn_s2_check(const uint8_t *pixels, int width, int height, size_t stride, int bands) {
    if (!pixels || bands < 1 || bands > 4) return VGN_SSIMULACRA2_INVALID;
    if (width < 8 || height < 8 || width > 65535 || height > 65535) return VGN_SSIMULACRA2_BAD_SIZE;
    if (stride < (size_t)width * (size_t)bands) return VGN_SSIMULACRA2_INVALID;
    return VGN_SSIMULACRA2_OK;
}

/// How many scales an image of this size has: a scale is computed while the one before it
/// (the image itself for the first) is at least 8 × 8, as the reference tool decides.
static int vgn_s2_scale_count(int width, int height) {
    int scales = 0;
    while (scales < VGN_S2_SCALES && width >= 8 && height >= 8) {
        if (scales > 0) {
            width = (width + 1) / 2;
            height = (height + 1) / 2;
        }
        scales++;
    }
    return scales;
}

/// Moves `scratch` to scale `scale` of a `width` × `height` image whose linear planes at scale
/// `scale - 1` are in scratch->linear[(scale - 1) % 2]: halves them into the other set, sizes
/// the views, and returns the set now current.
static vgn_s2_plane *vgn_s2_next_scale(vgn_s2_scratch *scratch, int scale, int *width, int *height) {
    if (scale > 0) {
        *width = (*width + 1) / 2;
        *height = (*height + 1) / 2;
        vgn_s2_resize_view(scratch->linear[scale % 2], 3, *width, *height);
        vgn_s2_downsample(scratch->linear[(scale - 1) % 2], scratch->linear[scale % 2]);
    }
    vgn_s2_resize_view(scratch->xyb, 3, *width, *height);
    vgn_s2_resize_view(scratch->work, 4, *width, *height);
    return scratch->linear[scale % 2];
}

int vgn_ssimulacra2_prepare(const uint8_t *pixels, int width, int height, size_t stride, int bands,
                            int implementation, vgn_ssimulacra2_reference **out) {
    if (!out) return VGN_SSIMULACRA2_INVALID;
    *out = NULL;
    const int checked = vgn_s2_check(pixels, width, height, stride, bands);
    if (checked != VGN_SSIMULACRA2_OK) return checked;
    const vgn_s2_kernels *kernels = &vgn_s2_scalar_kernels;
    switch (implementation) {
    case VGN_SSIMULACRA2_AUTOMATIC:
    case VGN_SSIMULACRA2_AVX2:
#if defined(VGN_S2_HAVE_AVX2)
        if (vgn_ssimulacra2_has_avx2()) {
            kernels = &vgn_s2_avx2_kernels;
            break;
        }
#endif
        if (implementation == VGN_SSIMULACRA2_AVX2) return VGN_SSIMULACRA2_INVALID;
        break;
    case VGN_SSIMULACRA2_SCALAR: break;
    default: return VGN_SSIMULACRA2_INVALID;
    }
    const vgn_s2_gaussian *gaussian = vgn_s2_gaussian_get();

    vgn_ssimulacra2_reference *reference = calloc(1, sizeof *reference);
    if (!reference) return VGN_SSIMULACRA2_NO_MEMORY;
    reference->width = width;
    reference->height = height;
    reference->bands = bands;
    reference->kernels = kernels;
    reference->scales = vgn_s2_scale_count(width, height);
    const int alpha = bands == 2 || bands == 4;
    reference->backgrounds = alpha ? 2 : 1;
    reference->background[0] = alpha ? vgn_s2_dark : vgn_s2_middle;
    reference->background[1] = vgn_s2_light;
    reference->bytes = sizeof *reference;

    atomic_flag_clear(&reference->kept_busy);
    if (vgn_s2_scratch_make(&reference->kept, width, height) != VGN_SSIMULACRA2_OK) {
        vgn_ssimulacra2_free(reference);
        return VGN_SSIMULACRA2_NO_MEMORY;
    }
    reference->bytes += vgn_s2_scratch_bytes(width, height);
    vgn_s2_scratch scratch = reference->kept;
    for (int b = 0; b < reference->backgrounds; b++) {
        vgn_s2_resize_view(scratch.linear[0], 3, width, height);
        vgn_s2_linearize(pixels, stride, bands, reference->background[b], scratch.linear[0]);
        int w = width, h = height;
        for (int s = 0; s < reference->scales; s++) {
            vgn_s2_plane *linear = vgn_s2_next_scale(&scratch, s, &w, &h);
            vgn_s2_level *level = &reference->levels[b][s];
            vgn_s2_plane planes[9];
            level->block = vgn_s2_planes(planes, 9, w, h);
            if (!level->block) {
                vgn_ssimulacra2_free(reference);
                return VGN_SSIMULACRA2_NO_MEMORY;
            }
            reference->bytes += planes[0].stride * (size_t)h * sizeof(float) * 9;
            memcpy(level->xyb, planes, sizeof level->xyb);
            memcpy(level->mu, planes + 3, sizeof level->mu);
            memcpy(level->square, planes + 6, sizeof level->square);
            kernels->xyb(linear, level->xyb);
            for (int c = 0; c < 3; c++) {
                kernels->multiply(&level->xyb[c], &level->xyb[c], &level->square[c]);
                kernels->blur(gaussian, &level->square[c], &level->square[c], &scratch.work[0], scratch.lines);
                kernels->blur(gaussian, &level->xyb[c], &level->mu[c], &scratch.work[0], scratch.lines);
            }
        }
    }
    *out = reference;
    return VGN_SSIMULACRA2_OK;
}

// MARK: - Scoring

/// The 2.1 score from each scale's and channel's sums, `pixels[s]` the samples of scale s.
static double vgn_s2_final_score(vgn_s2_sums sums[VGN_S2_SCALES][3], const double pixels[VGN_S2_SCALES],
                                 int scales) {
    double total = 0.0;
    size_t i = 0; // The weights are read in order, so fewer scales shift them (as the tool does).
    for (int c = 0; c < 3; c++) {
        for (int s = 0; s < scales; s++) {
            const vgn_s2_sums *m = &sums[s][c];
            const double one = 1.0 / pixels[s];
            const double values[2][3] = {
                {one * m->ssim, one * m->artifact, one * m->lost},
                {sqrt(sqrt(one * m->ssim4)), sqrt(sqrt(one * m->artifact4)), sqrt(sqrt(one * m->lost4))},
            };
            for (int n = 0; n < 2; n++) {
                for (int kind = 0; kind < 3; kind++) total += vgn_s2_weights[i++] * fabs(values[n][kind]);
            }
        }
    }
    // The 2.1 mapping of the weighted sum to the score.
    total *= 0.9562382616834844;
    total = 2.326765642916932 * total - 0.020884521182843837 * total * total +
            6.248496625763138e-05 * total * total * total;
    return total > 0.0 ? 100.0 - 10.0 * pow(total, 0.6276336467831387) : 100.0;
}

int vgn_ssimulacra2_score(const vgn_ssimulacra2_reference *reference, const uint8_t *pixels, int width,
                          int height, size_t stride, int bands, double *score) {
    if (!reference || !score) return VGN_SSIMULACRA2_INVALID;
    const int checked = vgn_s2_check(pixels, width, height, stride, bands);
    if (checked != VGN_SSIMULACRA2_OK) return checked;
    if (width != reference->width || height != reference->height) return VGN_SSIMULACRA2_SIZE_MISMATCH;
    const vgn_s2_kernels *kernels = reference->kernels;
    const vgn_s2_gaussian *gaussian = vgn_s2_gaussian_get();

    // The kept scratch when no other thread has it (the flag is the reference's one mutable part).
    atomic_flag *busy = (atomic_flag *)&reference->kept_busy;
    const int kept = !atomic_flag_test_and_set_explicit(busy, memory_order_acquire);
    vgn_s2_scratch scratch;
    if (kept) {
        scratch = reference->kept;
    } else if (vgn_s2_scratch_make(&scratch, width, height) != VGN_SSIMULACRA2_OK) {
        return VGN_SSIMULACRA2_NO_MEMORY;
    }
    vgn_s2_plane *s22 = &scratch.work[1], *s12 = &scratch.work[2], *mu2 = &scratch.work[3];
    double lowest = INFINITY;
    for (int b = 0; b < reference->backgrounds; b++) {
        vgn_s2_resize_view(scratch.linear[0], 3, width, height);
        vgn_s2_linearize(pixels, stride, bands, reference->background[b], scratch.linear[0]);
        vgn_s2_sums sums[VGN_S2_SCALES][3];
        double counts[VGN_S2_SCALES];
        memset(sums, 0, sizeof sums);
        int w = width, h = height;
        for (int s = 0; s < reference->scales; s++) {
            const vgn_s2_plane *linear = vgn_s2_next_scale(&scratch, s, &w, &h);
            const vgn_s2_level *level = &reference->levels[b][s];
            counts[s] = (double)w * (double)h;
            kernels->xyb(linear, scratch.xyb);
            for (int c = 0; c < 3; c++) {
                const vgn_s2_plane *img2 = &scratch.xyb[c];
                kernels->multiply(img2, img2, s22);
                kernels->blur(gaussian, s22, s22, &scratch.work[0], scratch.lines);
                kernels->multiply(&level->xyb[c], img2, s12);
                kernels->blur(gaussian, s12, s12, &scratch.work[0], scratch.lines);
                kernels->blur(gaussian, img2, mu2, &scratch.work[0], scratch.lines);
                kernels->maps(&level->xyb[c], &level->mu[c], &level->square[c], img2, mu2, s22, s12, &sums[s][c]);
            }
        }
        const double value = vgn_s2_final_score(sums, counts, reference->scales);
        if (value < lowest) lowest = value;
    }
    if (kept) {
        atomic_flag_clear_explicit(busy, memory_order_release);
    } else {
        vgn_s2_scratch_free(&scratch);
    }
    *score = lowest;
    return VGN_SSIMULACRA2_OK;
}
