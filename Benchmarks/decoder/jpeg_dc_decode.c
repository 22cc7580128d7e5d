// Vignette's own decoders alone (CSystemShims/CVignetteJPEGDC: vgn_jpeg_dc_decode at 1/8,
// vgn_jpeg_scaled_decode at 1/4 and 1/2, and for progressive files vgn_jpeg_scaled_progressive_decode
// at 1/4 and 1/2) against libjpeg-turbo's own decode at the same scale (tjDecompressToYUVPlanes),
// for each JPEG given that one of them takes and each scale in SCALES (denominators,
// default "8 4 2"): whether the two give the same planes (the samples of real blocks; the padding
// past them is not compared), and, with ITERATIONS > 0, the CPU time of each decode
// (CLOCK_PROCESS_CPUTIME_ID, mean over the iterations; the two decoders alternate in rounds of
// ITERATIONS / 10, so that a change in the machine's load falls on both). Built and run by
// Benchmarks/jpeg-dc-decode.sh. Exits 1 if any planes differ.
#include "vgn_jpeg_dc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned char *read_file(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    unsigned char *bytes = NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        bytes = malloc((size_t)*size);
        if (bytes != NULL && fread(bytes, 1, (size_t)*size, f) != (size_t)*size) {
            free(bytes);
            bytes = NULL;
        }
    }
    fclose(f);
    return bytes;
}

/// The samples of real blocks in plane `c`: the component's size at the scale, not the MCU padding.
static void real_size(int c, int width, int height, int subsampling, int *w, int *h) {
    *w = width;
    *h = height;
    if (c == 0) return;
    if (subsampling == TJSAMP_422 || subsampling == TJSAMP_420) *w = (width + 1) / 2;
    if (subsampling == TJSAMP_411) *w = (width + 3) / 4;
    if (subsampling == TJSAMP_420 || subsampling == TJSAMP_440) *h = (height + 1) / 2;
}

/// Vignette's decode of `jpeg` at 1/`denominator`.
static int own_decode(const unsigned char *jpeg, long size, int denominator, int planes, unsigned char **ours, const int *strides,
                      const int *widths, const int *heights) {
    if (vgn_jpeg_dc_kind(jpeg, (size_t)size) == VGN_JPEG_DC_KIND_PROGRESSIVE)
        return vgn_jpeg_scaled_progressive_decode(jpeg, (size_t)size, 8 / denominator, planes, ours, strides, widths, heights);
    if (denominator == 8) return vgn_jpeg_dc_decode(jpeg, (size_t)size, planes, ours, strides, widths, heights);
    return vgn_jpeg_scaled_decode(jpeg, (size_t)size, 8 / denominator, planes, ours, strides, widths, heights);
}

int main(int argc, char **argv) {
    int iterations = getenv("ITERATIONS") ? atoi(getenv("ITERATIONS")) : 0;
    int same = 0, differ = 0, declined = 0;
    const char *scales = getenv("SCALES") ? getenv("SCALES") : "8 4 2";
    for (const char *at = scales; *at != 0;) {
        char *end;
        int denominator = (int)strtol(at, &end, 10);
        if (end == at) break;
        at = end;
        if (denominator != 8 && denominator != 4 && denominator != 2) continue;
        for (int a = 1; a < argc; a++) {
            long size = 0;
            unsigned char *jpeg = read_file(argv[a], &size);
            int kind = jpeg == NULL ? VGN_JPEG_DC_KIND_NONE : vgn_jpeg_dc_kind(jpeg, (size_t)size);
            if (kind == VGN_JPEG_DC_KIND_NONE || (kind == VGN_JPEG_DC_KIND_PROGRESSIVE && denominator == 8)) {
                free(jpeg);
                continue;
            }
            tjhandle tj = tjInitDecompress();
            int width, height, subsampling, colorspace;
            if (tj == NULL || tjDecompressHeader3(tj, jpeg, (unsigned long)size, &width, &height, &subsampling, &colorspace) != 0) {
                if (tj) tjDestroy(tj);
                free(jpeg);
                continue;
            }
            tjscalingfactor factor = {1, denominator};
            int sw = TJSCALED(width, factor), sh = TJSCALED(height, factor), planes = subsampling == TJSAMP_GRAY ? 1 : 3;
            unsigned char *theirs[3] = {0}, *ours[3] = {0};
            int strides[3], widths[3], heights[3];
            for (int c = 0; c < planes; c++) {
                widths[c] = strides[c] = tjPlaneWidth(c, sw, subsampling);
                heights[c] = tjPlaneHeight(c, sh, subsampling);
                theirs[c] = calloc((size_t)widths[c] * (size_t)heights[c], 1);
                ours[c] = calloc((size_t)widths[c] * (size_t)heights[c], 1);
            }
            int failed = tjDecompressToYUVPlanes(tj, jpeg, (unsigned long)size, theirs, sw, strides, sh, 0) != 0;
            if (own_decode(jpeg, size, denominator, planes, ours, strides, widths, heights) != VGN_JPEG_DC_OK) {
                declined++;
            } else {
                int equal = !failed;
                for (int c = 0; c < planes && equal; c++) {
                    int w, h;
                    real_size(c, sw, sh, subsampling, &w, &h);
                    for (int y = 0; y < h && equal; y++)
                        equal = memcmp(theirs[c] + (size_t)y * (size_t)strides[c], ours[c] + (size_t)y * (size_t)strides[c], (size_t)w) == 0;
                }
                if (equal) same++;
                else {
                    differ++;
                    printf("DIFFERENT at 1/%d: %s%s\n", denominator, argv[a], failed ? " (libjpeg-turbo failed)" : "");
                }
            }
            if (iterations > 0) {
                double mine = 0, turbo = 0;
                int round = iterations >= 10 ? iterations / 10 : 1;
                for (int done = 0; done < iterations; done += round) {
                    double start = cpu_seconds();
                    for (int i = 0; i < round; i++) own_decode(jpeg, size, denominator, planes, ours, strides, widths, heights);
                    mine += cpu_seconds() - start;
                    start = cpu_seconds();
                    for (int i = 0; i < round; i++) tjDecompressToYUVPlanes(tj, jpeg, (unsigned long)size, theirs, sw, strides, sh, 0);
                    turbo += cpu_seconds() - start;
                }
                int runs = (iterations + round - 1) / round * round;
                printf("%s at 1/%d: Vignette %.3f ms, libjpeg-turbo %.3f ms (libjpeg-turbo / Vignette %.2fx)\n", argv[a], denominator,
                       mine / runs * 1e3, turbo / runs * 1e3, turbo / mine);
            }
            for (int c = 0; c < planes; c++) {
                free(theirs[c]);
                free(ours[c]);
            }
            tjDestroy(tj);
            free(jpeg);
        }
    }
    printf("planes equal to libjpeg-turbo's: %d files; different: %d; declined: %d\n", same, differ, declined);
    return differ != 0;
}
