// vgn_lanczos3_resize_streaming: the resize overlapped with the decode that feeds it. The calling
// thread fetches input rows from the source, top to bottom, in strips; a second thread runs both
// passes on every output row whose vertical window has arrived. A JPEG decode is sequential
// (libjpeg runs on one thread), so on two cores the resize then costs little wall time.
#include "CResize.h"
#include "resize_internal.h"

#include <pthread.h>
#include <stdlib.h>

/// Input rows fetched per call to the source.
#define VGN_STRIP 16

typedef struct {
    const vgn_resize_job *job;
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    int rows_ready; /* input rows [0, rows_ready) are in place */
    int failed;
    int status; /* the consumer's: 0, or -2 when memory ran out */
} vgn_stream;

/// The consumer: output rows in order, in batches of those whose windows are complete.
static void *vgn_stream_consume(void *argument) {
    vgn_stream *stream = argument;
    const vgn_kernel *v = stream->job->vertical;
    int next = 0;
    while (next < v->out_size) {
        pthread_mutex_lock(&stream->lock);
        while (!stream->failed && stream->rows_ready < v->start[next] + v->taps) {
            pthread_cond_wait(&stream->arrived, &stream->lock);
        }
        const int ready = stream->rows_ready, failed = stream->failed;
        pthread_mutex_unlock(&stream->lock);
        if (failed) break;
        int end = next + 1;
        while (end < v->out_size && v->start[end] + v->taps <= ready) end++;
        if (vgn_resize_rows(stream->job, next, end - next) != 0) {
            stream->status = -2;
            break;
        }
        next = end;
    }
    return NULL;
}

int vgn_lanczos3_resize_streaming(vgn_row_source source, void *context, int in_width, int in_height,
                                  uint8_t *out, int out_width, int out_height, size_t out_stride,
                                  int bands, int has_alpha, int implementation, int threads) {
    if (!source || !out) return -1;
    const int use_avx2 = vgn_resize_check(in_width, in_height, out_width, out_height, out_stride, bands, has_alpha,
                                          implementation);
    if (use_avx2 < 0) return -1;
    const size_t row_bytes = (size_t)in_width * (size_t)bands;

    int status = -2;
    vgn_kernel vertical = {0}, horizontal = {0};
    // The source writes here; alpha is premultiplied in place, strip by strip.
    uint8_t *input = malloc(row_bytes * (size_t)in_height);
    vgn_resize_job job = {input, row_bytes, out, row_bytes, out_stride, out_width, bands, has_alpha, use_avx2,
                          NULL, NULL, NULL};
    if (!input) goto done;
    if (vgn_resize_job_make(&job, &vertical, &horizontal, in_width, in_height, out_width, out_height) != 0) goto done;

    vgn_stream stream = {&job, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
    pthread_t consumer;
    const int concurrent = threads > 1 && pthread_create(&consumer, NULL, vgn_stream_consume, &stream) == 0;
    int fetched = 0;
    for (int first = 0; first < in_height; first += VGN_STRIP) {
        const int count = in_height - first < VGN_STRIP ? in_height - first : VGN_STRIP;
        uint8_t *rows = input + (size_t)first * row_bytes;
        if (source(context, first, count, rows) != 0) break;
        if (has_alpha) vgn_resize_premultiply(rows, row_bytes, rows, in_width, count, bands);
        fetched = first + count;
        if (concurrent) {
            pthread_mutex_lock(&stream.lock);
            stream.rows_ready = fetched;
            pthread_cond_signal(&stream.arrived);
            pthread_mutex_unlock(&stream.lock);
        }
    }
    if (concurrent) {
        if (fetched < in_height) {
            pthread_mutex_lock(&stream.lock);
            stream.failed = 1;
            pthread_cond_signal(&stream.arrived);
            pthread_mutex_unlock(&stream.lock);
        }
        pthread_join(consumer, NULL);
    } else if (fetched == in_height) {
        stream.status = vgn_resize_rows(&job, 0, out_height);
    }
    pthread_mutex_destroy(&stream.lock);
    pthread_cond_destroy(&stream.arrived);
    status = fetched < in_height ? -3 : stream.status;

done:
    vgn_resize_job_free(&job, &vertical, &horizontal);
    free(input);
    return status;
}
