// The colour tables (CVignetteResize: colour.c, cmyk.c) against littleCMS' own 8-bit transforms
// to its built-in sRGB profile, relative colorimetric, as ColourTests hold them:
//   - vgn_matrix_shaper_*: built from a matrix-shaper RGB profile as SRGBTransforms.matrixShaper
//     builds it (colorants through the inverse of sRGB's, curves by cmsEvalToneCurveFloat), on
//     12 levels a channel, every grey and 20,000 random colours: within 1 of littleCMS on every
//     sample (what SRGBTransforms' comment promises; ColourTests allow 1.5 against transicc);
//   - vgn_cmyk_table_*: the 17-node grid of a 16-bit littleCMS transform, as
//     SRGBTransforms.cmykGrid makes it, on 9 levels a channel and 20,000 random colours: within 1,
//     and at most 0.1 % of the samples off at all (ColourTests' bounds).
// Profiles: Adobe RGB and Display P3 matrix-shapers and a CMYK lookup-table profile made here with
// littleCMS, the ICC profiles of the .jpg files of the folders given (RGB matrix-shapers and CMYK).
//
//   colour_tables FOLDER...
#include "check.h"
#include "CVignetteResize.h"

#include <jpeglib.h>
#include <lcms2.h>
#include <math.h>
#include <setjmp.h>

static int failures = 0;

/// Columns: the colorants of a matrix-shaper profile (linear RGB to XYZ, D50).
static int colorants(cmsHPROFILE profile, double m[9]) {
    const cmsTagSignature tags[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    for (int c = 0; c < 3; c++) {
        const cmsCIEXYZ *xyz = cmsReadTag(profile, tags[c]);
        if (xyz == NULL) return -1;
        m[c] = xyz->X, m[3 + c] = xyz->Y, m[6 + c] = xyz->Z;
    }
    return 0;
}

/// vgn_matrix_shaper_make's arguments for `profile` as SRGBTransforms.matrixShaper computes them;
/// NULL when the profile is not a matrix-shaper littleCMS converts as one.
static vgn_matrix_shaper *matrix_shaper(cmsHPROFILE profile) {
    if (cmsGetColorSpace(profile) != cmsSigRgbData || cmsGetPCS(profile) != cmsSigXYZData || !cmsIsMatrixShaper(profile)
        || cmsIsCLUT(profile, INTENT_RELATIVE_COLORIMETRIC, LCMS_USED_AS_INPUT))
        return NULL;
    double s[9], from[9], to[9], matrix[9], curves[768];
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    int ok = srgb != NULL && colorants(srgb, s) == 0 && colorants(profile, from) == 0;
    if (srgb) cmsCloseProfile(srgb);
    if (!ok) return NULL;
    double det = s[0] * (s[4] * s[8] - s[5] * s[7]) - s[1] * (s[3] * s[8] - s[5] * s[6]) + s[2] * (s[3] * s[7] - s[4] * s[6]);
    const double adjugate[9] = {
        s[4] * s[8] - s[5] * s[7], s[2] * s[7] - s[1] * s[8], s[1] * s[5] - s[2] * s[4],
        s[5] * s[6] - s[3] * s[8], s[0] * s[8] - s[2] * s[6], s[2] * s[3] - s[0] * s[5],
        s[3] * s[7] - s[4] * s[6], s[1] * s[6] - s[0] * s[7], s[0] * s[4] - s[1] * s[3],
    };
    for (int i = 0; i < 9; i++) to[i] = adjugate[i] / det;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) matrix[r * 3 + c] = to[r * 3] * from[c] + to[r * 3 + 1] * from[3 + c] + to[r * 3 + 2] * from[6 + c];
    const cmsTagSignature trc[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *curve = cmsReadTag(profile, trc[c]);
        if (curve == NULL) return NULL;
        for (int v = 0; v < 256; v++) curves[c * 256 + v] = cmsEvalToneCurveFloat(curve, (cmsFloat32Number)v / 255);
    }
    return vgn_matrix_shaper_make(matrix, curves);
}

/// The test colours: `levels` for every channel combination, greys for RGB, then `random` ones.
static uint8_t *colours(int channels, const uint8_t *levels, int level_count, int greys, int random, size_t *count) {
    size_t combos = 1;
    for (int c = 0; c < channels; c++) combos *= (size_t)level_count;
    *count = combos + (greys ? 256 : 0) + (size_t)random;
    uint8_t *out = malloc(*count * (size_t)channels), *at = out;
    if (out == NULL) return NULL;
    for (size_t i = 0; i < combos; i++) {
        size_t rest = i;
        for (int c = channels - 1; c >= 0; c--, rest /= (size_t)level_count) at[c] = levels[rest % (size_t)level_count];
        at += channels;
    }
    for (int g = 0; greys && g < 256; g++, at += channels) memset(at, g, (size_t)channels);
    uint64_t rng = 12345;
    for (int i = 0; i < random * channels; i++) *at++ = (uint8_t)vgn_check_random(&rng);
    return out;
}

static void check_matrix_shaper(const char *name, cmsHPROFILE profile) {
    vgn_matrix_shaper *shaper = matrix_shaper(profile);
    if (shaper == NULL) return;
    static const uint8_t levels[12] = {0, 1, 16, 32, 64, 96, 128, 160, 192, 224, 254, 255};
    size_t count;
    uint8_t *input = colours(3, levels, 12, 1, 20000, &count);
    uint8_t *ours = malloc(count * 3), *reference = malloc(count * 3);
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHTRANSFORM transform = cmsCreateTransform(profile, TYPE_RGB_8, srgb, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE);
    if (input == NULL || ours == NULL || reference == NULL || transform == NULL) {
        printf("  %s: littleCMS or memory failed\n", name);
        failures++;
    } else {
        vgn_matrix_shaper_apply(shaper, input, ours, count, 3);
        cmsDoTransform(transform, input, reference, (cmsUInt32Number)count);
        int largest = 0;
        size_t off = 0;
        for (size_t i = 0; i < count * 3; i++) {
            int d = abs(ours[i] - reference[i]);
            if (d > largest) largest = d;
            off += d != 0;
        }
        int ok = largest <= 1;
        failures += !ok;
        printf("  %s matrix-shaper: %zu colours, %zu of %zu samples off by 1, largest difference %d%s\n", name, count, off, count * 3,
               largest, ok ? "" : " (MORE THAN 1)");
    }
    if (transform) cmsDeleteTransform(transform);
    if (srgb) cmsCloseProfile(srgb);
    vgn_matrix_shaper_free(shaper);
    free(input), free(ours), free(reference);
}

static void check_cmyk(const char *name, cmsHPROFILE profile) {
    if (cmsGetColorSpace(profile) != cmsSigCmykData) return;
    enum { POINTS = 17 };
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHTRANSFORM sixteen = cmsCreateTransform(profile, TYPE_CMYK_16, srgb, TYPE_RGB_16, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE);
    cmsHTRANSFORM eight = cmsCreateTransform(profile, TYPE_CMYK_8, srgb, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE);
    size_t nodes = (size_t)POINTS * POINTS * POINTS * POINTS, count = 0;
    uint16_t *in = malloc(nodes * 4 * sizeof *in), *grid = malloc(nodes * 3 * sizeof *grid);
    static const uint8_t levels[9] = {0, 1, 16, 64, 128, 191, 200, 254, 255};
    uint8_t *input = colours(4, levels, 9, 0, 20000, &count);
    uint8_t *ours = malloc(count * 3), *reference = malloc(count * 3);
    vgn_cmyk_table *table = NULL;
    if (sixteen && eight && in && grid && input && ours && reference) {
        for (size_t i = 0; i < nodes; i++) {
            size_t rest = i;
            for (int c = 3; c >= 0; c--, rest /= POINTS) in[i * 4 + (size_t)c] = (uint16_t)lround((double)(rest % POINTS) * 65535 / (POINTS - 1));
        }
        cmsDoTransform(sixteen, in, grid, (cmsUInt32Number)nodes);
        table = vgn_cmyk_table_make(grid, POINTS);
    }
    if (table == NULL) {
        printf("  %s: littleCMS or memory failed\n", name);
        failures++;
    } else {
        vgn_cmyk_table_apply(table, input, ours, count);
        cmsDoTransform(eight, input, reference, (cmsUInt32Number)count);
        int largest = 0;
        size_t off = 0;
        for (size_t i = 0; i < count * 3; i++) {
            int d = abs(ours[i] - reference[i]);
            if (d > largest) largest = d;
            off += d != 0;
        }
        int ok = largest <= 1 && off * 1000 <= count * 3;
        failures += !ok;
        printf("  %s CMYK grid: %zu colours, %zu of %zu samples off by 1, largest difference %d%s\n", name, count, off, count * 3, largest,
               ok ? "" : " (MORE THAN ColourTests ALLOW)");
    }
    vgn_cmyk_table_free(table);
    if (sixteen) cmsDeleteTransform(sixteen);
    if (eight) cmsDeleteTransform(eight);
    if (srgb) cmsCloseProfile(srgb);
    free(in), free(grid), free(input), free(ours), free(reference);
}

/// A CMYK to Lab sampler for the profile made here: naive ink subtraction, then sRGB to Lab.
static int cmyk_sampler(const cmsFloat32Number in[], cmsFloat32Number out[], void *cargo) {
    cmsHTRANSFORM to_lab = cargo;
    double k = in[3];
    cmsFloat32Number rgb[3];
    for (int c = 0; c < 3; c++) rgb[c] = (cmsFloat32Number)((1 - in[c]) * (1 - k) * (0.9 + 0.1 * in[(c + 1) % 3]));
    cmsCIELab lab;
    cmsDoTransform(to_lab, rgb, &lab, 1);
    out[0] = (cmsFloat32Number)(lab.L / 100), out[1] = (cmsFloat32Number)((lab.a + 128) / 255), out[2] = (cmsFloat32Number)((lab.b + 128) / 255);
    return 1;
}

/// A CMYK output profile with an A2B0 lookup table (9 nodes a side), made with littleCMS.
static cmsHPROFILE made_cmyk_profile(void) {
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
    cmsHPROFILE srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(NULL);
    cmsHTRANSFORM to_lab = cmsCreateTransform(srgb, TYPE_RGB_FLT, lab, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *clut = cmsStageAllocCLutFloat(NULL, 9, 4, 3, NULL);
    int ok = profile && to_lab && pipeline && clut && cmsStageSampleCLutFloat(clut, cmyk_sampler, to_lab, 0)
          && cmsPipelineInsertStage(pipeline, cmsAT_END, clut);
    if (ok) {
        clut = NULL;
        cmsSetProfileVersion(profile, 4.3);
        cmsSetDeviceClass(profile, cmsSigOutputClass);
        cmsSetColorSpace(profile, cmsSigCmykData);
        cmsSetPCS(profile, cmsSigLabData);
        ok = cmsWriteTag(profile, cmsSigAToB0Tag, pipeline) && cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    }
    if (clut) cmsStageFree(clut);
    if (pipeline) cmsPipelineFree(pipeline);
    if (to_lab) cmsDeleteTransform(to_lab);
    if (srgb) cmsCloseProfile(srgb);
    if (lab) cmsCloseProfile(lab);
    if (!ok && profile) {
        cmsCloseProfile(profile);
        return NULL;
    }
    return profile;
}

/// A matrix-shaper RGB profile with these primaries (x, y of red, green, blue) and curve.
static cmsHPROFILE made_rgb_profile(const double primaries[6], cmsToneCurve *curve) {
    cmsCIExyY white;
    cmsWhitePointFromTemp(&white, 6504);
    cmsCIExyYTRIPLE p = {{primaries[0], primaries[1], 1}, {primaries[2], primaries[3], 1}, {primaries[4], primaries[5], 1}};
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &p, curves);
    cmsFreeToneCurve(curve);
    return profile;
}

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
} error_trap;

static void error_exit(j_common_ptr cinfo) { longjmp(((error_trap *)cinfo->err)->jump, 1); }
static void no_message(j_common_ptr cinfo) { (void)cinfo; }

/// The ICC profile of a JPEG (libjpeg's jpeg_read_icc_profile), opened; NULL when it has none.
static cmsHPROFILE jpeg_profile(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    struct jpeg_decompress_struct cinfo;
    error_trap trap;
    JOCTET *icc = NULL;
    unsigned int length = 0;
    cmsHPROFILE profile = NULL;
    cinfo.err = jpeg_std_error(&trap.manager);
    trap.manager.error_exit = error_exit;
    trap.manager.output_message = no_message;
    if (setjmp(trap.jump) == 0) {
        jpeg_create_decompress(&cinfo);
        jpeg_stdio_src(&cinfo, file);
        jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
        if (jpeg_read_header(&cinfo, TRUE) == JPEG_HEADER_OK && jpeg_read_icc_profile(&cinfo, &icc, &length) && length > 128)
            profile = cmsOpenProfileFromMem(icc, length);
    }
    jpeg_destroy_decompress(&cinfo);
    free(icc);
    fclose(file);
    return profile;
}

int main(int argc, char **argv) {
    printf("colour_tables: vgn_matrix_shaper_* and vgn_cmyk_table_* against littleCMS' own 8-bit transforms to sRGB\n");
    cmsSetLogErrorHandler(NULL);
    int profiles = 0;
    static const double adobe[6] = {0.64, 0.33, 0.21, 0.71, 0.15, 0.06}, p3[6] = {0.68, 0.32, 0.265, 0.69, 0.15, 0.06};
    static const double srgb_curve[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsHPROFILE made[3] = {made_rgb_profile(adobe, cmsBuildGamma(NULL, 2.19921875)),
                           made_rgb_profile(p3, cmsBuildParametricToneCurve(NULL, 4, srgb_curve)), made_cmyk_profile()};
    const char *made_names[3] = {"made here: Adobe RGB (gamma 2.2)", "made here: Display P3 (sRGB curve)", "made here: CMYK, 9-node A2B0"};
    for (int i = 0; i < 3; i++) {
        if (made[i] == NULL) {
            printf("  %s: littleCMS could not make it\n", made_names[i]);
            failures++;
            continue;
        }
        check_matrix_shaper(made_names[i], made[i]);
        check_cmyk(made_names[i], made[i]);
        cmsCloseProfile(made[i]);
        profiles++;
    }
    for (int a = 1; a < argc; a++) {
        int count;
        char **paths = vgn_check_list(argv[a], ".jpg", &count);
        if (paths == NULL) printf("  %s: cannot be read, skipped\n", argv[a]);
        for (int i = 0; i < count; i++) {
            cmsHPROFILE profile = jpeg_profile(paths[i]);
            if (profile != NULL) {
                char name[512];
                snprintf(name, sizeof name, "%s's profile", vgn_check_base(paths[i]));
                check_matrix_shaper(name, profile);
                check_cmyk(name, profile);
                cmsCloseProfile(profile);
                profiles++;
            }
            free(paths[i]);
        }
        free(paths);
    }
    printf("  %d profiles, %d beyond the bounds\n", profiles, failures);
    return failures == 0 ? 0 : 1;
}
