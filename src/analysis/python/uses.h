/* What one occurrence of a name bound to a buffer does to the buffer
 * (DESIGN.md, "its uses, classified"): a metadata query, an element read,
 * a write of some region, a read-modify-write, an escape, a new alias, or
 * a rebinding of the name. Op summaries say which argument of an op is
 * its output and whether the op writes all of it. */
#ifndef ALLOCLINT_USES_H
#define ALLOCLINT_USES_H

#include "alloc.h"
#include "extent.h"
#include "../core/ops.h"
#include "../core/summary.h"
#include "../../front/python/cfg.h"
#include "../../front/python/imports.h"
#include "../../front/python/syntax.h"

#include <stdbool.h>
#include <stddef.h>

/* How a name refers to the buffer. */
typedef enum {
    AL_ALIAS_SAME,     /* the buffer itself (also `.data`, `.detach()`) */
    AL_ALIAS_RESHAPED, /* a view of every element (`.view`, `.T`) */
    AL_ALIAS_REGION,   /* a slice: writes cover that region */
    AL_ALIAS_OPAQUE,   /* a view whose extent is unknown */
} al_alias_kind;

typedef enum {
    AL_USE_META,
    AL_USE_READ,
    AL_USE_ESCAPE,
    AL_USE_RMW,
    AL_USE_WRITE,   /* of `region`, with evidence */
    AL_USE_PARTIAL, /* a write of unknown extent */
    AL_USE_KILL,    /* the name is rebound */
    AL_USE_CREATE,  /* a new alias bound to `target` */
    AL_USE_NEEDED,  /* a callee may leave elements unwritten that are read later */
    AL_USE_RETURN,  /* parameter mode: `return` of the buffer or a view (akind, aregion) */
    AL_USE_UNREAD,  /* handed to a callee that never reads its values and may leave them */
} al_use_kind;

typedef struct {
    al_use_kind kind;
    int region;
    bool unsafe;               /* the output of an op without a full-write summary */
    const char *evidence_kind; /* "op", "kernel" or NULL */
    char *evidence;            /* owned: what wrote it, e.g. "`copy_`" */
    size_t row;
    const char *target; /* CREATE: the new name */
    size_t target_len;
    al_alias_kind akind; /* CREATE: how the new name refers to the buffer */
    int aregion;
    bool zero_fill; /* `.zero_()` / `.fill_(0)` on the buffer itself */
    bool not_found; /* ESCAPE: handed to a callee not found in the project */
    char *why;      /* owned: an unsafe write's missing proof */
    al_chain chain; /* owned: the callees and stores behind a write */
    TSNode at;      /* the expression that makes the use */
    char *stored;   /* owned: the elements a Triton launch stores (stores) or loads,
                     * in the caller's terms (al_call_effect.region) */
    bool stores;
    /* Set by the caller: the alias the use went through. */
    bool through_must;
    const char *alias_name;
    size_t alias_len;
    const char *via; /* the callee that returned that alias, or NULL */
    size_t via_row;
} al_use;

/* Methods that write every element of their receiver (`copy_`, `fill_`,
 * in-place random fills). */
extern const char *const al_full_write_methods[];

/* The buffer whose uses are classified: an allocation, or a parameter of
 * the function (when the function is summarised for its callers). */
typedef struct {
    const char *name;
    TSNode func;               /* the function analysed */
    const al_alloc_site *site; /* NULL for a parameter */
    const al_strlist *params;  /* parameter mode: the function's parameters */
    al_req exported;           /* parameter mode: what a full write needs from the caller */
    bool conflict;             /* two different requirements: none can be exported */
    TSNode size_moved;         /* a statement after the allocation that binds again a
                                * name its size reads: its size, as written, proves
                                * nothing later (null when none) */
} al_buffer_desc;

/* What classifying a use needs to know about the file and the buffer. */
typedef struct {
    const al_file_env *env;
    al_extents *extents;
    bool zero_fill; /* the buffer is zero-filled: a kernel may use it as a pure output */
    al_buffer_desc *buf;
} al_use_ctx;

/* The use at identifier `id`, evaluated in CFG node `node`, of a name
 * that refers to the buffer as (kind, region). Free it with al_use_free. */
al_use al_use_classify(const al_use_ctx *c, const al_cfg_node *node, TSNode id,
                       al_alias_kind kind, int region);
void al_use_free(al_use *u);
/* The use of every local that `eval(...)`, `exec(...)`, `locals()` or
 * `vars()` makes: they can read any of them by name. */
al_use al_use_reads_locals(const al_use_ctx *c, TSNode call);
/* The use that calling a nested function makes of a buffer it names
 * without binding (a closure's free variable): e is the function's
 * summary of that name, as of a parameter. */
al_use al_use_of_closure_call(const al_use_ctx *c, TSNode call, al_alias_kind kind, int region,
                              al_call_effect *e);

/* Whether attr (an `attribute` node, `x.shape` or the callee of
 * `x.size(0)`) reads only what describes the tensor (its shape, dtype,
 * device, strides), not its elements or its memory. */
bool al_use_reads_metadata(const al_pyfile *pf, TSNode attr);

#endif
