// FFmpeg's libraries opened when the first video arrives (vgn_ffmpeg_load), not at process start.
// Built only with the Video trait (VGN_VIDEO), which brings FFmpeg's headers.
#ifdef VGN_VIDEO
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libswscale/version.h>

#include "vgn_library_loader.h"
#include "ffmpeg_functions.h"
#include "trampoline.h"

#include <pthread.h>
#include <stdio.h>

#define VGN_STRING(x) #x
#define VGN_SONAME(name, major) "lib" name ".so." VGN_STRING(major)

enum { AVUTIL, SWSCALE, AVCODEC, AVFORMAT, LIBRARY_COUNT };
static const char *const sonames[LIBRARY_COUNT] = {
    VGN_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR), VGN_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR),
    VGN_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR), VGN_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
};

#define VGN_FFMPEG_POINTER(library, name) VGN_LAZY_POINTER(name)
VGN_FFMPEG_FUNCTIONS(VGN_FFMPEG_POINTER)
#define VGN_FFMPEG_TRAMPOLINE(library, name) VGN_LAZY_TRAMPOLINE(name)
VGN_FFMPEG_FUNCTIONS(VGN_FFMPEG_TRAMPOLINE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char problem[512];

static void load(void) {
    void *handles[LIBRARY_COUNT] = {0};
    if (vgn_lazy_open(sonames, handles, LIBRARY_COUNT, "FFmpeg", problem, sizeof problem) != 0) return;
#define VGN_FFMPEG_FIND(library, name) \
    if (vgn_lazy_find(handles[library], sonames[library], #name, &vgn_lazy_##name, "FFmpeg", problem, sizeof problem) != 0) return;
    VGN_FFMPEG_FUNCTIONS(VGN_FFMPEG_FIND)
}

int vgn_ffmpeg_load(char *message, size_t size) { return vgn_lazy_load(&once, load, problem, message, size); }
#endif
