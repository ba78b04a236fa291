"""A small inference and training engine of our own, for alloclint's
profiler tests: the shapes of code that real engines run on every decode
or training step (metadata buffers, a chunked loss, a Triton launch, a
CUDA-graph replay)."""
