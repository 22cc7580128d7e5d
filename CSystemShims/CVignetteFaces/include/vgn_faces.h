// Faces through OpenCV's YuNet detector (`cv::FaceDetectorYN`), behind a C interface: no C++ type
// crosses it. OpenCV is loaded with dlopen on the first detector made, not at process start, so a
// process that never looks for faces pays nothing for it (and runs where OpenCV is absent).
#ifndef VGN_FACES_H
#define VGN_FACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One face in the pixels given: its box, five landmarks (right eye, left eye, nose tip, right and
/// left mouth corners, x then y) and the detector's score (0–1).
typedef struct {
    float x, y, width, height;
    float landmarks[10];
    float score;
} vgn_face;

typedef struct vgn_face_detector vgn_face_detector;

/// The OpenCV version the detector opens, from its headers: major × 100 + minor (406 for 4.6).
int vgn_faces_opencv_version(void);

/// Loads OpenCV's objdetect library (once per process) and the ONNX model at `model_path`. NULL on
/// failure, with a message in `message` (NUL-terminated, at most `message_size` bytes): among
/// others when the model is YuNet's kind that this OpenCV cannot run (2022mar before OpenCV 4.8,
/// 2023mar from 4.8 on).
vgn_face_detector *vgn_face_detector_make(const char *model_path, char *message, size_t message_size);

/// The faces scoring at least `score_threshold` in `width`×`height` pixels of `bands` bands (1 grey,
/// 2 grey + alpha, 3 RGB, 4 RGBA; alpha ignored), rows `stride` bytes apart. Writes at most
/// `capacity` faces, best first, and returns how many were found (which may be more), or -1 with a
/// message. Not safe to call on one detector from two threads at once.
int vgn_face_detector_detect(
    vgn_face_detector *detector, const uint8_t *pixels, int width, int height, int bands, size_t stride,
    float score_threshold, vgn_face *faces, int capacity, char *message, size_t message_size);

/// Releases the detector.
void vgn_face_detector_free(vgn_face_detector *detector);

#ifdef __cplusplus
}
#endif

#endif
