// littleCMS 2 (Debian's liblcms2-dev, which libvips itself uses): the ICC conversion of small 8-bit
// RGB and CMYK images to sRGB with a transform built once per profile (Sources/VignetteCodecs/Image/
// SRGBTransforms.swift). lcms reports errors through return values (NULL, FALSE); no longjmp.
#include <lcms2.h>

// The pixel formats as values: Swift does not import lcms2.h's function-like format macros.
static inline cmsUInt32Number vgn_lcms_rgb8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number vgn_lcms_rgba8(void) { return TYPE_RGBA_8; }
static inline cmsUInt32Number vgn_lcms_cmyk8(void) { return TYPE_CMYK_8; }
static inline cmsUInt32Number vgn_lcms_cmyk16(void) { return TYPE_CMYK_16; }
static inline cmsUInt32Number vgn_lcms_rgb16(void) { return TYPE_RGB_16; }
