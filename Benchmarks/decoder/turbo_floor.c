// libjpeg-turbo's own share of a JPEG thumbnail, the floor every peer that decodes with it stands
// on: the file decoded at 1/DENOMINATOR into Y/Cb/Cr planes (tjDecompressToYUVPlanes, as
// Vignette's planar route and Pillow's draft mode decode), and the thumbnail's size of those planes
// encoded as a 4:2:0 JPEG at quality 80 (tjCompressFromYUVPlanes). No resize and no colour
// conversion: what is left of a thumbnail when everything but libjpeg-turbo costs nothing. The
// planes and the output are allocated for each image, as a thumbnailer does. Prints one JSON line
// in the shape of `VignetteBench jpeg-task`'s, so that Benchmarks/jpeg-dc.sh times it the same way.
//
//   turbo_floor INPUT SECONDS WIDTH HEIGHT DENOMINATOR TOOL
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <turbojpeg.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/// One thumbnail's libjpeg-turbo work; the encoded size, or 0 on an error.
static unsigned long one(tjhandle decoder, tjhandle encoder, const unsigned char *jpeg, unsigned long size, int width, int height,
                         int subsampling, int denominator, int out_width, int out_height) {
    tjscalingfactor factor = {1, denominator};
    int sw = TJSCALED(width, factor), sh = TJSCALED(height, factor), count = subsampling == TJSAMP_GRAY ? 1 : 3;
    unsigned char *planes[3] = {0};
    int strides[3] = {0};
    unsigned long written = 0;
    for (int c = 0; c < count; c++) {
        strides[c] = tjPlaneWidth(c, sw, subsampling);
        planes[c] = malloc((size_t)strides[c] * (size_t)tjPlaneHeight(c, sh, subsampling));
        if (planes[c] == NULL) goto done;
    }
    if (tjDecompressToYUVPlanes(decoder, jpeg, size, planes, sw, strides, sh, 0) != 0) goto done;
    unsigned char *out = NULL;
    // The top-left corner at the thumbnail's size; 4:2:0 chroma from the decoded chroma planes
    // (the decoded file is 4:2:0 too in the benchmark; other layouts are still valid input here).
    const unsigned char *in[3] = {planes[0], planes[1], planes[2]};
    int encode_sampling = count == 1 ? TJSAMP_GRAY : subsampling;
    if (tjCompressFromYUVPlanes(encoder, in, out_width, strides, out_height, encode_sampling, &out, &written, 80, 0) != 0) written = 0;
    tjFree(out);
done:
    for (int c = 0; c < count; c++) free(planes[c]);
    return written;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: turbo_floor INPUT SECONDS WIDTH HEIGHT DENOMINATOR TOOL\n");
        return 2;
    }
    double seconds = atof(argv[2]);
    int box_width = atoi(argv[3]), box_height = atoi(argv[4]), denominator = atoi(argv[5]);
    if (box_width < 1 || box_height < 1 || (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8)) {
        fprintf(stderr, "turbo_floor: the box must be positive and the denominator 1, 2, 4 or 8\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) return 1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *jpeg = size > 0 ? malloc((size_t)size) : NULL;
    if (jpeg == NULL || fread(jpeg, 1, (size_t)size, f) != (size_t)size) return 1;
    fclose(f);
    tjhandle decoder = tjInitDecompress(), encoder = tjInitCompress();
    int width, height, subsampling, colorspace;
    if (decoder == NULL || encoder == NULL
        || tjDecompressHeader3(decoder, jpeg, (unsigned long)size, &width, &height, &subsampling, &colorspace) != 0)
        return 1;
    // The thumbnail's size: the box fitted to the image, never enlarged, as `vignette thumbnail
    // --size WxH` does; within the decoded planes.
    double scale = (double)box_width / width < (double)box_height / height ? (double)box_width / width : (double)box_height / height;
    if (scale > 1) scale = 1;
    tjscalingfactor factor = {1, denominator};
    int out_width = (int)(width * scale + 0.5), out_height = (int)(height * scale + 0.5);
    if (out_width > TJSCALED(width, factor)) out_width = TJSCALED(width, factor);
    if (out_height > TJSCALED(height, factor)) out_height = TJSCALED(height, factor);
    if (out_width < 1 || out_height < 1) return 1;
    unsigned long bytes = 0;
    for (double end = now() + 1; now() < end;)   // warm-up, as jpeg-task's
        bytes = one(decoder, encoder, jpeg, (unsigned long)size, width, height, subsampling, denominator, out_width, out_height);
    if (bytes == 0) return 1;
    long ops = 0;
    double start = now(), elapsed;
    do {
        one(decoder, encoder, jpeg, (unsigned long)size, width, height, subsampling, denominator, out_width, out_height);
        ops++;
        elapsed = now() - start;
    } while (elapsed < seconds);
    printf("{\"tool\":\"%s\",\"ops_per_sec\":%.3f,\"ops\":%ld,\"seconds\":%.3f,\"width\":%d,\"height\":%d,\"bytes\":%lu}\n", argv[6],
           ops / elapsed, ops, elapsed, out_width, out_height, bytes);
    tjDestroy(decoder);
    tjDestroy(encoder);
    free(jpeg);
    return 0;
}
