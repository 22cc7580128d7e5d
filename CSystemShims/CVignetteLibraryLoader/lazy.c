// The dlopen and dlsym calls of the loaders (trampoline.h), with their messages.
#include "trampoline.h"

#include <dlfcn.h>
#include <stdio.h>

int vgn_lazy_open(const char *const *sonames, void **handles, int count, const char *what, char *problem, size_t size) {
    for (int index = 0; index < count; index++) {
        handles[index] = dlopen(sonames[index], RTLD_NOW | RTLD_LOCAL);
        if (handles[index] == NULL) {
            const char *reason = dlerror();
            snprintf(problem, size, "%s could not be loaded (%s)", what, reason ? reason : sonames[index]);
            return -1;
        }
    }
    return 0;
}

int vgn_lazy_find(void *handle, const char *soname, const char *name, void **pointer, const char *what, char *problem,
                  size_t size) {
    *pointer = dlsym(handle, name);
    if (*pointer != NULL) return 0;
    snprintf(problem, size, "%s's %s has no %s", what, soname, name);
    return -1;
}

int vgn_lazy_load(pthread_once_t *once, void (*load)(void), const char *problem, char *message, size_t size) {
    pthread_once(once, load);
    if (problem[0] == 0) return 0;
    if (message != NULL && size > 0) snprintf(message, size, "%s", problem);
    return -1;
}
