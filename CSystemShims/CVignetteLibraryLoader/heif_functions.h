// The libheif functions Vignette calls (its Swift code and CVignetteImageShims' writer): every
// entry gets a trampoline of that name in heif.c and is looked up there when the library is
// opened. A call to a libheif function missing here is an undefined reference at link time.
#define VGN_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) \
    X(heif_context_encode_image) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_set_maximum_image_size_limit) \
    X(heif_context_write) \
    X(heif_decode_image) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossless) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_parameter_integer) \
    X(heif_encoder_set_parameter_string) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_get_version) \
    X(heif_have_encoder_for_format) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_number_of_thumbnails) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_release) \
    X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) \
    X(heif_image_set_raw_color_profile) \
    X(heif_nclx_color_profile_alloc) \
    X(heif_nclx_color_profile_free) \

