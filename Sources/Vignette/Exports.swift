// `import Vignette` brings the imaging core (images, decoding, thumbnails, encoders) along.
@_exported import VignetteCodecs
