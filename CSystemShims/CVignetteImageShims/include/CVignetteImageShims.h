// CVignetteImageShims: the few C helpers Swift cannot express directly.
//
// Every function here exists for one of three reasons, stated beside it:
//  - it wraps a variadic libvips call (Swift cannot call C variadic functions),
//  - it stands in for a C macro (VIPS_INIT, G_OBJECT casts),
//  - it is a C callback that must outlive a Swift closure (the libheif writer).
// All symbols are prefixed `vgn_`. Functions returning int follow libvips: 0 is success, -1 failure
// with the reason in libvips' error buffer.
#ifndef VGN_CIMAGESHIMS_H
#define VGN_CIMAGESHIMS_H

#include <stddef.h>
#include <vips/vips.h>
#include <libheif/heif.h>

// --- runtime (macros) ---
/// VIPS_INIT is a macro; also blocks untrusted loaders and turns the operation cache off.
/// With `redirect_modules`, libvips is pointed at a folder without modules (VIPSHOME, set around
/// VIPS_INIT and put back after), so only the trusted ones are opened, on demand: that writes the
/// environment, so only a caller that knows no other thread runs (the start of main) may ask.
int vgn_init(const char *argv0, int redirect_modules);
/// Opens libvips' dynamic module `name` ("heif", "jxl") once, thread-safely; 1 when the module is
/// loaded (by this call or an earlier one), 0 when it is not available or libvips loaded its own.
int vgn_open_module(const char *name);
/// vips_operation_block_set(FALSE) on libvips' JPEG XL loaders and savers: libvips 8.14 flags them
/// untrusted ("libjxl is relatively young", a 2022 note in jxlload.c), so vips_block_untrusted_set
/// blocks them with ImageMagick's, while Vignette reads and writes JPEG XL through them (libjxl is
/// the reference implementation and OSS-Fuzz fuzzes it; only bytes with a JXL signature reach it).
/// A no-op until the jxl module is loaded; vgn_init and vgn_open_module call it.
void vgn_allow_jxl(void);
/// vips_operation_block_set(FALSE) on libvips' PDF source loader alone (pdfload_source, poppler),
/// once the poppler module is loaded; the file and buffer loaders stay blocked. The SVG source
/// loader is unblocked by vgn_init the same way. Vignette decides before either sees bytes:
/// SVG is sanitised first (SVGSanitizer), PDF is an opt-in (DecodingLimits.allowedInputs).
void vgn_allow_pdf(void);

/* mallopt(M_ARENA_MAX, count): 1 on success (glibc). */
int vgn_set_malloc_arena_max(int count);

/* mallopt(M_MMAP_THRESHOLD) and mallopt(M_TRIM_THRESHOLD), in bytes: 1 when both were set. */
int vgn_keep_freed_memory(int mmap_threshold, int trim_threshold);

/// g_object_unref on any libvips object (VipsImage, VipsSource, VipsBlob).
void vgn_unref(void *object);
/// g_free for strings and buffers that libvips allocated.
void vgn_free(void *memory);
/// vips_error_buffer_copy(): takes and clears libvips' (global) error buffer. Caller frees.
char *vgn_error_take(void);
/// Copies and clears the last libvips warning logged on the calling thread (GLib log handler).
size_t vgn_last_warning_take(char *buffer, size_t capacity);

/// Names the calling thread (at most 15 bytes are kept), as profilers and `top -H` show it.
void vgn_name_thread(const char *name);

// --- loading (the buffer-copying loader) ---
/// Copies `data` into a VipsBlob and wraps it in a VipsSource, so the bytes live as long as any
/// image made from the source: libvips' buffer loaders do not copy.
VipsSource *vgn_source_new_copying(const void *data, size_t length);

/// How many VipsSource objects are alive in the process (vips_object_map over libvips' table of
/// every object): VIPS_IS_SOURCE is a macro. A seam for tests that refused input leaves none.
int vgn_live_source_count(void);
/// vips_image_new_from_source is variadic. `options` is a libvips option string such as
/// "access=sequential,fail_on=error,shrink=2".
VipsImage *vgn_image_new_from_source(VipsSource *source, const char *options);
/// Reads a blob-typed header field (e.g. "jpeg-thumbnail-data", "icc-profile-data"); 0 if absent.
int vgn_image_get_blob(VipsImage *image, const char *name, const void **data, size_t *length);

// --- operations (variadic libvips calls) ---
int vgn_resize(VipsImage *in, VipsImage **out, double hscale, double vscale, int kernel);
int vgn_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
int vgn_smartcrop(VipsImage *in, VipsImage **out, int width, int height, int interesting);
int vgn_autorot(VipsImage *in, VipsImage **out);
int vgn_gaussblur(VipsImage *in, VipsImage **out, double sigma);
int vgn_colourspace(VipsImage *in, VipsImage **out, int interpretation);
/// vips_icc_transform to sRGB using the embedded profile, or the built-in `fallback` profile
/// ("cmyk", "srgb") when the image has none.
int vgn_icc_to_srgb(VipsImage *in, VipsImage **out, const char *fallback);
/// vips_copy with the ICC profile `data` (`length` bytes, copied) set as "icc-profile-data": header
/// fields may only be set on an image no one else holds.
int vgn_copy_with_profile(VipsImage *in, VipsImage **out, const void *data, size_t length);
/// vips_image_copy_memory, then, on a new copy, its ICC profile copied into memory the copy owns:
/// libvips 8.14's heifload attaches the profile in memory that belongs to the loader's image
/// (freed with it, while the copy would still point at it).
VipsImage *vgn_image_copy_memory(VipsImage *in);
/// vips_copy without "icc-profile-data" (vips_image_remove): for pixels whose profile no longer applies.
int vgn_copy_without_profile(VipsImage *in, VipsImage **out);
/// vips_copy with every metadata field removed but "icc-profile-data" (vips_image_get_fields, then
/// vips_image_remove): libvips 8.14's savers either strip everything, the profile included, or
/// write everything they find.
int vgn_copy_keeping_only_profile(VipsImage *in, VipsImage **out);
/// vips_profile_load (variadic) of a libvips built-in profile ("srgb", "cmyk", "p3"): a g_malloc'd
/// copy of its bytes in `*data` (free with vgn_free), 0 on success.
int vgn_profile_load(const char *name, void **data, size_t *length);
int vgn_flatten(VipsImage *in, VipsImage **out, double r, double g, double b);
// vips_find_trim is variadic (threshold, background): the box of what differs from the background.
int vgn_find_trim(VipsImage *in, int *left, int *top, int *width, int *height, double threshold, const double *background, int count);
/// vips_sharpen with `sigma` (its other parameters at libvips' defaults).
int vgn_sharpen(VipsImage *in, VipsImage **out, double sigma);
/// vips_rot by 0–3 quarter turns clockwise.
int vgn_rot(VipsImage *in, VipsImage **out, int quarter_turns);
// vips_rotate is variadic (background): a turn by any angle (clockwise on screen for a positive
// angle), the canvas grown to the rotated bounding box, the corners filled with `background`.
int vgn_rotate_angle(VipsImage *in, VipsImage **out, double angle, const double *background, int count);
/// vips_flip: left-right when `horizontal`, else top-bottom.
int vgn_flip(VipsImage *in, VipsImage **out, int horizontal);
/// vips_gravity: `in` placed in a width × height canvas at the compass `direction`
/// (VipsCompassDirection), the rest filled with `background` (`count` values, one per band).
int vgn_gravity(VipsImage *in, VipsImage **out, int direction, int width, int height, const double *background, int count);
int vgn_premultiply(VipsImage *in, VipsImage **out);
int vgn_unpremultiply(VipsImage *in, VipsImage **out);
int vgn_cast_uchar(VipsImage *in, VipsImage **out);
/// vips_cast to a VipsBandFormat.
int vgn_cast(VipsImage *in, VipsImage **out, int format);
int vgn_extract_bands(VipsImage *in, VipsImage **out, int first, int count);
/// vips_copy, then sets the EXIF "orientation" field (1-8) on the copy, for vips_autorot to apply.
/// vips_bandjoin2: `in` with `extra`'s bands appended (e.g. an alpha mask).
int vgn_bandjoin2(VipsImage *in, VipsImage *extra, VipsImage **out);
/// Two 8-bit alpha bands multiplied (vips_multiply), scaled back by 1/255 (vips_linear1), as 8 bits.
int vgn_multiply_alpha(VipsImage *left, VipsImage *right, VipsImage **out);
/// vips_composite2 with VIPS_BLEND_MODE_OVER, `overlay` placed at (x, y) on `base`.
int vgn_composite_over(VipsImage *base, VipsImage *overlay, VipsImage **out, int x, int y);
int vgn_copy_with_orientation(VipsImage *in, VipsImage **out, int orientation);
/// vips_thumbnail_source. `size`: VipsSize. `crop`: VipsInteresting (0 = none).
int vgn_thumbnail_source(VipsSource *source, VipsImage **out, int width, int height, int size,
                         int crop, int no_rotate, const char *load_options);

// --- saving (variadic libvips savers) ---
// Each saver's `strip` says which metadata it writes: VGN_KEEP_ALL (0), VGN_KEEP_NONE (1) or
// VGN_KEEP_PROFILE (2, the ICC profile alone). From libvips 8.15 on that is the savers' `keep`
// option; before, `strip` (VGN_KEEP_PROFILE then expects an image holding nothing but the
// profile, vgn_copy_keeping_only_profile).
enum { VGN_KEEP_ALL = 0, VGN_KEEP_NONE = 1, VGN_KEEP_PROFILE = 2 };
int vgn_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality, int interlace,
                 int strip, int optimize_coding);
int vgn_pngsave(VipsImage *in, void **buffer, size_t *length, int compression, int interlace,
                int strip);
/// vips_jxlsave_buffer (libjxl): `quality` 1-100 (libvips maps it to a butteraugli distance),
/// `effort` 3-9, `lossless`; `strip` as above.
int vgn_jxlsave(VipsImage *in, void **buffer, size_t *length, int quality, int effort, int lossless,
                int strip);
/// vips_tiffsave_buffer (libtiff): `compression` a VipsForeignTiffCompression, `quality` for JPEG
/// compression, the horizontal predictor for deflate and LZW; `strip` as above.
int vgn_tiffsave(VipsImage *in, void **buffer, size_t *length, int compression, int quality, int strip);

// --- animation (variadic libvips calls and metadata set on a fresh copy) ---
/// vips_arrayjoin of `count` images one above the other (`across` = 1): the frames of an animation
/// joined into libvips' tall-strip layout.
int vgn_join_frames(VipsImage **frames, int count, VipsImage **out);
/// vips_copy, then "page-height", "n-pages", "delay" (`count` ints, ms) and "loop" set on the copy:
/// metadata may only be set on an image no one else holds.
int vgn_copy_with_animation(VipsImage *in, VipsImage **out, int page_height, const int *delays,
                            int count, int loop);
/// vips_gifsave_buffer (cgif): `effort` 1-10, `bitdepth` 1-8, `dither` 0-1; `strip` as above.
int vgn_gifsave(VipsImage *in, void **buffer, size_t *length, int effort, int bitdepth,
                double dither, int strip);

// --- cancellation (a C callback on libvips' "eval" signal) ---
/// `flag` is five ints Swift owns: [0] set (atomically) to ask for a stop, [1] set here once libvips
/// was told to stop, [2] set here at the first "eval" (the computation has begun), [3] a deadline
/// in seconds of the monotonic clock (vgn_monotonic_seconds; 0 for none), [4] set here once the
/// deadline stopped the computation. Turns progress signals on for `image` and connects an "eval" handler that sets
/// libvips' kill flag (vips_image_set_kill) on it once flag[0] is set, so the computation stops at
/// its next tile. Returns the handler id for vgn_cancel_unwatch.
unsigned long vgn_cancel_watch(VipsImage *image, int *flag);
void vgn_cancel_unwatch(VipsImage *image, unsigned long handler);
/// Atomic store and load of one of those ints.
void vgn_atomic_set(int *value);
int vgn_atomic_get(const int *value);
void vgn_atomic_store(int *value, int new_value);
/// g_get_monotonic_time() in whole seconds.
int vgn_monotonic_seconds(void);

// --- libheif (a C callback) ---
/// heif_context_write with a writer that collects the output into one malloc'd buffer.
/// On success `*buffer` must be released with free().
struct heif_error vgn_heif_write_to_memory(struct heif_context *context, void **buffer, size_t *length);

/// A copy of `in` (the pixels shared, a header of its own) with the double field `name` set to
/// `value`: a thumbnail's record of the scale steps after it use (`Image.dprScale`). An image in
/// memory stays one (a view of its pixels that holds it); any other is a vips_copy.
int vgn_copy_with_double(VipsImage *in, VipsImage **out, const char *name, double value);

#endif
