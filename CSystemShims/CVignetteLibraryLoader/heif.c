// libheif opened when the first HEIF or AVIF is read or written (vgn_heif_load), not at process
// start: Debian's libheif links libde265, x265, aom and dav1d, and libde265 builds its tables as it
// loads, which every process paid for before.
#include "vgn_library_loader.h"
#include "heif_functions.h"
#include "trampoline.h"

#include <pthread.h>
#include <stdio.h>

#include <libheif/heif_version.h>

#define VGN_HEIF_POINTER(name) VGN_LAZY_POINTER(name)
VGN_HEIF_FUNCTIONS(VGN_HEIF_POINTER)
#define VGN_HEIF_TRAMPOLINE(name) VGN_LAZY_TRAMPOLINE(name)
VGN_HEIF_FUNCTIONS(VGN_HEIF_TRAMPOLINE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char problem[512];

static void load(void) {
    // The soname of the headers' major version.
    char soname[32];
    snprintf(soname, sizeof soname, "libheif.so.%d", (int)(LIBHEIF_NUMERIC_VERSION >> 24));
    const char *const sonames[] = {soname};
    void *handle = NULL;
    if (vgn_lazy_open(sonames, &handle, 1, "libheif", problem, sizeof problem) != 0) return;
#define VGN_HEIF_FIND(name) \
    if (vgn_lazy_find(handle, soname, #name, &vgn_lazy_##name, "libheif", problem, sizeof problem) != 0) return;
    VGN_HEIF_FUNCTIONS(VGN_HEIF_FIND)
}

int vgn_heif_load(char *message, size_t size) { return vgn_lazy_load(&once, load, problem, message, size); }
