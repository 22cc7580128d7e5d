#define _GNU_SOURCE  // dladdr
#include "CVignetteImageShims.h"

#include <dlfcn.h>
#include <malloc.h>
#include <gmodule.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// The last libvips warning logged on this thread: some loaders fail with only a warning to show
// for it ("PNG unsigned integer out of range"), and unlike the error buffer it is per thread.
static __thread char vgn_last_warning[512];

static void vgn_keep_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)data;
    if ((level & G_LOG_LEVEL_WARNING) && message) g_strlcpy(vgn_last_warning, message, sizeof vgn_last_warning);
}

void vgn_name_thread(const char *name) {
    char cut[16];
    g_strlcpy(cut, name, sizeof cut);
    pthread_setname_np(pthread_self(), cut);
}

size_t vgn_last_warning_take(char *buffer, size_t capacity) {
    size_t length = g_strlcpy(buffer, vgn_last_warning, capacity);
    vgn_last_warning[0] = '\0';
    return length;
}

// libvips' dynamic modules in Debian's build are heif, jxl, magick, poppler and openslide.
// The last three are untrusted loaders that vips_block_untrusted_set() blocks anyway, yet loading
// them (ImageMagick, poppler, cairo, openslide and their dependencies) would slow every process's
// start. So vips_init is pointed at a library folder without modules (VIPSHOME), and the trusted
// modules are opened on demand, the first time bytes in their format turn up (vgn_open_module).
static gboolean vgn_modules_redirected = FALSE;
// A pthread mutex rather than GMutex: GLib's is a bare futex that ThreadSanitizer cannot see,
// so TSan runs of the CLI reported this (correctly locked) table as a race.
static pthread_mutex_t vgn_module_lock = PTHREAD_MUTEX_INITIALIZER;

int vgn_open_module(const char *name) {
    if (!vgn_modules_redirected) return 0;
    // name -> GINT_TO_POINTER(1 + loaded), so that a caller that waited for another thread's
    // load still learns whether the module is there.
    static GHashTable *tried = NULL;
    pthread_mutex_lock(&vgn_module_lock);
    if (!tried) tried = g_hash_table_new(g_str_hash, g_str_equal);
    gpointer known = g_hash_table_lookup(tried, name);
    if (known) {
        pthread_mutex_unlock(&vgn_module_lock);
        return GPOINTER_TO_INT(known) - 1;
    }
    int loaded = 0;
    Dl_info info;
    if (dladdr((void *)vips_init, &info) && info.dli_fname) {
        char *libdir = g_path_get_dirname(info.dli_fname);
        char *path = g_strdup_printf("%s/vips-modules-%d.%d/vips-%s.so", libdir, VIPS_MAJOR_VERSION,
                                     VIPS_MINOR_VERSION, name);
        GModule *module = g_file_test(path, G_FILE_TEST_EXISTS)
                              ? g_module_open(path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL)
                              : NULL;
        if (module) {
            // Types the module registered must never be unloaded.
            g_module_make_resident(module);
            loaded = 1;
            if (strcmp(name, "jxl") == 0) vgn_allow_jxl();
            if (strcmp(name, "poppler") == 0) vgn_allow_pdf();
        }
        g_free(path);
        g_free(libdir);
    }
    g_hash_table_insert(tried, g_strdup(name), GINT_TO_POINTER(1 + loaded));
    pthread_mutex_unlock(&vgn_module_lock);
    return loaded;
}

int vgn_init(const char *argv0, int redirect_modules) {
    // A VIPSHOME already set is put back after: libvips sets it itself when it starts (a parent
    // that uses libvips, pyvips say, passes it on), and honouring it would load every module.
    gboolean redirected = redirect_modules;
    char *given = redirected ? g_strdup(g_getenv("VIPSHOME")) : NULL;
    if (redirected) g_setenv("VIPSHOME", "/nonexistent/vignette-no-vips-modules", TRUE);
    int status = VIPS_INIT(argv0 ? argv0 : "vignette");
    if (redirected) {
        if (given) g_setenv("VIPSHOME", given, TRUE);
        else g_unsetenv("VIPSHOME");
        g_free(given);
    }
    if (status != 0) return -1;
    vgn_modules_redirected = redirected;
    // libvips reports decoder warnings (libpng's iCCP complaints, libjpeg's "premature end") through
    // GLib logging, which prints to stderr. Callers get failures as errors with libvips' message;
    // warnings are kept (per thread) to explain failures that come without a message, not printed.
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG,
                      vgn_keep_log, NULL);
    // The Debian build carries ImageMagick, PDF and other loaders that corrupt input must never reach.
    vips_block_untrusted_set(TRUE);
    // libvips' text formats of its own (convolution masks, CSV tables) are not images a service is
    // sent, and their source loaders' sniffing takes any text that starts with two numbers (a CSV
    // file) for a matrix: blocked too (docs/inputs.md).
    vips_operation_block_set("VipsForeignLoadMatrixSource", TRUE);
    vips_operation_block_set("VipsForeignLoadCsvSource", TRUE);
    // ... but not JPEG XL's (see vgn_allow_jxl), when libvips loaded its module already.
    vgn_allow_jxl();
    // ... nor the SVG source loader, which only ever sees what SVGSanitizer let through.
    vips_operation_block_set("VipsForeignLoadSvgSource", FALSE);
    // ... nor PDF's source loader when libvips loaded poppler's module itself (modules not
    // redirected): DecodingLimits.allowedInputs decides before any PDF byte reaches it.
    vgn_allow_pdf();
    // The pipeline caches what matters; libvips' operation cache would only hold memory.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

void vgn_allow_jxl(void) {
    vips_operation_block_set("VipsForeignLoadJxl", FALSE);
    vips_operation_block_set("VipsForeignSaveJxl", FALSE);
}

void vgn_allow_pdf(void) {
    vips_operation_block_set("VipsForeignLoadPdfSource", FALSE);
}

void vgn_unref(void *object) {
    if (object) g_object_unref(G_OBJECT(object));
}

void vgn_free(void *memory) { g_free(memory); }

char *vgn_error_take(void) { return vips_error_buffer_copy(); }

VipsSource *vgn_source_new_copying(const void *data, size_t length) {
    VipsBlob *blob = vips_blob_copy(data, length);
    if (!blob) return NULL;
    VipsSource *source = vips_source_new_from_blob(blob);
    vips_area_unref(VIPS_AREA(blob));
    return source;
}

static void *vgn_count_source(VipsObject *object, void *count, void *unused) {
    (void)unused;
    if (VIPS_IS_SOURCE(object)) (*(int *)count)++;
    return NULL;
}

int vgn_live_source_count(void) {
    int count = 0;
    vips_object_map((VipsSListMap2Fn)vgn_count_source, &count, NULL);
    return count;
}

VipsImage *vgn_image_new_from_source(VipsSource *source, const char *options) {
    return vips_image_new_from_source(source, options ? options : "", NULL);
}

int vgn_image_get_blob(VipsImage *image, const char *name, const void **data, size_t *length) {
    if (vips_image_get_typeof(image, name) == 0) return 0;
    if (vips_image_get_blob(image, name, data, length) != 0) {
        vips_error_clear();
        return 0;
    }
    return 1;
}

int vgn_resize(VipsImage *in, VipsImage **out, double hscale, double vscale, int kernel) {
    return vips_resize(in, out, hscale, "vscale", vscale, "kernel", (VipsKernel)kernel, NULL);
}

int vgn_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}

int vgn_smartcrop(VipsImage *in, VipsImage **out, int width, int height, int interesting) {
    return vips_smartcrop(in, out, width, height, "interesting", (VipsInteresting)interesting, NULL);
}

int vgn_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

int vgn_gaussblur(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, NULL);
}

int vgn_colourspace(VipsImage *in, VipsImage **out, int interpretation) {
    return vips_colourspace(in, out, (VipsInterpretation)interpretation, NULL);
}

int vgn_icc_to_srgb(VipsImage *in, VipsImage **out, const char *fallback) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "input_profile", fallback,
                              "intent", VIPS_INTENT_RELATIVE, NULL);
}

int vgn_copy_with_profile(VipsImage *in, VipsImage **out, const void *data, size_t length) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    vips_image_set_blob_copy(*out, VIPS_META_ICC_NAME, data, length);
    return 0;
}

VipsImage *vgn_image_copy_memory(VipsImage *in) {
    VipsImage *out = vips_image_copy_memory(in);
    if (out == NULL || out == in) return out;
    // vips_image_write gave the copy `in`'s progress_signal, a pointer without a reference: once
    // `in` (or the image a cancellation watch set it to) is freed, any later evaluation of an
    // image made from the copy would signal a freed object. The copy reports no progress.
    out->progress_signal = NULL;
    const void *data = NULL;
    size_t length = 0;
    if (vips_image_get_typeof(out, VIPS_META_ICC_NAME) &&
        vips_image_get_blob(out, VIPS_META_ICC_NAME, &data, &length) == 0 && data != NULL && length > 0) {
        // Copied while `in`, whose loader may own the bytes, is still alive.
        vips_image_set_blob_copy(out, VIPS_META_ICC_NAME, data, length);
    }
    return out;
}

int vgn_copy_without_profile(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    vips_image_remove(*out, VIPS_META_ICC_NAME);
    return 0;
}

int vgn_copy_keeping_only_profile(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    gchar **fields = vips_image_get_fields(*out);
    // Only fields of the metadata table are removed; the built-in ones (width, bands …) are not in it.
    for (int i = 0; fields[i] != NULL; i++) {
        if (strcmp(fields[i], VIPS_META_ICC_NAME) != 0) vips_image_remove(*out, fields[i]);
    }
    g_strfreev(fields);
    return 0;
}

int vgn_profile_load(const char *name, void **data, size_t *length) {
    VipsBlob *blob = NULL;
    if (vips_profile_load(name, &blob, NULL) != 0) return -1;
    if (blob == NULL) {
        vips_error("vgn_profile_load", "no profile named %s", name);
        return -1;
    }
    size_t size = 0;
    const void *bytes = vips_blob_get(blob, &size);
    *data = g_memdup2(bytes, size);
    *length = size;
    vips_area_unref(VIPS_AREA(blob));
    return 0;
}

int vgn_flatten(VipsImage *in, VipsImage **out, double r, double g, double b) {
    double background[3] = {r, g, b};
    VipsArrayDouble *array = vips_array_double_new(background, 3);
    int result = vips_flatten(in, out, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

int vgn_find_trim(VipsImage *in, int *left, int *top, int *width, int *height, double threshold, const double *background, int count) {
    VipsArrayDouble *array = vips_array_double_new(background, count);
    int result = vips_find_trim(in, left, top, width, height, "threshold", threshold, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

int vgn_premultiply(VipsImage *in, VipsImage **out) { return vips_premultiply(in, out, NULL); }

int vgn_unpremultiply(VipsImage *in, VipsImage **out) { return vips_unpremultiply(in, out, NULL); }

int vgn_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

int vgn_cast(VipsImage *in, VipsImage **out, int format) {
    return vips_cast(in, out, (VipsBandFormat)format, NULL);
}

int vgn_extract_bands(VipsImage *in, VipsImage **out, int first, int count) {
    return vips_extract_band(in, out, first, "n", count, NULL);
}

int vgn_bandjoin2(VipsImage *in, VipsImage *extra, VipsImage **out) {
    return vips_bandjoin2(in, extra, out, NULL);
}

int vgn_multiply_alpha(VipsImage *left, VipsImage *right, VipsImage **out) {
    VipsImage *product = NULL, *scaled = NULL;
    if (vips_multiply(left, right, &product, NULL) != 0) return -1;
    int result = vips_linear1(product, &scaled, 1.0 / 255.0, 0.0, NULL);
    g_object_unref(product);
    if (result != 0) return -1;
    result = vips_cast(scaled, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(scaled);
    return result;
}

int vgn_composite_over(VipsImage *base, VipsImage *overlay, VipsImage **out, int x, int y) {
    return vips_composite2(base, overlay, out, VIPS_BLEND_MODE_OVER, "x", x, "y", y, NULL);
}

int vgn_copy_with_orientation(VipsImage *in, VipsImage **out, int orientation) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
    return 0;
}

int vgn_thumbnail_source(VipsSource *source, VipsImage **out, int width, int height, int size,
                         int crop, int no_rotate, const char *load_options) {
    return vips_thumbnail_source(source, out, width, "height", height, "size", (VipsSize)size,
                                 "crop", (VipsInteresting)crop, "no_rotate", no_rotate,
                                 "option_string", load_options ? load_options : "", NULL);
}

// libvips 8.15 replaced the savers' boolean `strip` by `keep`, the metadata to write; `strip` is a
// deprecated alias there. Each saver is given the option its libvips has (VGN_KEEP_*, in the
// header). `keep` must name the profile alone where only it stays: keeping all would let 8.15's
// savers write an EXIF block made up from the image's resolution.
#if VIPS_MAJOR_VERSION > 8 || (VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION >= 15)
#define VGN_STRIP_OPTION(strip) \
    "keep", (strip) == VGN_KEEP_ALL ? VIPS_FOREIGN_KEEP_ALL : (strip) == VGN_KEEP_PROFILE ? VIPS_FOREIGN_KEEP_ICC : VIPS_FOREIGN_KEEP_NONE
#else
#define VGN_STRIP_OPTION(strip) "strip", (strip) == VGN_KEEP_NONE
#endif

int vgn_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality, int interlace,
                 int strip, int optimize_coding) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "interlace", interlace,
                                VGN_STRIP_OPTION(strip), "optimize_coding", optimize_coding, NULL);
}

int vgn_pngsave(VipsImage *in, void **buffer, size_t *length, int compression, int interlace,
                int strip) {
    return vips_pngsave_buffer(in, buffer, length, "compression", compression,
                               "interlace", interlace, VGN_STRIP_OPTION(strip), NULL);
}

int vgn_jxlsave(VipsImage *in, void **buffer, size_t *length, int quality, int effort, int lossless,
                int strip) {
    return vips_jxlsave_buffer(in, buffer, length, "Q", quality, "effort", effort, "lossless", lossless,
                               VGN_STRIP_OPTION(strip), NULL);
}

int vgn_tiffsave(VipsImage *in, void **buffer, size_t *length, int compression, int quality, int strip) {
    VipsForeignTiffCompression kind = (VipsForeignTiffCompression)compression;
    VipsForeignTiffPredictor predictor = kind == VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE || kind == VIPS_FOREIGN_TIFF_COMPRESSION_LZW
                                             ? VIPS_FOREIGN_TIFF_PREDICTOR_HORIZONTAL
                                             : VIPS_FOREIGN_TIFF_PREDICTOR_NONE;
    return vips_tiffsave_buffer(in, buffer, length, "compression", kind, "Q", quality, "predictor", predictor,
                                VGN_STRIP_OPTION(strip), NULL);
}

int vgn_join_frames(VipsImage **frames, int count, VipsImage **out) {
    return vips_arrayjoin(frames, out, count, "across", 1, NULL);
}

int vgn_copy_with_animation(VipsImage *in, VipsImage **out, int page_height, const int *delays,
                            int count, int loop) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    vips_image_set_int(*out, VIPS_META_PAGE_HEIGHT, page_height);
    vips_image_set_int(*out, VIPS_META_N_PAGES, count);
    vips_image_set_array_int(*out, "delay", delays, count);
    vips_image_set_int(*out, "loop", loop);
    return 0;
}

int vgn_gifsave(VipsImage *in, void **buffer, size_t *length, int effort, int bitdepth,
                double dither, int strip) {
    return vips_gifsave_buffer(in, buffer, length, "effort", effort, "bitdepth", bitdepth,
                               "dither", dither, VGN_STRIP_OPTION(strip), NULL);
}

typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} vgn_growable;

static struct heif_error vgn_heif_append(struct heif_context *context, const void *data,
                                         size_t size, void *userdata) {
    (void)context;
    vgn_growable *out = (vgn_growable *)userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    if (out->length + size > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->length + size) capacity *= 2;
        unsigned char *grown = realloc(out->data, capacity);
        if (!grown) {
            struct heif_error failed = {heif_error_Encoding_error, heif_suberror_Unspecified,
                                        "out of memory while writing HEIF output"};
            return failed;
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, data, size);
    out->length += size;
    return ok;
}

struct heif_error vgn_heif_write_to_memory(struct heif_context *context, void **buffer, size_t *length) {
    vgn_growable out = {NULL, 0, 0};
    struct heif_writer writer;
    writer.writer_api_version = 1;
    writer.write = vgn_heif_append;
    struct heif_error error = heif_context_write(context, &writer, &out);
    if (error.code != heif_error_Ok) {
        free(out.data);
        *buffer = NULL;
        *length = 0;
        return error;
    }
    *buffer = out.data;
    *length = out.length;
    return error;
}

void vgn_atomic_set(int *value) { __atomic_store_n(value, 1, __ATOMIC_RELEASE); }

int vgn_atomic_get(const int *value) { return __atomic_load_n(value, __ATOMIC_ACQUIRE); }

void vgn_atomic_store(int *value, int new_value) { __atomic_store_n(value, new_value, __ATOMIC_RELEASE); }

int vgn_monotonic_seconds(void) { return (int)(g_get_monotonic_time() / G_USEC_PER_SEC); }

static void vgn_cancel_on_eval(VipsImage *image, VipsProgress *progress, void *user) {
    (void)progress;
    int *flag = (int *)user;
    if (!vgn_atomic_get(&flag[2])) vgn_atomic_set(&flag[2]);
    if (vgn_atomic_get(&flag[0])) {
        vips_image_set_kill(image, TRUE);
        vgn_atomic_set(&flag[1]);
    }
    // A deadline (seconds of the monotonic clock, 0 for none) stops the computation the same way.
    int deadline = vgn_atomic_get(&flag[3]);
    if (deadline && g_get_monotonic_time() / G_USEC_PER_SEC >= deadline && !vgn_atomic_get(&flag[4])) {
        vips_image_set_kill(image, TRUE);
        vgn_atomic_set(&flag[4]);
    }
}

unsigned long vgn_cancel_watch(VipsImage *image, int *flag) {
    vips_image_set_progress(image, TRUE);
    return g_signal_connect(image, "eval", G_CALLBACK(vgn_cancel_on_eval), flag);
}

void vgn_cancel_unwatch(VipsImage *image, unsigned long handler) {
    g_signal_handler_disconnect(image, handler);
    // Images made from `image` from now on would copy its progress_signal (itself, unreferenced)
    // and could outlive it.
    vips_image_set_progress(image, FALSE);
}

int vgn_sharpen(VipsImage *in, VipsImage **out, double sigma) {
    return vips_sharpen(in, out, "sigma", sigma, NULL);
}

int vgn_rot(VipsImage *in, VipsImage **out, int quarter_turns) {
    VipsAngle angle = quarter_turns == 1 ? VIPS_ANGLE_D90 : quarter_turns == 2 ? VIPS_ANGLE_D180
        : quarter_turns == 3 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return vips_rot(in, out, angle, NULL);
}

int vgn_rotate_angle(VipsImage *in, VipsImage **out, double angle, const double *background, int count) {
    VipsArrayDouble *array = vips_array_double_new(background, count);
    int result = vips_rotate(in, out, angle, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

int vgn_flip(VipsImage *in, VipsImage **out, int horizontal) {
    return vips_flip(in, out, horizontal ? VIPS_DIRECTION_HORIZONTAL : VIPS_DIRECTION_VERTICAL, NULL);
}

int vgn_gravity(VipsImage *in, VipsImage **out, int direction, int width, int height, const double *background, int count) {
    VipsArrayDouble *array = vips_array_double_new(background, count);
    int result = vips_gravity(in, out, (VipsCompassDirection)direction, width, height,
                              "extend", VIPS_EXTEND_BACKGROUND, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

/* glibc's mallopt(M_ARENA_MAX): the macro and the call are in <malloc.h>, which Swift's Glibc module
   does not export. */
int vgn_set_malloc_arena_max(int count) {
    return mallopt(M_ARENA_MAX, count);
}

int vgn_keep_freed_memory(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1 ? 1 : 0;
}

static void vgn_unref_on_close(VipsImage *image, void *held) {
    (void)image;
    g_object_unref(held);
}

int vgn_copy_with_double(VipsImage *in, VipsImage **out, const char *name, double value) {
    if (in->dtype == VIPS_IMAGE_SETBUF || in->dtype == VIPS_IMAGE_SETBUF_FOREIGN) {
        // A view of the pixels in memory (vips_image_new_from_memory), holding `in` until it
        // closes, with `in`'s header: still a memory image, which an encoder reads as it is
        // instead of through a libvips pipeline, as a vips_copy would make it.
        VipsImage *view = vips_image_new_from_memory(in->data, VIPS_IMAGE_SIZEOF_IMAGE(in), in->Xsize, in->Ysize,
                                                     in->Bands, in->BandFmt);
        if (view == NULL) return -1;
        VipsImage *inputs[] = {in, NULL};
        if (vips_image_pipeline_array(view, VIPS_DEMAND_STYLE_ANY, inputs) != 0) {
            g_object_unref(view);
            return -1;
        }
        g_object_ref(in);
        g_signal_connect(view, "close", G_CALLBACK(vgn_unref_on_close), in);
        vips_image_set_double(view, name, value);
        *out = view;
        return 0;
    }
    if (vips_copy(in, out, NULL) != 0) return -1;
    vips_image_set_double(*out, name, value);
    return 0;
}
