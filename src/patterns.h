/* Facts about the code shapes the rules other than AL101 look for: call
 * chains (AL103, AL201, AL501), loops in functions (AL202, AL301, AL401)
 * and Triton kernels (AL104, AL302). Collected during the one traversal
 * of al_facts_build; rules compose messages and edits from the byte
 * ranges and texts here and never see the syntax tree. */
#ifndef ALLOCLINT_PATTERNS_H
#define ALLOCLINT_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

/* AL103: a fill that another fill or the allocation makes redundant. */
typedef enum {
    AL_REFILL_CHAINED,      /* torch.zeros(...).fill_(v) */
    AL_REFILL_NEXT,         /* x = torch.zeros(...) then x.fill_(v) */
    AL_REFILL_ALREADY_ZERO, /* x.zero_() on a buffer still all zeros */
} al_refill_kind;

typedef struct {
    al_refill_kind kind;
    size_t start, end;    /* what is reported */
    char *factory;        /* "zeros", "empty", "ones_like", ... */
    bool like;            /* a *_like factory */
    bool fill_is_zero;    /* fill_(0) / zero_() */
    bool fill_is_one;     /* fill_(1) */
    size_t name_start, name_end; /* the factory's callee, e.g. `torch.empty` */
    char *size;           /* size as a tuple text, or the *_like input; NULL unknown */
    char *value;          /* fill value text, float-normalised when needed; NULL unknown */
    char *kwargs;         /* ", dtype=..., device=..." of the factory, or "" */
    size_t call_start, call_end; /* the factory call (or whole chain) to replace */
    size_t alloc_end;            /* CHAINED: where the factory call ends */
    size_t del_start, del_end;   /* a statement line to delete, or equal */
    size_t row_fill;
} al_refill_fact;

/* AL104: redundant stores in Triton kernels. */
typedef enum {
    AL_TSTORE_ZERO_ACC,    /* acc = tl.zeros(...); acc += tl.dot(a, b) */
    AL_TSTORE_DEAD_ZERO,   /* tl.store(p, zeros) later overwritten unconditionally */
    AL_TSTORE_DEAD_LOOP,   /* a loop of zero stores repeated by the next loop */
    AL_TSTORE_GUARD_LOOP,  /* `if not computed:` loop of zero stores (display only) */
} al_tstore_kind;

typedef struct {
    al_tstore_kind kind;
    size_t start, end;
    char *acc, *a, *b, *extra; /* ZERO_ACC: names and the dot's other arguments */
    char *dtype;               /* ZERO_ACC: the zeros' dtype */
    char *tl;                  /* local name of triton.language */
    bool out_dtype_conflict;   /* the dot already names another out_dtype */
    size_t del_start, del_end; /* statement(s) to delete */
    size_t row_other;          /* the store or loop that makes it redundant */
} al_tstore_fact;

/* AL201: torch.cat with a freshly made block of zeros. */
typedef struct {
    size_t start, end;
    bool zeros_first;
    char *extent;  /* the zero block's size along the cat dim; NULL unknown */
    int rank;      /* -1 unknown */
    int dim;       /* normalised; -1 unknown */
    char *other;   /* x */
    bool dtype_same;
    char *dtype, *device; /* of the zero block, NULL when absent */
    /* x = torch.cumsum(a, 0, dtype=D) and `target = torch.cat(...)` alone */
    bool cumsum;
    char *cumsum_input, *cumsum_dtype;
    char *target, *indent;
    size_t stmt_start, stmt_end;
    char *torch, *functional; /* local names; functional may be NULL */
} al_catzero_fact;

/* AL202: x = torch.cat([x, y]) rebinding x in a loop. */
typedef struct {
    size_t start, end; /* the assignment */
    char *name, *rest_items, *rest_args, *parts, *indent, *torch;
    bool multiple_items;
    bool used_elsewhere; /* x read in the loop outside the cat */
    bool stack;
    size_t loop_start, loop_end, loop_row;
} al_catloop_fact;

/* AL301: a loop-invariant allocation made every iteration. */
typedef struct {
    size_t start, end; /* the allocation call */
    char *name, *call, *indent, *stmt_indent, *refill;
    size_t stmt_line_start, stmt_line_end, loop_start, loop_row;
    bool body_has_other_statements;
} al_loopalloc_fact;

/* AL302: tl.arange with loop-invariant bounds inside a kernel loop. */
typedef struct {
    size_t loop_start, loop_row;
    char *expr;   /* compact text, to group equal expressions */
    char *source; /* the first occurrence as written */
    char *name, *indent;
    size_t *occ_start, *occ_end;
    size_t n_occ;
} al_tinvariant_fact;

/* AL401: x = x - y on a fresh, unaliased local tensor. */
typedef struct {
    size_t start, end; /* the assignment */
    char *name, *method, *operand; /* x, "sub_", y (with extra kwargs) */
} al_inplace_fact;

/* AL501: a tensor made on the host, then moved to the device. */
typedef struct {
    size_t start, end;     /* the whole chain */
    char *factory;         /* qualified */
    size_t insert_at;      /* before the factory call's ')' */
    bool args_empty;
    size_t move_start, move_end; /* `.to(...)` / `.cuda()` to delete */
    char *device;          /* NULL: unknown */
    char *dtype;           /* also converts dtype */
    bool non_blocking, random, has_device;
} al_move_fact;

#endif
