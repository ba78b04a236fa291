/* Triton kernels: what a @triton.jit function does to each pointer
 * parameter, and whether a launch makes its store cover a buffer.
 *
 * A store proves coverage in three shapes, each with a mask that bounds it
 * by a parameter and no exit or condition before it:
 *   grid blocks   tl.store(P + pid * BLOCK + tl.arange(0, BLOCK), v, mask=offs < n)
 *                 launched with triton.cdiv(n, BLOCK) programs on that axis
 *   block loop    for start in range(0, n, BLOCK) (or a grid-stride loop):
 *                 tl.store(P + start + tl.arange(0, BLOCK), v, mask=offs < n)
 *   rows          tl.store(P + pid * stride + cols, v, mask=cols < n) with
 *                 cols = tl.arange(0, BLOCK_N) and BLOCK_N =
 *                 triton.next_power_of_2(n) at the launch (or a loop over
 *                 column blocks), one program per row.
 *   segments     program i stores [S[i], S[i] + L[i]): tl.store(P + s + offs,
 *                v, mask=offs < n) with s = tl.load(S + pid), n = tl.load(L +
 *                pid) (or tl.load(S + pid + 1) - s), in a loop over the
 *                blocks of n; the launch must show S to be the exclusive
 *                prefix sum of L and the buffer to hold their sum.
 *   tiles        each program stores one tile of a buffer of up to three
 *                dimensions: tl.store(P + offs_m[:, None] * S + offs_n[None, :],
 *                v, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N)) with
 *                offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M) (pid_m a
 *                program id, or `pid // tl.cdiv(N, BLOCK_N)` paired with
 *                `pid % tl.cdiv(N, BLOCK_N)` for the columns, or the
 *                grouped order of Triton's matmul tutorial), and any
 *                program id times a stride for a dimension of one index per
 *                program; the launch must show each axis of the grid to be
 *                the tiles' count and the strides the buffer's own.
 * Anything else that stores is a partial write with its reason; atomics
 * accumulate; a load of the parameter reads it; an exit or branch that
 * depends on loaded data may skip the store. */
#ifndef ALLOCLINT_TRITON_H
#define ALLOCLINT_TRITON_H

#include "../core/summary.h"

typedef enum {
    AL_TCOVER_NONE,
    AL_TCOVER_GRID,
    AL_TCOVER_LOOP,
    AL_TCOVER_ROWS,
    AL_TCOVER_SEGMENT,
    AL_TCOVER_TILES,
} al_tcover;

#define AL_TILE_DIMS 3
#define AL_TILE_STRIDES 3

/* One dimension a tile store spans: a tile dimension (masked by `bound`,
 * `block` elements per program) or a dimension of one index per program
 * (bound -1). */
typedef struct {
    int axis;    /* the program_id axis */
    int split;   /* 0: the axis itself; 1: its quotient by the tile count of
                  * the dimension split 2 (`pid // tl.cdiv(N, B)`); 2: the
                  * remainder; or, grouped, the row and the column of the
                  * grouped tile order (GROUP_SIZE_M rows at a time) */
    bool grouped;
    int bound;   /* the parameter bounding the mask, or -1 */
    int block;   /* the block parameter, or -1 with block_text */
    char *block_text;
    int stride[AL_TILE_STRIDES]; /* parameters whose product is the stride (none: 1) */
    int nstride;
} al_tile_dim;

typedef struct {
    al_effect effect;
    char *why;  /* the store, atomic, load or exit that decided it */
    size_t row; /* its line */
    al_tcover cover;
    int axis;        /* GRID, ROWS: the program_id axis */
    int n;           /* the parameter bounding the mask (elements, or columns) */
    int block;       /* GRID: the BLOCK parameter, or -1 with block_text */
    char *block_text;
    int stride;      /* ROWS: the row stride parameter, or -1 */
    int block_cols;  /* ROWS: the column block parameter, or -1 when a loop covers */
    int seg_start;   /* SEGMENT: the parameter of the segments' starts */
    int seg_len;     /* SEGMENT: the parameter of their lengths, or -1 when they
                      * are the starts' differences (`start[i + 1] - start[i]`) */
    al_tile_dim tiles[AL_TILE_DIMS]; /* TILES: in the order of the store's terms */
    int ntiles;
    char *region;       /* a store under conditions, or loads: the elements it writes
                         * (region_writes) or reads, as a template (region.h), or NULL */
    bool region_writes;
    bool stored; /* a store, atomic or unfollowed call takes it, whatever else loads */
} al_kparam;

typedef struct {
    char **names; /* the kernel's parameters, in order */
    size_t n;
    al_kparam *params;
} al_kernel;

/* Summarises every parameter of a kernel (a function_definition). */
void al_triton_summarise(const al_pyfile *pf, const struct al_pymodule *mod, TSNode def,
                         al_kernel *out);
void al_kernel_free(al_kernel *k);

/* The effect of a launch `K[grid](...)` in the caller (pf, at call) on
 * its argument at pos (or keyword kw), for kernel k (defined in `path`). WRITES_ALL carries
 * the requirement the caller must prove about the buffer; `kernel`
 * names the kernel in messages, `path` its file. */
void al_triton_launch(const al_file_env *caller, TSNode call, const al_kernel *k,
                      const char *kernel, const char *path, int pos, TSNode kw,
                      al_call_effect *out);

#endif
