// What the C check programs share (Tests/CChecks, run by Scripts/check-arm64.sh natively and for
// arm64 under qemu-user): reading files, listing a folder's JPEGs, a seeded random generator, and
// the exit statuses. Each program prints what it compared and its counts, and exits 0 when
// nothing differed, 1 on any difference, 77 when what it needs is missing.
#ifndef VGN_CHECK_H
#define VGN_CHECK_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VGN_CHECK_SKIPPED 77

/// The whole file `path` in a malloc'd buffer (`*size` bytes), or NULL.
static inline uint8_t *vgn_check_read(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    uint8_t *data = NULL;
    long length = -1;
    if (fseek(f, 0, SEEK_END) == 0) length = ftell(f);
    if (length >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)length + 1);
        if (data != NULL && fread(data, 1, (size_t)length, f) != (size_t)length) {
            free(data);
            data = NULL;
        }
    }
    fclose(f);
    *size = (size_t)(length < 0 ? 0 : length);
    return data;
}

static int vgn_check_compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/// The paths of the files in `folder` whose names end in `suffix`, sorted; `*count` of them
/// (0 and NULL when the folder cannot be read). Free each and the array.
static inline char **vgn_check_list(const char *folder, const char *suffix, int *count) {
    *count = 0;
    DIR *dir = opendir(folder);
    if (dir == NULL) return NULL;
    char **paths = NULL;
    int capacity = 0;
    struct dirent *entry;
    size_t suffix_length = strlen(suffix);
    while ((entry = readdir(dir)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length <= suffix_length || strcmp(entry->d_name + length - suffix_length, suffix) != 0) continue;
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            char **grown = realloc(paths, (size_t)capacity * sizeof *paths);
            if (grown == NULL) break;
            paths = grown;
        }
        size_t size = strlen(folder) + length + 2;
        paths[*count] = malloc(size);
        if (paths[*count] == NULL) break;
        snprintf(paths[*count], size, "%s/%s", folder, entry->d_name);
        (*count)++;
    }
    closedir(dir);
    if (*count > 1) qsort(paths, (size_t)*count, sizeof *paths, vgn_check_compare_names);
    return paths;
}

/// A 64-bit generator (splitmix64): the same sequence on every machine for a seed.
static inline uint64_t vgn_check_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/// A number in [low, high].
static inline int vgn_check_between(uint64_t *state, int low, int high) {
    return low + (int)(vgn_check_random(state) % (uint64_t)(high - low + 1));
}

/// The file's name without its folder.
static inline const char *vgn_check_base(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

#endif
