// CVignetteMetrics' SSIMULACRA 2.1 from the command line, for Scripts/check-ssimulacra2.sh and
// Benchmarks/ssimulacra2.sh: reads 8-bit PAM files (P7: GRAYSCALE, GRAYSCALE_ALPHA, RGB, RGB_ALPHA)
// or PPM/PGM (P6/P5), prepares the first as the reference once and prints each candidate's score.
//
//   cc -O2 -std=c11 -I CSystemShims/CVignetteMetrics/include CSystemShims/CVignetteMetrics/*.c
//      Tests/CChecks/ssimulacra2_check.c -lm -lpthread -o ssimulacra2_check
//   ssimulacra2_check [--scalar|--avx2] [--time] REFERENCE CANDIDATE...
//
// --time prints, on stderr, the preparation's and each score's time in milliseconds (monotonic
// clock). Exits 1 when a file cannot be read or the metric refuses it.
#define _POSIX_C_SOURCE 200809L
#include "CVignetteMetrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int width, height, bands;
    uint8_t *pixels;
} ssimulacra2_check_image;

static double ssimulacra2_check_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/// The next header token (skipping blanks and # comments), into `word`.
static int ssimulacra2_check_word(FILE *file, char *word, size_t size) {
    int c;
    do {
        c = fgetc(file);
        if (c == '#') {
            while (c != '\n' && c != EOF) c = fgetc(file);
        }
    } while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
    size_t n = 0;
    while (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        if (n + 1 < size) word[n++] = (char)c;
        c = fgetc(file);
    }
    word[n] = 0;
    return n > 0 ? 0 : -1;
}

static int ssimulacra2_check_read(const char *path, ssimulacra2_check_image *image) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    char word[64];
    int maxval = 0, ok = -1;
    image->width = image->height = image->bands = 0;
    if (ssimulacra2_check_word(file, word, sizeof word) != 0) goto done;
    if (strcmp(word, "P7") == 0) {
        while (ssimulacra2_check_word(file, word, sizeof word) == 0 && strcmp(word, "ENDHDR") != 0) {
            char value[64];
            if (ssimulacra2_check_word(file, value, sizeof value) != 0) goto done;
            if (strcmp(word, "WIDTH") == 0) image->width = atoi(value);
            else if (strcmp(word, "HEIGHT") == 0) image->height = atoi(value);
            else if (strcmp(word, "DEPTH") == 0) image->bands = atoi(value);
            else if (strcmp(word, "MAXVAL") == 0) maxval = atoi(value);
        }
    } else if (strcmp(word, "P6") == 0 || strcmp(word, "P5") == 0) {
        image->bands = word[1] == '6' ? 3 : 1;
        char value[64];
        if (ssimulacra2_check_word(file, value, sizeof value) != 0) goto done;
        image->width = atoi(value);
        if (ssimulacra2_check_word(file, value, sizeof value) != 0) goto done;
        image->height = atoi(value);
        if (ssimulacra2_check_word(file, value, sizeof value) != 0) goto done;
        maxval = atoi(value);
    } else {
        goto done;
    }
    if (maxval != 255 || image->width <= 0 || image->height <= 0 || image->bands < 1 || image->bands > 4) goto done;
    const size_t size = (size_t)image->width * (size_t)image->height * (size_t)image->bands;
    image->pixels = malloc(size);
    if (image->pixels && fread(image->pixels, 1, size, file) == size) ok = 0;
done:
    fclose(file);
    return ok;
}

int main(int argc, char **argv) {
    int implementation = VGN_SSIMULACRA2_AUTOMATIC, timed = 0, first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
        if (strcmp(argv[first], "--scalar") == 0) implementation = VGN_SSIMULACRA2_SCALAR;
        else if (strcmp(argv[first], "--avx2") == 0) implementation = VGN_SSIMULACRA2_AVX2;
        else if (strcmp(argv[first], "--time") == 0) timed = 1;
        else break;
    }
    if (argc - first < 2) {
        fprintf(stderr, "usage: ssimulacra2_check [--scalar|--avx2] [--time] REFERENCE CANDIDATE...\n");
        return 2;
    }
    ssimulacra2_check_image reference = {0};
    if (ssimulacra2_check_read(argv[first], &reference) != 0) {
        fprintf(stderr, "ssimulacra2_check: %s: not an 8-bit PAM, PPM or PGM\n", argv[first]);
        free(reference.pixels);
        return 1;
    }
    vgn_ssimulacra2_reference *prepared = NULL;
    const double start = ssimulacra2_check_now();
    const int status = vgn_ssimulacra2_prepare(reference.pixels, reference.width, reference.height,
                                               (size_t)reference.width * (size_t)reference.bands, reference.bands,
                                               implementation, &prepared);
    if (status != VGN_SSIMULACRA2_OK) {
        fprintf(stderr, "ssimulacra2_check: %s: refused (%d)\n", argv[first], status);
        free(reference.pixels);
        return 1;
    }
    if (timed) fprintf(stderr, "prepare %.3f ms\n", ssimulacra2_check_now() - start);
    int failed = 0;
    for (int i = first + 1; i < argc; i++) {
        ssimulacra2_check_image candidate = {0};
        if (ssimulacra2_check_read(argv[i], &candidate) != 0) {
            fprintf(stderr, "ssimulacra2_check: %s: not an 8-bit PAM, PPM or PGM\n", argv[i]);
            free(candidate.pixels);
            failed = 1;
            continue;
        }
        double score = 0;
        const double begin = ssimulacra2_check_now();
        const int result = vgn_ssimulacra2_score(prepared, candidate.pixels, candidate.width, candidate.height,
                                                 (size_t)candidate.width * (size_t)candidate.bands, candidate.bands,
                                                 &score);
        const double took = ssimulacra2_check_now() - begin;
        if (result != VGN_SSIMULACRA2_OK) {
            fprintf(stderr, "ssimulacra2_check: %s: refused (%d)\n", argv[i], result);
            failed = 1;
        } else {
            printf("%.8f\n", score);
            if (timed) fprintf(stderr, "score %.3f ms\n", took);
        }
        free(candidate.pixels);
    }
    vgn_ssimulacra2_free(prepared);
    free(reference.pixels);
    return failed;
}
