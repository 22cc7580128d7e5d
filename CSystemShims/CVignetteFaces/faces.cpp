// cv::FaceDetectorYN behind vgn_faces.h. OpenCV is not linked: the four entry points this file
// needs that are not inline in OpenCV's headers are looked up with dlsym in the library of the
// headers' own version, so the process maps OpenCV only when the first detector is made. Any other
// OpenCV symbol used here would be an undefined reference at link time, which keeps the list whole.
#include "vgn_faces.h"

#include <opencv2/core.hpp>
#include <opencv2/objdetect/face.hpp>

#include <dlfcn.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace {

// The Itanium C++ ABI names of what the headers declare but do not define (OpenCV 4, libstdc++'s
// C++11 string). A constructor or destructor takes the object as its first argument.
constexpr const char *createName =
    "_ZN2cv14FaceDetectorYN6createERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES8_RKNS_5Size_IiEEffiii";
using CreateFunction = cv::Ptr<cv::FaceDetectorYN> (*)(
    const cv::String &, const cv::String &, const cv::Size &, float, float, int, int, int);
using MatWithDataFunction = void (*)(cv::Mat *, int, int, int, void *, size_t);
using MatEmptyFunction = void (*)(cv::Mat *);
using MatDestroyFunction = void (*)(cv::Mat *);

struct OpenCV {
    CreateFunction create = nullptr;
    MatWithDataFunction matWithData = nullptr;
    MatEmptyFunction matEmpty = nullptr;
    MatDestroyFunction matDestroy = nullptr;
    std::string problem;
};

// The soname of the headers' version: libopencv_objdetect.so.406 for OpenCV 4.6 (the minor
// version in two digits, as OpenCV's build names it).
const char *libraryName() {
    static char name[64];
    static std::once_flag once;
    std::call_once(once, [] {
        std::snprintf(name, sizeof name, "libopencv_objdetect.so.%d%02d", CV_VERSION_MAJOR, CV_VERSION_MINOR);
    });
    return name;
}

// Loaded once; kept for the life of the process (OpenCV's static state must not be unloaded).
const OpenCV &openCV() {
    static OpenCV loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        void *library = dlopen(libraryName(), RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            const char *reason = dlerror();
            loaded.problem = std::string("OpenCV could not be loaded (") + (reason ? reason : libraryName()) + ")";
            return;
        }
        loaded.create = reinterpret_cast<CreateFunction>(dlsym(library, createName));
        loaded.matWithData = reinterpret_cast<MatWithDataFunction>(dlsym(library, "_ZN2cv3MatC1EiiiPvm"));
        loaded.matEmpty = reinterpret_cast<MatEmptyFunction>(dlsym(library, "_ZN2cv3MatC1Ev"));
        loaded.matDestroy = reinterpret_cast<MatDestroyFunction>(dlsym(library, "_ZN2cv3MatD1Ev"));
        if (!loaded.create || !loaded.matWithData || !loaded.matEmpty || !loaded.matDestroy) {
            loaded.problem = std::string(libraryName()) + " lacks cv::FaceDetectorYN or cv::Mat as OpenCV "
                CV_VERSION " declares them";
        }
    });
    return loaded;
}

// A cv::Mat made and destroyed through the functions looked up, never through the linker.
class LoadedMat {
public:
    explicit LoadedMat(const OpenCV &cv) : cv(cv) { cv.matEmpty(mat()); }
    LoadedMat(const OpenCV &cv, int rows, int columns, int type, void *data, size_t step) : cv(cv) {
        cv.matWithData(mat(), rows, columns, type, data, step);
    }
    ~LoadedMat() { cv.matDestroy(mat()); }
    LoadedMat(const LoadedMat &) = delete;
    LoadedMat &operator=(const LoadedMat &) = delete;
    cv::Mat *mat() { return std::launder(reinterpret_cast<cv::Mat *>(storage)); }

private:
    const OpenCV &cv;
    alignas(cv::Mat) unsigned char storage[sizeof(cv::Mat)];
};

void say(char *message, size_t size, const std::string &text) {
    if (message == nullptr || size == 0) return;
    std::snprintf(message, size, "%s", text.c_str());
}

// YuNet's two model generations and the OpenCV that runs each: the 2022mar file has one head whose
// outputs are named loc, conf and iou (OpenCV 4.6's FaceDetectorYN reads those); the 2023mar one
// has a head per stride (cls_8, obj_8, bbox_8, kps_8, …), which 4.8 and later read. Each OpenCV
// fails on the other's file, at best with an exception and at worst with no faces, so the pairing
// is checked from the file's output names before OpenCV sees it. An unknown file is left to OpenCV.
enum class ModelKind { unknown, yunet2022mar, yunet2023mar };

ModelKind modelKind(const char *path) {
    std::FILE *file = std::fopen(path, "rb");
    if (file == nullptr) return ModelKind::unknown;
    std::string bytes;
    char buffer[65536];
    size_t read;
    // YuNet's files are a few hundred kilobytes; past 64 MB this is not one of them.
    while ((read = std::fread(buffer, 1, sizeof buffer, file)) > 0 && bytes.size() < (64u << 20)) bytes.append(buffer, read);
    std::fclose(file);
    auto has = [&](const char *name) {
        // An ONNX output name is a protobuf string: its length byte, then the name.
        std::string field(1, char(std::strlen(name)));
        field += name;
        return bytes.find(field) != std::string::npos;
    };
    if (has("cls_8") && has("obj_8") && has("bbox_8")) return ModelKind::yunet2023mar;
    if (has("loc") && has("conf") && has("iou")) return ModelKind::yunet2022mar;
    return ModelKind::unknown;
}

// Empty when OpenCV (the headers' version) runs the model kind at `path`; else why not.
std::string pairingProblem(const char *path) {
    const bool newOpenCV = CV_VERSION_MAJOR > 4 || (CV_VERSION_MAJOR == 4 && CV_VERSION_MINOR >= 8);
    switch (modelKind(path)) {
    case ModelKind::yunet2022mar:
        if (newOpenCV)
            return "it is YuNet's 2022mar model, which OpenCV " CV_VERSION " cannot run: OpenCV 4.8 and later run "
                   "face_detection_yunet_2023mar.onnx";
        break;
    case ModelKind::yunet2023mar:
        if (!newOpenCV)
            return "it is YuNet's 2023mar model, which OpenCV " CV_VERSION " cannot run: OpenCV before 4.8 runs "
                   "face_detection_yunet_2022mar.onnx";
        break;
    case ModelKind::unknown:
        break;
    }
    return {};
}

}  // namespace

struct vgn_face_detector {
    cv::Ptr<cv::FaceDetectorYN> detector;
    std::vector<uint8_t> bgr;
};

extern "C" int vgn_faces_opencv_version(void) { return CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR; }

extern "C" vgn_face_detector *vgn_face_detector_make(const char *model_path, char *message, size_t message_size) {
    const OpenCV &cv = openCV();
    if (!cv.problem.empty()) {
        say(message, message_size, cv.problem);
        return nullptr;
    }
    const std::string pairing = pairingProblem(model_path);
    if (!pairing.empty()) {
        say(message, message_size, pairing);
        return nullptr;
    }
    try {
        // The input size is set again for every image; the thresholds are applied here, after NMS.
        auto detector = cv.create(model_path, "", cv::Size(320, 320), 0.3f, 0.3f, 5000, 0, 0);
        if (!detector) {
            say(message, message_size, "OpenCV made no face detector of the model");
            return nullptr;
        }
        return new vgn_face_detector{detector, {}};
    } catch (const std::exception &error) {
        say(message, message_size, error.what());
    } catch (...) {
        say(message, message_size, "OpenCV failed to read the model");
    }
    return nullptr;
}

extern "C" int vgn_face_detector_detect(
    vgn_face_detector *detector, const uint8_t *pixels, int width, int height, int bands, size_t stride,
    float score_threshold, vgn_face *faces, int capacity, char *message, size_t message_size) {
    if (detector == nullptr || pixels == nullptr || width <= 0 || height <= 0 || bands < 1 || bands > 4 ||
        stride < size_t(width) * size_t(bands)) {
        say(message, message_size, "face detection was given no pixels");
        return -1;
    }
    const OpenCV &cv = openCV();
    try {
        // YuNet reads BGR.
        detector->bgr.resize(size_t(width) * size_t(height) * 3);
        uint8_t *out = detector->bgr.data();
        for (int y = 0; y < height; y++) {
            const uint8_t *row = pixels + size_t(y) * stride;
            for (int x = 0; x < width; x++, out += 3) {
                const uint8_t *pixel = row + size_t(x) * size_t(bands);
                if (bands <= 2) {
                    out[0] = out[1] = out[2] = pixel[0];
                } else {
                    out[0] = pixel[2];
                    out[1] = pixel[1];
                    out[2] = pixel[0];
                }
            }
        }
        LoadedMat image(cv, height, width, CV_8UC3, detector->bgr.data(), size_t(width) * 3);
        LoadedMat found(cv);
        detector->detector->setInputSize(cv::Size(width, height));
        detector->detector->detect(*image.mat(), *found.mat());
        const cv::Mat &rows = *found.mat();
        if (rows.data == nullptr || rows.rows <= 0) return 0;
        if (rows.type() != CV_32F || rows.cols < 15) {
            say(message, message_size, "OpenCV's face detector answered in an unknown layout");
            return -1;
        }
        // OpenCV gives them best first after NMS; keep those over the threshold.
        int count = 0;
        for (int index = 0; index < rows.rows; index++) {
            const float *row = rows.ptr<float>(index);
            if (!(row[14] >= score_threshold)) continue;
            if (count < capacity && faces != nullptr) {
                vgn_face &face = faces[count];
                face.x = row[0];
                face.y = row[1];
                face.width = row[2];
                face.height = row[3];
                std::memcpy(face.landmarks, row + 4, sizeof face.landmarks);
                face.score = row[14];
            }
            count++;
        }
        return count;
    } catch (const std::exception &error) {
        say(message, message_size, error.what());
    } catch (...) {
        say(message, message_size, "OpenCV's face detector failed");
    }
    return -1;
}

extern "C" void vgn_face_detector_free(vgn_face_detector *detector) { delete detector; }
