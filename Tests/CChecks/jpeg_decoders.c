// The own JPEG decoders (CVignetteJPEGDC) against libjpeg-turbo on this CPU, as
// JPEGDC.compare in Swift holds them (JPEGDCTests, JPEGScaledTests): each file decoded at 1/8, 1/4
// and 1/2 by the own path (the DC-only decoder or the DC scans of a progressive file at 1/8, the
// reduced-scale decoders at 1/4 and 1/2) and by tjDecompressToYUVPlanes at that scale, the planes
// compared byte for byte over every sample that stands for a block of the picture. A decline is
// allowed, a difference is not. The files: every .jpg of the folders given, then JPEGs made here
// with libjpeg's coefficient API (random sizes, samplings, restart intervals, progressive or not,
// coefficients and quantisers up to the extremes a file can hold, then quantisers past 32767 written
// over the tables), which reach the reduced IDCTs' overflow paths that photos do not; and damaged
// copies of the files up to 256 KB (VGN_CHECK_DAMAGED a file, default 20; pictures whose header
// then declares more than 4 megapixels are not compared). Where AVX2 runs, its pair IDCT is also
// held to the scalar twin on random blocks.
//
//   jpeg_decoders FOLDER...   (a folder that cannot be read is reported and skipped)
#include "check.h"
#include "vgn_jpeg_dc.h"

#include <jpeglib.h>
#include <setjmp.h>
#include <turbojpeg.h>

enum { SCALES = 3 };
static const int denominators[SCALES] = {8, 4, 2};

/// What one comparison gave, as JPEGDC.Comparison names it.
enum { SAME, DECLINED, NOT_COMPARED, UNCHECKED_AC, OTHER_FACTOR, DIFFERS, OUTCOMES };

typedef struct {
    int counts[SCALES][OUTCOMES];
    int declined_decodable[SCALES];   // declined though libjpeg-turbo decoded it (kind not none)
} tally;

typedef struct {
    int width, height, subsampling, count;
    int widths[3], heights[3], strides[3];
    uint8_t *planes[3];
} planes;

static int planes_make(planes *p, int width, int height, int subsampling) {
    memset(p, 0, sizeof *p);
    p->width = width, p->height = height, p->subsampling = subsampling;
    p->count = subsampling == TJSAMP_GRAY ? 1 : 3;
    for (int i = 0; i < p->count; i++) {
        p->widths[i] = tjPlaneWidth(i, width, subsampling);
        p->heights[i] = tjPlaneHeight(i, height, subsampling);
        p->strides[i] = p->widths[i];
        if (p->widths[i] < 1 || p->heights[i] < 1) return -1;
        // Zeroed pages, so that a header declaring a huge picture costs memory only where written.
        p->planes[i] = calloc((size_t)p->widths[i], (size_t)p->heights[i]);
        if (p->planes[i] == NULL) return -1;
    }
    return 0;
}

static void planes_free(planes *p) {
    for (int i = 0; i < 3; i++) free(p->planes[i]);
}

/// libjpeg-turbo's planes at the scale `p` was made for (flags as TurboJPEG.decodePlanes): 0, or
/// -1 with its message.
static int reference_decode(const uint8_t *jpeg, size_t size, planes *p, char *message, size_t capacity) {
    tjhandle handle = tjInitDecompress();
    if (handle == NULL) {
        snprintf(message, capacity, "tjInitDecompress failed");
        return -1;
    }
    int status = tjDecompressToYUVPlanes(handle, jpeg, (unsigned long)size, p->planes, p->width, p->strides, p->height,
                                         TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS);
    if (status != 0) snprintf(message, capacity, "%s", tjGetErrorStr2(handle));
    tjDestroy(handle);
    return status == 0 ? 0 : -1;
}

/// The own path's planes at 1/`denominator`: 1 when it decoded, 0 when it declined.
static int own_decode(const uint8_t *jpeg, size_t size, int denominator, planes *p) {
    int kind = vgn_jpeg_dc_kind(jpeg, size);
    if (kind == VGN_JPEG_DC_KIND_NONE) return 0;
    if (denominator == 8 && kind == VGN_JPEG_DC_KIND_SEQUENTIAL)
        return vgn_jpeg_dc_decode(jpeg, size, p->count, p->planes, p->strides, p->widths, p->heights) == VGN_JPEG_DC_OK;
    if (denominator == 8) {
        uint8_t *stream = malloc(size);
        if (stream == NULL) return 0;
        size_t length = vgn_jpeg_dc_progressive_stream(jpeg, size, stream, size);
        char message[256];
        int ok = length > 0 && reference_decode(stream, length, p, message, sizeof message) == 0;
        free(stream);
        return ok;
    }
    int scale = 8 / denominator;
    if (kind == VGN_JPEG_DC_KIND_SEQUENTIAL)
        return vgn_jpeg_scaled_decode(jpeg, size, scale, p->count, p->planes, p->strides, p->widths, p->heights) == VGN_JPEG_DC_OK;
    return vgn_jpeg_scaled_progressive_decode(jpeg, size, scale, p->count, p->planes, p->strides, p->widths, p->heights)
        == VGN_JPEG_DC_OK;
}

/// libjpeg-turbo's warnings about entropy-coded data, which the DC scans of a progressive file do
/// not hold (JPEGDC.entropyWarnings).
static int entropy_warning(const char *message) {
    static const char *const warnings[] = {"Corrupt JPEG data: premature end of data segment", "Corrupt JPEG data: bad Huffman code",
                                           "extraneous bytes before marker", "instead of RST"};
    for (size_t i = 0; i < sizeof warnings / sizeof warnings[0]; i++)
        if (strstr(message, warnings[i]) != NULL) return 1;
    return 0;
}

/// Whether tjDecompressToYUVPlanes, asked for the planes of 1/`denominator`, decodes at that
/// factor: it takes the first of its factors, largest first, whose size fits, and for a small
/// picture a larger one (3/8 for 5 x 5 asked at 1/4, 1/1 for 1 x 1) gives the same size through
/// another IDCT. Such a size is not compared here.
static int turbo_takes(int width, int height, int denominator) {
    int count = 0;
    tjscalingfactor *factors = tjGetScalingFactors(&count);
    int scaled_width = (width + denominator - 1) / denominator, scaled_height = (height + denominator - 1) / denominator;
    for (int i = 0; i < count; i++) {
        if (TJSCALED(width, factors[i]) <= scaled_width && TJSCALED(height, factors[i]) <= scaled_height)
            return factors[i].num * denominator == factors[i].denom;
    }
    return 0;
}

/// Pictures above this many pixels are not compared (JPEGDC.compare's maxPixels): set for the
/// damaged copies, whose headers may declare any size.
static long long max_pixels = -1;

/// One file at one scale; `detail` says what differed.
static int compare(const uint8_t *jpeg, size_t size, int denominator, int *decodable, char *detail, size_t capacity) {
    *decodable = 0;
    int width = 0, height = 0, subsampling = -1, colourspace = -1;
    tjhandle handle = tjInitDecompress();
    int status = handle ? tjDecompressHeader3(handle, jpeg, (unsigned long)size, &width, &height, &subsampling, &colourspace) : -1;
    if (handle) tjDestroy(handle);
    int planar = subsampling >= 0 && subsampling < TJ_NUMSAMP
              && ((colourspace == TJCS_YCbCr && subsampling != TJSAMP_GRAY) || (colourspace == TJCS_GRAY && subsampling == TJSAMP_GRAY));
    if (status != 0 || width < 1 || height < 1 || !planar) return NOT_COMPARED;
    if (max_pixels >= 0 && (long long)width * height > max_pixels) return NOT_COMPARED;
    // tjDecompressToYUVPlanes reads past its buffer for a 4:1:1 image at most 8 pixels wide at 1/8
    // (JPEGDC.compare's avoidingReferenceOverread).
    if (subsampling == TJSAMP_411 && width <= 8) return NOT_COMPARED;
    int scaled_width = (width + denominator - 1) / denominator, scaled_height = (height + denominator - 1) / denominator;
    if (!turbo_takes(width, height, denominator)) return OTHER_FACTOR;
    planes own, reference;
    int outcome = DIFFERS;
    if (planes_make(&own, scaled_width, scaled_height, subsampling) != 0
        || planes_make(&reference, scaled_width, scaled_height, subsampling) != 0) {
        snprintf(detail, capacity, "out of memory for %dx%d planes", scaled_width, scaled_height);
        goto done;
    }
    int decoded = own_decode(jpeg, size, denominator, &own);
    char message[256] = "";
    if (reference_decode(jpeg, size, &reference, message, sizeof message) != 0) {
        if (!decoded) outcome = DECLINED;
        else if (denominator == 8 && vgn_jpeg_dc_kind(jpeg, size) == VGN_JPEG_DC_KIND_PROGRESSIVE && entropy_warning(message))
            outcome = UNCHECKED_AC;
        else snprintf(detail, capacity, "libjpeg-turbo failed (%s), the own path decoded", message);
        goto done;
    }
    *decodable = vgn_jpeg_dc_kind(jpeg, size) != VGN_JPEG_DC_KIND_NONE;
    if (!decoded) {
        outcome = DECLINED;
        goto done;
    }
    int samples = 8 / denominator;
    int blocks_wide = (width + 7) / 8 * samples, blocks_high = (height + 7) / 8 * samples;
    for (int i = 0; i < reference.count; i++) {
        int wide = i == 0 && blocks_wide < reference.widths[i] ? blocks_wide : reference.widths[i];
        int high = i == 0 && blocks_high < reference.heights[i] ? blocks_high : reference.heights[i];
        for (int y = 0; y < high; y++)
            for (int x = 0; x < wide; x++) {
                size_t at = (size_t)y * (size_t)reference.strides[i] + (size_t)x;
                if (own.planes[i][at] != reference.planes[i][at]) {
                    snprintf(detail, capacity, "plane %d differs at (%d, %d): %d, libjpeg-turbo %d", i, x, y, own.planes[i][at],
                             reference.planes[i][at]);
                    goto done;
                }
            }
    }
    outcome = SAME;
done:
    planes_free(&own);
    planes_free(&reference);
    return outcome;
}

/// Returns whether any scale differed.
static int check_file(const char *name, const uint8_t *jpeg, size_t size, tally *t, int verbose) {
    int differed = 0;
    for (int s = 0; s < SCALES; s++) {
        char detail[512] = "";
        int decodable;
        int outcome = compare(jpeg, size, denominators[s], &decodable, detail, sizeof detail);
        t->counts[s][outcome]++;
        if (outcome == DECLINED && decodable) t->declined_decodable[s]++;
        if (outcome == DIFFERS) printf("  DIFFERS: %s at 1/%d: %s\n", name, denominators[s], detail), differed = 1;
        else if (verbose && outcome == DECLINED && decodable) printf("  declined: %s at 1/%d (libjpeg-turbo decodes it)\n", name, denominators[s]);
    }
    return differed;
}

// MARK: - Generated files

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
} error_trap;

static void error_exit(j_common_ptr cinfo) { longjmp(((error_trap *)cinfo->err)->jump, 1); }
static void no_message(j_common_ptr cinfo) { (void)cinfo; }

/// A random coefficient: mostly zero, small, or anywhere in the range Huffman coding can hold
/// (AC: 10 bits; DC: kept within 10 bits so that the differences fit 11).
static JCOEF coefficient(uint64_t *rng, int extreme, int is_dc) {
    int roll = vgn_check_between(rng, 0, 99);
    if (is_dc) return (JCOEF)(extreme && roll < 30 ? (roll & 1 ? 1023 : -1023) : vgn_check_between(rng, extreme ? -1023 : -500, extreme ? 1023 : 500));
    if (!extreme) return (JCOEF)(roll < 70 ? 0 : roll < 95 ? vgn_check_between(rng, -8, 8) : vgn_check_between(rng, -120, 120));
    return (JCOEF)(roll < 40 ? 0 : roll < 70 ? (roll & 1 ? 1023 : -1023) : vgn_check_between(rng, -1023, 1023));
}

/// `jpeg` with every 16-bit quantisation table's values replaced by large ones (above 32767 too,
/// which libjpeg-turbo reads as negative 16-bit multipliers), as JPEGScaledTests.withLargeQuantisers.
static void large_quantisers(uint8_t *bytes, size_t count) {
    static const uint16_t pattern[8] = {0x7FFF, 0x4000, 0xC000, 0x1234, 300, 0x9000, 0x2000, 0xFFFF};
    size_t at = 0;
    int table = 0;
    while (at + 4 < count) {
        if (bytes[at] != 0xFF || bytes[at + 1] != 0xDB) {
            at++;
            continue;
        }
        size_t end = at + 2 + ((size_t)bytes[at + 2] << 8 | bytes[at + 3]);
        size_t index = at + 4;
        while (index < end && index < count) {
            int sixteen = bytes[index] >> 4 != 0;
            index++;
            for (int k = 0; k < 64 && sixteen && index + 2 * (size_t)k + 1 < count; k++) {
                uint16_t value = pattern[(k + table) % 8];
                bytes[index + 2 * (size_t)k] = (uint8_t)(value >> 8);
                bytes[index + 2 * (size_t)k + 1] = (uint8_t)(value & 0xFF);
            }
            index += sixteen ? 128 : 64;
            table++;
        }
        at = end;
    }
}

/// A JPEG of `width` x `height` with random coefficients: `sampling` 0 grey, 1 4:4:4, 2 4:2:0,
/// 3 4:2:2, 4 4:4:0; quantisers up to `quant_max`. NULL when libjpeg refused.
static uint8_t *make_jpeg(uint64_t *rng, int width, int height, int sampling, int progressive, int restart, int quant_max,
                          int extreme, unsigned long *size) {
    struct jpeg_compress_struct cinfo;
    error_trap trap;
    unsigned char *out = NULL;
    *size = 0;
    cinfo.err = jpeg_std_error(&trap.manager);
    trap.manager.error_exit = error_exit;
    trap.manager.output_message = no_message;
    if (setjmp(trap.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(out);
        return NULL;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &out, size);
    int grey = sampling == 0;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = grey ? 1 : 3;
    cinfo.in_color_space = grey ? JCS_GRAYSCALE : JCS_YCbCr;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, grey ? JCS_GRAYSCALE : JCS_YCbCr);
    static const int h[5] = {1, 1, 2, 2, 1}, v[5] = {1, 1, 2, 1, 2};
    cinfo.comp_info[0].h_samp_factor = h[sampling];
    cinfo.comp_info[0].v_samp_factor = v[sampling];
    for (int c = 1; c < cinfo.num_components; c++) cinfo.comp_info[c].h_samp_factor = cinfo.comp_info[c].v_samp_factor = 1;
    for (int t = 0; t < 2; t++) {
        unsigned int table[64];
        for (int k = 0; k < 64; k++) table[k] = (unsigned)vgn_check_between(rng, 1, quant_max);
        jpeg_add_quant_table(&cinfo, t, table, 100, quant_max <= 255);
    }
    cinfo.optimize_coding = TRUE;
    cinfo.restart_interval = (unsigned)restart;
    if (progressive) jpeg_simple_progression(&cinfo);
    int hmax = h[sampling], vmax = v[sampling];
    jvirt_barray_ptr arrays[3];
    int wide[3], high[3];
    for (int c = 0; c < cinfo.num_components; c++) {
        int ch = cinfo.comp_info[c].h_samp_factor, cv = cinfo.comp_info[c].v_samp_factor;
        int blocks_wide = ((width * ch + hmax - 1) / hmax + 7) / 8, blocks_high = ((height * cv + vmax - 1) / vmax + 7) / 8;
        wide[c] = (blocks_wide + ch - 1) / ch * ch;
        high[c] = (blocks_high + cv - 1) / cv * cv;
        arrays[c] = cinfo.mem->request_virt_barray((j_common_ptr)&cinfo, JPOOL_IMAGE, TRUE, (JDIMENSION)wide[c], (JDIMENSION)high[c],
                                                   (JDIMENSION)cv);
    }
    cinfo.mem->realize_virt_arrays((j_common_ptr)&cinfo);
    for (int c = 0; c < cinfo.num_components; c++)
        for (int row = 0; row < high[c]; row++) {
            JBLOCKARRAY blocks = cinfo.mem->access_virt_barray((j_common_ptr)&cinfo, arrays[c], (JDIMENSION)row, 1, TRUE);
            for (int b = 0; b < wide[c]; b++)
                for (int k = 0; k < 64; k++) blocks[0][b][k] = coefficient(rng, extreme, k == 0);
        }
    jpeg_write_coefficients(&cinfo, arrays);
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return out;
}

/// The AVX2 IDCT (two blocks a call) against the scalar twin, through vgn_jpeg_scaled_idct_agrees,
/// on random blocks of the kinds JPEGScaledTests.avx2IDCTEqualsScalarTwin makes: full-range
/// coefficients and quantisers, small ones, rows 0 and 4 only (the 4x4 code's shortcut), DC only,
/// up to 10 bits. Returns the pairs that differed; -1 when this CPU has no AVX2.
static int idct_pairs(int *compared) {
    uint64_t rng = 34;
    int differing = 0;
    *compared = 0;
    for (int scale = 2; scale <= 4; scale += 2)
        for (int round = 0; round < 20000; round++) {
            int16_t blocks[2][64];
            uint16_t quantisers[2][64];
            for (int b = 0; b < 2; b++) {
                int kind = (round + b) % 5;
                for (int i = 0; i < 64; i++) {
                    int row = i / 8, present = kind == 0 || vgn_check_random(&rng) % 4 == 0;
                    int16_t any = (int16_t)(uint16_t)vgn_check_random(&rng);
                    blocks[b][i] = kind == 0 ? any
                                 : kind == 1 ? (int16_t)(present ? vgn_check_between(&rng, -32, 31) : 0)
                                 : kind == 2 ? (int16_t)(present && (row == 0 || row == 4) ? any : 0)
                                 : kind == 3 ? (int16_t)(i == 0 ? any : 0)
                                             : (int16_t)(present ? vgn_check_between(&rng, -1024, 1023) : 0);
                    quantisers[b][i] = kind == 0 || kind == 2 ? (uint16_t)vgn_check_random(&rng) : (uint16_t)vgn_check_between(&rng, 1, 255);
                }
            }
            int agrees = vgn_jpeg_scaled_idct_agrees(blocks[0], blocks[1], quantisers[0], quantisers[1], scale);
            if (agrees < 0) return -1;
            (*compared)++;
            if (!agrees && differing++ < 5) printf("  DIFFERS: AVX2 IDCT pair %d at 1/%d\n", round, 8 / scale);
        }
    return differing;
}

int main(int argc, char **argv) {
    tally files = {0}, generated = {0}, damaged = {0};
    int file_count = 0, generated_count = 0, damaged_count = 0, refused = 0;
    const char *mutants_env = getenv("VGN_CHECK_DAMAGED");
    int mutants = mutants_env != NULL ? atoi(mutants_env) : 20;
    uint64_t mutation_rng = 56;
    const char *verbose_env = getenv("VGN_CHECK_VERBOSE");
    int verbose = verbose_env != NULL && verbose_env[0] == '1';
    for (int a = 1; a < argc; a++) {
        int count;
        char **paths = vgn_check_list(argv[a], ".jpg", &count);
        if (paths == NULL) {
            printf("  %s: cannot be read, skipped\n", argv[a]);
            continue;
        }
        for (int i = 0; i < count; i++) {
            size_t size;
            uint8_t *data = vgn_check_read(paths[i], &size);
            if (data != NULL) {
                check_file(vgn_check_base(paths[i]), data, size, &files, verbose);
                file_count++;
                // Damaged copies of the smaller files: a few bytes changed past the SOI marker.
                for (int m = 0; m < mutants && size > 16 && size <= 256 * 1024; m++) {
                    uint8_t *copy = malloc(size);
                    if (copy == NULL) break;
                    memcpy(copy, data, size);
                    int changes = vgn_check_between(&mutation_rng, 1, 4);
                    for (int c = 0; c < changes; c++)
                        copy[vgn_check_between(&mutation_rng, 2, (int)size - 1)] = (uint8_t)vgn_check_random(&mutation_rng);
                    char name[600];
                    snprintf(name, sizeof name, "%s, damaged copy %d", vgn_check_base(paths[i]), m);
                    max_pixels = 4 * 1024 * 1024;
                    check_file(name, copy, size, &damaged, verbose);
                    max_pixels = -1;
                    damaged_count++;
                    free(copy);
                }
            }
            free(data);
            free(paths[i]);
        }
        free(paths);
    }
    // Generated: every sampling, baseline and progressive, with and without restart intervals,
    // photo-like and extreme coefficients, 8-bit, 16-bit and patched (past 32767) quantisers.
    uint64_t rng = 20261128;
    for (int round = 0; round < 240; round++) {
        int sampling = round % 5, progressive = round / 5 % 2, extreme = round / 10 % 2, quant = round / 20 % 3;
        int restart = round / 60 % 2 ? vgn_check_between(&rng, 1, 5) : 0;
        int width = vgn_check_between(&rng, 1, 97), height = vgn_check_between(&rng, 1, 97);
        unsigned long size;
        uint8_t *jpeg = make_jpeg(&rng, width, height, sampling, progressive, restart, quant == 0 ? 255 : 32767, extreme, &size);
        if (jpeg == NULL) {
            refused++;
            continue;
        }
        if (quant == 2) large_quantisers(jpeg, size);
        char name[128];
        snprintf(name, sizeof name, "generated #%d (%dx%d, sampling %d, %s, restart %d, %s coefficients, quantisers %s)", round, width,
                 height, sampling, progressive ? "progressive" : "baseline", restart, extreme ? "extreme" : "photo-like",
                 quant == 0 ? "8-bit" : quant == 1 ? "16-bit" : "past 32767");
        if (check_file(name, jpeg, size, &generated, verbose) && getenv("VGN_CHECK_KEEP") != NULL) {
            // The file kept for a closer look: VGN_CHECK_KEEP names a folder.
            char path[4096];
            snprintf(path, sizeof path, "%s/generated-%d.jpg", getenv("VGN_CHECK_KEEP"), round);
            FILE *f = fopen(path, "wb");
            if (f != NULL) {
                fwrite(jpeg, 1, size, f);
                fclose(f);
                printf("  kept as %s\n", path);
            }
        }
        generated_count++;
        free(jpeg);
    }
    const char *cpu =
#if defined(__x86_64__)
        "x86-64";
#elif defined(__aarch64__)
        "arm64";
#else
        "this CPU";
#endif
    printf("jpeg_decoders (%s; reduced IDCTs %s): own decoders against libjpeg-turbo's tjDecompressToYUVPlanes at the same scale\n", cpu,
           vgn_jpeg_scaled_vectorised() ? "AVX2, Huffman loop for BMI2" : "scalar");
    int differing = 0;
    for (int part = 0; part < 3; part++) {
        const tally *t = part == 0 ? &files : part == 1 ? &damaged : &generated;
        printf("  %s: %d files\n",
               part == 0   ? "JPEGs of the folders"
               : part == 1 ? "damaged copies of those up to 256 KB (1-4 bytes changed)"
                           : "generated JPEGs (libjpeg's coefficient API)",
               part == 0 ? file_count : part == 1 ? damaged_count : generated_count);
        for (int s = 0; s < SCALES; s++) {
            const int *c = t->counts[s];
            printf("    1/%d: %d equal, %d declined (%d of them decodable by libjpeg-turbo), %d differing; not compared: %d (not planar, or"
                   " unreadable), %d (TurboJPEG decodes that size at another factor), %d (damage in AC scans the DC path skips)\n",
                   denominators[s], c[SAME], c[DECLINED], t->declined_decodable[s], c[DIFFERS], c[NOT_COMPARED], c[OTHER_FACTOR],
                   c[UNCHECKED_AC]);
            differing += c[DIFFERS];
        }
    }
    int pairs, pair_differing = idct_pairs(&pairs);
    if (pair_differing < 0) printf("  no AVX2 on this CPU: the scalar twin is the only reduced IDCT\n");
    else printf("  AVX2 reduced IDCT against the scalar twin: %d random block pairs at 1/4 and 1/2, %d differing\n", pairs, pair_differing);
    if (pair_differing > 0) differing += pair_differing;
    if (refused) printf("  libjpeg refused %d generated files\n", refused);
    if (file_count + generated_count == 0) return VGN_CHECK_SKIPPED;
    return differing == 0 && refused == 0 ? 0 : 1;
}
