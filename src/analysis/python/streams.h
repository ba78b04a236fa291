/* CUDA streams around a function's statements: a tensor read by work
 * queued on another stream may still be read when the current stream
 * writes it. For AL401, whose in-place update writes the tensor the
 * out-of-place form left alone. */
#ifndef ALLOCLINT_STREAMS_H
#define ALLOCLINT_STREAMS_H

#include "module.h"

/* A use of name in func inside a `with` block that switches CUDA streams
 * (an item that names a stream: `torch.cuda.stream(s)`, `self.alt_stream`,
 * `torch.cuda.StreamContext(...)`) which does not also hold stmt and
 * comes before it (or in a loop around both): the work queued there may
 * still read the tensor when stmt writes it; or a use after a
 * `torch.cuda.set_stream(...)` call that comes before stmt (or in a loop
 * around it), with no wait of the current stream between. A null node
 * when none; *block: the `with` statement, or the set_stream call. */
TSNode al_stream_use(const al_pymodule *m, TSNode func, TSNode stmt, const char *name, TSNode *block);

#endif
