/* Tile covers of a Triton kernel's store (kernel.h, "tiles"): each
 * program stores one tile of a buffer of up to three dimensions, through
 * pointer arithmetic under a mask of one bound per dimension or through a
 * block pointer; the dimensions, their program ids and strides go into
 * the parameter's summary for the launch to check (launch.c). */
#ifndef ALLOCLINT_TRITON_TILES_H
#define ALLOCLINT_TRITON_TILES_H

#include "form.h"
#include "kernel.h"

/* A store `tl.store(P + off, v, mask=mask)` (off: the pointer's form less
 * its parameter): sets p's cover to TILES and true when it is a tile
 * store. */
bool al_tf_tile_cover(al_tf_kernel *k, TSNode store, al_tf_lin off, TSNode mask, al_kparam *p);
/* A store through `tl.make_block_ptr(...)`: the same, from the pointer's
 * shape, strides, offsets and block shape. */
bool al_tf_block_tile_cover(al_tf_kernel *k, TSNode store, al_kparam *p);
/* The dimensions of a tile cover, as `explain` shows them; caller frees. */
char *al_tf_describe_tiles(const al_tf_kernel *k, const al_kparam *p);

#endif
