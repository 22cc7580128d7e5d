// The pipeline (requests, caches, coalescing, prefetching) builds on VignetteCodecs; until it
// lands, `import Vignette` gives the imaging core.
@_exported import VignetteCodecs
