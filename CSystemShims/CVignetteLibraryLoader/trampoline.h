// Libraries opened when first needed rather than at process start: each function a caller uses is
// defined here as a trampoline, an assembly stub of the function's own name that jumps through the
// pointer vgn_lazy_<name>, which the library's loader fills with dlsym once it has opened the
// library. The stubs take any signature (they only jump), so callers, Swift included, call the
// functions as their headers declare them. They are hidden: the executable does not export them,
// so a library opened later (libvips' heif module links libheif) binds to the real functions.
#ifndef VGN_TRAMPOLINE_H
#define VGN_TRAMPOLINE_H

#include <pthread.h>
#include <stddef.h>

#define VGN_LAZY_POINTER(name) __attribute__((used, visibility("hidden"))) void *vgn_lazy_##name;

#if defined(__x86_64__)
#define VGN_LAZY_TRAMPOLINE(name) \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ",@function\n" #name ":\n" \
            "    jmp *vgn_lazy_" #name "(%rip)\n.size " #name ",.-" #name "\n");
#elif defined(__aarch64__)
#define VGN_LAZY_TRAMPOLINE(name) \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ",%function\n" #name ":\n" \
            "    adrp x16, vgn_lazy_" #name "\n    ldr x16, [x16, :lo12:vgn_lazy_" #name "]\n    br x16\n" \
            ".size " #name ",.-" #name "\n");
#else
#error "the trampolines are written for x86-64 and AArch64"
#endif

/// Opens the `count` libraries `sonames` into `handles` (dlopen, RTLD_NOW | RTLD_LOCAL, kept for
/// the life of the process: nothing else sees their symbols). 0 on success; -1 with "<what> could
/// not be loaded (<dlerror>)" in `problem` when one is missing.
int vgn_lazy_open(const char *const *sonames, void **handles, int count, const char *what, char *problem, size_t size);

/// Runs `load` once per process (pthread_once on `once`), which leaves `problem` empty when the
/// library and every function were found; 0 then, else -1 with `problem` copied into `message`
/// (NUL-terminated, at most `size` bytes).
int vgn_lazy_load(pthread_once_t *once, void (*load)(void), const char *problem, char *message, size_t size);

/// Looks `name` up in `handle` into `*pointer`. 0 on success; -1 with "<what>'s <soname> has no
/// <name>" in `problem`.
int vgn_lazy_find(void *handle, const char *soname, const char *name, void **pointer, const char *what, char *problem,
                  size_t size);

#endif
