// The FFmpeg functions as trampolines: each name in functions.h is defined here as a jump through
// a pointer that vgn_ffmpeg_load fills from the libraries it opens with dlopen. The trampolines
// take any signature (they only jump), so the callers, Swift included, call FFmpeg as declared.
#include "vgn_ffmpeg_loader.h"
#include "functions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libswscale/version.h>

#define VGN_STRING(x) #x
#define VGN_SONAME(name, major) "lib" name ".so." VGN_STRING(major)

enum { AVUTIL, SWSCALE, AVCODEC, AVFORMAT, LIBRARY_COUNT };
static const char *const sonames[LIBRARY_COUNT] = {
    VGN_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR), VGN_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR),
    VGN_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR), VGN_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
};

// One pointer per function, and its trampoline.
#define VGN_POINTER(library, name) __attribute__((used, visibility("hidden"))) void *vgn_ffmpeg_##name;
VGN_FFMPEG_FUNCTIONS(VGN_POINTER)

#if defined(__x86_64__)
#define VGN_TRAMPOLINE(library, name) \
    __asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name ":\n" \
            "    jmp *vgn_ffmpeg_" #name "(%rip)\n.size " #name ",.-" #name "\n");
#elif defined(__aarch64__)
#define VGN_TRAMPOLINE(library, name) \
    __asm__(".text\n.globl " #name "\n.type " #name ",%function\n" #name ":\n" \
            "    adrp x16, vgn_ffmpeg_" #name "\n    ldr x16, [x16, :lo12:vgn_ffmpeg_" #name "]\n    br x16\n" \
            ".size " #name ",.-" #name "\n");
#else
#error "FFmpeg trampolines are written for x86-64 and AArch64"
#endif
VGN_FFMPEG_FUNCTIONS(VGN_TRAMPOLINE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char problem[512];

static void load(void) {
    void *handles[LIBRARY_COUNT] = {0};
    for (int index = 0; index < LIBRARY_COUNT; index++) {
        // Kept for the life of the process; RTLD_LOCAL: nothing else sees their symbols.
        handles[index] = dlopen(sonames[index], RTLD_NOW | RTLD_LOCAL);
        if (handles[index] == NULL) {
            const char *reason = dlerror();
            snprintf(problem, sizeof problem, "FFmpeg could not be loaded (%s)", reason ? reason : sonames[index]);
            return;
        }
    }
#define VGN_LOOK_UP(library, name)                                                                          \
    vgn_ffmpeg_##name = dlsym(handles[library], #name);                                                     \
    if (vgn_ffmpeg_##name == NULL) {                                                                        \
        snprintf(problem, sizeof problem, "FFmpeg's %s has no %s", sonames[library], #name);                \
        return;                                                                                             \
    }
    VGN_FFMPEG_FUNCTIONS(VGN_LOOK_UP)
}

int vgn_ffmpeg_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (problem[0] == 0) return 0;
    if (message != NULL && size > 0) snprintf(message, size, "%s", problem);
    return -1;
}
