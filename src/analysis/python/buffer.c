#include "buffer.h"
#include "pairs.h"

#include "closures.h"
#include "extent.h"
#include "guards.h"
#include "loops.h"
#include "module.h"
#include "rebinding.h"
#include "uses.h"
#include "../../front/python/cfg.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COV 8
#define MAX_ALIASES 8

typedef struct {
    const char *name;
    size_t len;
    al_alias_kind kind;
    int region; /* for AL_ALIAS_REGION */
    bool must;
    const char *via; /* interned: the callee that returned this view, for notes */
    size_t via_row;
} alias;

/* The buffer on the paths into one CFG node. */
typedef struct {
    bool reached;
    bool pristine; /* some path: alive and not yet fully written */
    bool written;  /* some path: fully written */
    bool dirty;    /* some path: any element written since the allocation */
    int cov[MAX_COV];
    int ncov;
    alias al[MAX_ALIASES];
    int nal;
    int guard; /* 1 + the launch that stored a region of it on every path; -1 not all */
} bstate;

typedef struct {
    TSNode *ids;
    size_t n, cap;
} occlist;

/* One function: its graph, the identifiers each node evaluates, and the
 * facts about names that every allocation in it shares. */
typedef struct {
    const al_file_env *env;
    TSNode func;
    al_cfg cfg;
    occlist *occ;
    al_interner strs;
    const char **even; /* expressions asserted even */
    size_t neven, capeven;
    const char **globals;
    size_t nglobals, capglobals;
    al_closures closures;
    struct closure_effect { int closure; const char *name; al_call_effect e; } *ce;
    size_t nce, capce; /* each closure's summary of a name, as the fixed point asks again */
} fctx;

/* One allocation being analysed. */
typedef struct {
    fctx *f;
    int alloc_node;
    const char *root;
    size_t root_len;
    al_extents ext;
    al_use_ctx uses;
    bstate *in;
    /* results */
    bool blocked;
    al_block_reason reason;
    size_t reason_row;
    size_t seen_row[AL_BLOCK_NOT_FOUND + 1]; /* per reason, its first row (0: not seen) */
    bool seen[AL_BLOCK_NOT_FOUND + 1];
    char *block_why;      /* what the blocking use does, when a callee told */
    al_chain block_chain; /* ... and the callees behind it */
    bool accumulated;
    bool completed_safe, completed_unsafe;
    bool touched; /* some path wrote some element */
    bool origin_written; /* some write may have covered element 0 */
    bool param_mode;
    size_t unwritten_exit; /* parameter mode: a return reached with it unwritten (its row) */
    size_t returned;       /* parameter mode: a `return` of it, untouched (its row) */
    bool returns_whole;    /* ... and every such return is of all its elements */
    unsigned char *returns_at; /* parameter mode: per node, 1 if it returns the parameter */
    char *evidence;
    size_t evidence_row;
    char *why;
    al_chain chain;
    /* The first callee that was handed it unwritten and never reads its
     * values (it may leave them): what proves a fill wasted when nothing
     * reads it afterwards. */
    char *unread_by;
    size_t unread_row;
    char *unread_assumes; /* what that callee's summary assumes, or NULL */
    al_chain unread_chain;
    al_buffer_desc desc;
    const al_alloc_site *site; /* the allocation (NULL for a parameter) */
    unsigned char *refill_at; /* per node: 1 fill of a still-zero buffer, 2 not */
    al_launch_pairs pairs; /* launches that store a region of it, and their pairs */
} actx;

const char *al_block_reason_text(al_block_reason r)
{
    switch (r) {
    case AL_BLOCK_NONE: return "none";
    case AL_BLOCK_READ: return "read before a full write";
    case AL_BLOCK_ESCAPE: return "escapes before a full write";
    case AL_BLOCK_ACCUMULATE: return "accumulated into";
    case AL_BLOCK_GLOBAL: return "global or nonlocal name";
    case AL_BLOCK_CALLEE: return "a callee may leave elements unwritten";
    case AL_BLOCK_NOT_FOUND: return "handed to a callee not found in the project";
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* States                                                               */

static int find_alias(const bstate *s, const char *name, size_t len)
{
    for (int i = 0; i < s->nal; i++)
        if (s->al[i].len == len && memcmp(s->al[i].name, name, len) == 0)
            return i;
    return -1;
}

static void add_alias(bstate *s, alias al)
{
    int i = find_alias(s, al.name, al.len);
    if (i >= 0) {
        s->al[i] = al;
        return;
    }
    if (s->nal < MAX_ALIASES)
        s->al[s->nal++] = al;
}

static void kill_alias(bstate *s, const char *name, size_t len)
{
    int i = find_alias(s, name, len);
    if (i < 0)
        return;
    s->al[i] = s->al[--s->nal];
}

static bool state_eq(const bstate *a, const bstate *b)
{
    if (a->reached != b->reached || a->pristine != b->pristine || a->written != b->written ||
        a->dirty != b->dirty || a->ncov != b->ncov || a->nal != b->nal || a->guard != b->guard)
        return false;
    if (memcmp(a->cov, b->cov, (size_t)a->ncov * sizeof a->cov[0]) != 0)
        return false;
    for (int i = 0; i < a->nal; i++) {
        const alias *x = &a->al[i], *y = &b->al[i];
        if (x->name != y->name || x->len != y->len || x->kind != y->kind ||
            x->region != y->region || x->must != y->must)
            return false;
    }
    return true;
}

static bool join(bstate *into, const bstate *from)
{
    if (!from->reached)
        return false;
    if (!into->reached) {
        *into = *from;
        return true;
    }
    bstate old = *into;
    into->guard = into->guard == from->guard ? into->guard : -1;
    into->written |= from->written;
    into->dirty |= from->dirty;
    if (from->pristine) {
        if (into->pristine) {
            int n = 0;
            for (int i = 0; i < into->ncov; i++)
                for (int j = 0; j < from->ncov; j++)
                    if (into->cov[i] == from->cov[j]) {
                        into->cov[n++] = into->cov[i];
                        break;
                    }
            into->ncov = n;
        } else {
            into->ncov = from->ncov;
            memcpy(into->cov, from->cov, sizeof from->cov);
        }
        into->pristine = true;
    }
    /* May-aliases: the union; must only where both paths agree. */
    for (int i = 0; i < into->nal; i++) {
        int j = find_alias(from, into->al[i].name, into->al[i].len);
        if (j < 0 || from->al[j].kind != into->al[i].kind ||
            from->al[j].region != into->al[i].region || !from->al[j].must)
            into->al[i].must = false;
    }
    for (int j = 0; j < from->nal; j++)
        if (find_alias(into, from->al[j].name, from->al[j].len) < 0) {
            alias al = from->al[j];
            al.must = false;
            add_alias(into, al);
        }
    return !state_eq(&old, into);
}

/* ------------------------------------------------------------------ */
/* Transfer                                                             */

static void block(actx *a, al_block_reason reason, size_t row)
{
    if (!a->seen[reason]) {
        a->seen[reason] = true;
        a->seen_row[reason] = row;
    }
    if (!a->blocked) {
        a->blocked = true;
        a->reason = reason;
        a->reason_row = row;
    }
}

/* A block by a use: its callees' reasons are kept, to explain it. */
static void block_by(actx *a, al_block_reason reason, const al_use *e)
{
    if (a->blocked) {
        block(a, reason, e->row); /* seen, for the explanation */
        return;
    }
    block(a, reason, e->row);
    a->block_why = e->why ? al_xstrdup(e->why) : NULL;
    al_chain_append(&a->block_chain, &e->chain);
}

static void apply_write(actx *a, bstate *s, int rid, const char *evidence, size_t row,
                        const al_use *by)
{
    if (!s->pristine)
        return;
    bool present = false;
    for (int i = 0; i < s->ncov; i++)
        if (s->cov[i] == rid)
            present = true;
    if (!present) {
        if (s->ncov == MAX_COV)
            return; /* too many pieces to reason about: stays partial */
        s->cov[s->ncov++] = rid;
    }
    if (!al_extents_covered(&a->ext, s->cov, s->ncov))
        return;
    bool unsafe = al_extents_any_unsafe(&a->ext, s->cov, s->ncov);
    if (unsafe)
        a->completed_unsafe = true;
    else
        a->completed_safe = true;
    if (!a->evidence && evidence) {
        a->evidence = al_xstrdup(evidence);
        a->evidence_row = row;
        if (by && by->via)
            al_chain_add(&a->chain, a->f->env->path, by->via_row,
                         "`%.*s` is the view of it that %s returns", (int)by->alias_len,
                         by->alias_name, by->via);
        if (by)
            al_chain_append(&a->chain, &by->chain);
    }
    if (unsafe && !a->why && by && by->why)
        a->why = al_xstrdup(by->why);
    s->pristine = false;
    s->written = true;
    s->ncov = 0;
}

/* Whether region rid provably leaves out element 0: some dimension
 * starts at a positive constant (`buf[1:]`), or takes the odd ones. */
static bool misses_origin(const al_extents *x, int rid)
{
    if (rid <= AL_REGION_FULL || (size_t)rid >= x->nreg)
        return false;
    const al_region *r = &x->regions[rid];
    if (r->unknown)
        return false;
    for (int d = 0; d < r->n; d++) {
        const al_dimspec *s = &r->d[d];
        if (s->kind == AL_DS_ODD || (s->kind == AL_DS_RANGE && !s->lo.base && s->lo.off > 0))
            return true;
    }
    return false;
}

static bool name_eq(const al_pyfile *pf, TSNode id, const char *name, size_t len)
{
    size_t l;
    const char *p = al_node_ptr(pf, id, &l);
    return l == len && memcmp(p, name, len) == 0;
}

/* The state after the allocation node: a new buffer bound to the root.
 * Buffers made there on earlier iterations stay reachable through their
 * other aliases, which become may-aliases of this site. */
static void transfer_alloc(actx *a, const bstate *in, bstate *out)
{
    bstate old = *in;
    kill_alias(&old, a->root, a->root_len);
    memset(out, 0, sizeof *out);
    out->reached = true;
    out->pristine = true;
    out->al[0] = (alias){a->root, a->root_len, AL_ALIAS_SAME, AL_REGION_FULL, true, NULL, 0};
    out->nal = 1;
    out->written = old.written;
    if (old.pristine)
        for (int i = 0; i < old.nal; i++) {
            alias al = old.al[i];
            al.must = false;
            add_alias(out, al);
        }
}

/* A lambda, generator or nested function naming `name` that may exist
 * before statement st binds the name to the buffer (written above it, or
 * in a loop around it) reads the buffer whenever it runs later: an escape
 * there. */
static void captured_early(actx *a, const char *name, size_t len, TSNode st)
{
    const fctx *f = a->f;
    if (a->blocked || !f->closures.nscopes)
        return;
    char *z = al_xstrndup(name, len);
    TSNode s = al_closures_captured_before(&f->closures, f->env->pf, &f->cfg, f->func, st, z);
    free(z);
    if (ts_node_is_null(s))
        return;
    block(a, AL_BLOCK_ESCAPE, al_node_row(s));
    al_chain_add(&a->block_chain, f->env->path, al_node_row(s),
                 "`%.*s` is named in %s that may exist before line %zu binds it (written above "
                 "it, or on an earlier pass of a loop): called later, it reads the buffer",
                 (int)len, name, al_late_scope_kind(s), al_node_row(st));
}

/* A use made through alias al. */
static void through(al_use *e, const alias *al)
{
    e->through_must = al->must;
    e->alias_name = al->name;
    e->alias_len = al->len;
    e->via = al->via;
    e->via_row = al->via_row;
}

/* The uses that node idx's calls of closures make of the buffer's names:
 * each the closure's summary of that name, as of a parameter handed to
 * it (al_buffer_param_effect). */
static int closure_call_uses(actx *a, int idx, const bstate *in, al_use *evs, int nev, int max)
{
    fctx *f = a->f;
    const al_closures *cs = &f->closures;
    for (size_t i = 0; i < cs->ncalls && nev < max; i++) {
        if (cs->calls[i].node != idx)
            continue;
        if (cs->calls[i].closure < 0) {
            for (int j = 0; j < in->nal && nev < max; j++) {
                evs[nev] = al_use_reads_locals(&a->uses, cs->calls[i].call);
                through(&evs[nev++], &in->al[j]);
            }
            continue;
        }
        const al_closure *c = &cs->items[cs->calls[i].closure];
        for (int j = 0; j < in->nal && nev < max; j++) {
            if (!al_closure_names(f->env->pf, &f->cfg, c, in->al[j].name, in->al[j].len))
                continue;
            const char *name = al_intern(&f->strs, in->al[j].name, in->al[j].len);
            size_t k = 0;
            while (k < f->nce && (f->ce[k].closure != cs->calls[i].closure || f->ce[k].name != name))
                k++;
            if (k == f->nce) {
                struct closure_effect ce = {cs->calls[i].closure, name, {0}};
                al_file_env env = *f->env;
                env.depth++;
                al_buffer_param_effect(&env, f->cfg.nodes[c->def_node].eval, name, &ce.e);
                al_strbuf who = {0};
                al_strbuf_printf(&who, "the nested function `%s`", c->name);
                free(ce.e.callee);
                ce.e.callee = al_strbuf_detach(&who);
                AL_PUSH(f->ce, f->nce, f->capce, ce);
            }
            evs[nev] = al_use_of_closure_call(&a->uses, cs->calls[i].call, in->al[j].kind,
                                              in->al[j].region, &f->ce[k].e);
            through(&evs[nev++], &in->al[j]);
        }
    }
    return nev;
}

/* What blocks a buffer after a launch stored a region of it is that
 * launch, which leaves the rest: as if no pair had been sought. */
static void block_use(actx *a, const bstate *s, al_block_reason r, const al_use *e)
{
    const struct al_stored_launch *l = al_pairs_stored(&a->pairs, s->guard);
    if (l && a->blocked) {
        block(a, AL_BLOCK_CALLEE, l->row);
    } else if (l) {
        block(a, AL_BLOCK_CALLEE, l->row);
        a->block_why = al_pairs_block_why(&a->pairs, l);
        al_chain_append(&a->block_chain, &l->chain);
    } else {
        block_by(a, r, e);
    }
}

static void transfer(actx *a, int idx, const bstate *in, bstate *out)
{
    const al_cfg_node *node = &a->f->cfg.nodes[idx];
    const al_pyfile *pf = a->f->env->pf;
    *out = *in;
    if (idx == a->alloc_node) {
        transfer_alloc(a, in, out);
        return;
    }
    const occlist *occ = &a->f->occ[idx];
    const al_closure *own = al_closure_at(&a->f->closures, &a->f->cfg, idx);
    bool calls = al_closures_called_at(&a->f->closures, idx);
    if ((occ->n == 0 && !calls) || in->nal == 0)
        return;
    al_use evs[64];
    int nev = 0;
    for (size_t i = 0; i < occ->n && nev < 64; i++) {
        for (int j = 0; j < in->nal; j++) {
            if (!name_eq(pf, occ->ids[i], in->al[j].name, in->al[j].len))
                continue;
            /* Named by a nested function: used where it is called. */
            if (al_closure_names(pf, &a->f->cfg, own, in->al[j].name, in->al[j].len))
                break;
            evs[nev] = al_use_classify(&a->uses, node, occ->ids[i], in->al[j].kind,
                                       in->al[j].region);
            through(&evs[nev++], &in->al[j]);
            break;
        }
    }
    if (calls)
        nev = closure_call_uses(a, idx, in, evs, nev, 64);
    /* Python evaluates operands before the store or call that writes. */
    for (int i = 0; i < nev; i++) {
        al_use *e = &evs[i];
        if (e->kind == AL_USE_RMW)
            a->accumulated = true, block_by(a, AL_BLOCK_ACCUMULATE, e);
        if (!out->pristine)
            continue;
        int j = e->stored && e->through_must ? find_alias(in, e->alias_name, e->alias_len) : -1;
        bool whole = j >= 0 && in->al[j].kind == AL_ALIAS_SAME; /* the buffer, not a view */
        bool loads = e->kind == AL_USE_READ && whole && !e->stores &&
                     al_pairs_load(&a->pairs, a->f->env, out->guard, a->param_mode, e);
        if (e->kind == AL_USE_READ && !loads)
            block_use(a, out, AL_BLOCK_READ, e);
        else if (e->kind == AL_USE_ESCAPE)
            block_use(a, out, e->not_found ? AL_BLOCK_NOT_FOUND : AL_BLOCK_ESCAPE, e);
        else if (e->kind == AL_USE_NEEDED && whole && e->stores)
            out->guard = al_pairs_store(&a->pairs, e);
        else if (e->kind == AL_USE_NEEDED)
            block_use(a, out, AL_BLOCK_CALLEE, e);
        else if (e->kind == AL_USE_UNREAD && !a->unread_by) {
            a->unread_by = al_xstrdup(e->evidence);
            a->unread_row = e->row;
            a->unread_assumes = e->unsafe && e->why ? al_xstrdup(e->why) : NULL;
            al_chain_append(&a->unread_chain, &e->chain);
        }
        else if (e->kind == AL_USE_RETURN && (!e->through_must || !a->returns_at))
            block_use(a, out, AL_BLOCK_ESCAPE, e);
        else if (e->kind == AL_USE_RETURN) {
            a->returns_at[idx] = 1;
            if (!a->returned)
                a->returned = e->row;
            if (e->akind != AL_ALIAS_SAME && e->akind != AL_ALIAS_RESHAPED)
                a->returns_whole = false;
        }
    }
    for (int i = 0; i < nev; i++) {
        al_use *e = &evs[i];
        if (e->kind == AL_USE_WRITE && e->zero_fill && a->refill_at) {
            bool still_zero = out->pristine && !out->written && !out->dirty && out->ncov == 0 &&
                              nev == 1 && e->through_must;
            a->refill_at[idx] = still_zero && a->refill_at[idx] != 2 ? 1 : 2;
        }
        if (e->kind == AL_USE_WRITE || e->kind == AL_USE_PARTIAL || e->kind == AL_USE_RMW) {
            out->dirty = a->touched = true;
            if (e->kind != AL_USE_WRITE || !misses_origin(&a->ext, e->region))
                a->origin_written = true;
        }
        if (e->kind == AL_USE_WRITE && e->through_must)
            apply_write(a, out, e->region, e->evidence, e->row, e);
    }
    /* Kills, then new bindings: `x = x.view(-1)` rebinds x to an alias. */
    bool was_pristine = out->pristine;
    for (int i = 0; i < nev; i++)
        if (evs[i].kind == AL_USE_KILL)
            kill_alias(out, evs[i].alias_name, evs[i].alias_len);
    /* An assignment to a tracked name that is not itself a use of the
     * buffer also rebinds it. */
    if (node->kind == AL_CFG_SIMPLE && al_node_is(node->eval, "expression_statement")) {
        TSNode asg = ts_node_named_child(node->eval, 0);
        while (al_node_is(asg, "assignment")) {
            TSNode left = al_node_field(asg, "left");
            if (al_node_is(left, "identifier")) {
                size_t len;
                const char *p = al_node_ptr(pf, left, &len);
                kill_alias(out, p, len);
            }
            asg = al_node_field(asg, "right");
        }
    }
    for (int i = 0; i < nev; i++) {
        al_use *e = &evs[i];
        if (e->kind == AL_USE_CREATE && was_pristine) {
            alias al = {e->target, e->target_len, e->akind, e->aregion, e->through_must,
                        e->via, e->via_row};
            if (e->evidence) { /* returned by a callee */
                al.via = al_intern(&a->f->strs, e->evidence, strlen(e->evidence));
                al.via_row = e->row;
            }
            add_alias(out, al);
            captured_early(a, e->target, e->target_len, node->eval);
        }
        al_use_free(e);
    }
    if (out->nal == 0)
        out->pristine = false; /* unreachable before anyone read it */
}

/* ------------------------------------------------------------------ */
/* Per-allocation analysis                                              */

/* The write of a loop's passes together, at its exit. */
static void loop_write(actx *a, bstate *s, const al_loop_cover *c, size_t row)
{
    bool first = !a->evidence;
    apply_write(a, s, c->region, c->form, row, NULL);
    if (c->assumes && !a->why)
        a->why = al_xstrdup(c->assumes);
    if (first && a->evidence && c->chunk)
        al_chain_add(&a->chain, a->f->env->path, row,
                     "each pass writes `%s`, one chunk of `%s`; the passes start at the range's "
                     "start and step by `%s` up to the bound, so together they write it all%s",
                     c->chunk, c->size, c->size,
                     c->assumes ? "" : " (the size is not negative, and a zero one raises)");
}

/* guards.c's question of the state: does name surely hold the buffer? */
static bool holds_buffer(void *ctx, const char *name, size_t len)
{
    const bstate *s = ctx;
    int k = find_alias(s, name, len);
    return k >= 0 && s->al[k].must && s->al[k].kind == AL_ALIAS_SAME;
}

static void propagate(actx *a, int from, const bstate *out, int *work, size_t *nwork,
                      bool *queued)
{
    const al_cfg_node *node = &a->f->cfg.nodes[from];
    /* An `if` whose condition is known where the buffer is held: the other
     * branch runs only where it is not (None instead, or never made). */
    int known = out->pristine ? al_guard_known(a->f->env->pf, a->f->func, node, a->site,
                                               holds_buffer, (void *)out)
                              : -1;
    for (size_t i = 0; i < node->n_succ; i++) {
        if ((known == 1 && i > 0) || (known == 0 && i == 0))
            continue;
        int to = node->succ[i];
        bstate edge = *out;
        /* The loop's exit edges (not the first, into the body) leave
         * after every iteration ran. */
        if (node->kind == AL_CFG_FOR_TARGET && i > 0 && edge.pristine) {
            for (int j = 0; j < edge.nal; j++) {
                if (!edge.al[j].must || edge.al[j].kind != AL_ALIAS_SAME)
                    continue;
                al_loop_cover c;
                if (al_loop_covers(a->f->env->pf, a->f->func, &a->ext, a->site, node->ast,
                                   edge.al[j].name, edge.al[j].len, &c)) {
                    loop_write(a, &edge, &c, al_node_row(node->ast));
                    al_loop_cover_free(&c);
                    break;
                }
            }
        }
        /* A callee that returns before writing its parameter leaves the
         * caller's values in place: a skip. Raising does not return. */
        if (a->param_mode && to == a->f->cfg.exit && edge.pristine && edge.nal > 0 &&
            !a->unwritten_exit && !al_node_is(node->eval, "raise_statement") &&
            !(a->returns_at && a->returns_at[from]))
            a->unwritten_exit = ts_node_is_null(node->ast) ? 1 : al_node_row(node->ast);
        if (join(&a->in[to], &edge) && !queued[to]) {
            queued[to] = true;
            work[(*nwork)++] = to;
        }
    }
}

/* Runs the dataflow from node `start`, whose out-state is `first`. */
static void run(actx *a, int start, const bstate *first)
{
    fctx *f = a->f;
    size_t n = f->cfg.n;
    a->in = al_xcalloc(n, sizeof(bstate));
    int *work = al_xmalloc(n * sizeof(int) * 2 + 16);
    bool *queued = al_xcalloc(n, sizeof(bool));
    size_t nwork = 0;
    for (size_t i = 0; i < f->nglobals; i++)
        if (strlen(f->globals[i]) == a->root_len &&
            memcmp(f->globals[i], a->root, a->root_len) == 0)
            block(a, AL_BLOCK_GLOBAL, 0);
    bstate out = *first;
    propagate(a, start, &out, work, &nwork, queued);
    size_t steps = 0, limit = n * 64 + 1024;
    while (nwork > 0 && steps++ < limit) {
        int idx = work[--nwork];
        queued[idx] = false;
        transfer(a, idx, &a->in[idx], &out);
        propagate(a, idx, &out, work, &nwork, queued);
    }
    if (nwork > 0)
        block(a, AL_BLOCK_READ, 0); /* did not converge: prove nothing */
    free(work);
    free(queued);
    free(a->in);
    a->in = NULL;
}

static void init_actx(actx *a, fctx *f, const char *root, size_t root_len, bool zero_fill)
{
    memset(a, 0, sizeof *a);
    a->f = f;
    a->alloc_node = -1;
    a->root = root;
    a->root_len = root_len;
    al_extents_init(&a->ext, f->env->pf, &f->strs, f->even, f->neven);
    a->desc.name = al_intern(&f->strs, root, root_len);
    a->desc.func = f->func;
    a->uses = (al_use_ctx){f->env, &a->ext, zero_fill, &a->desc};
}

static void free_actx(actx *a)
{
    al_extents_free(&a->ext);
    free(a->evidence);
    free(a->why);
    free(a->block_why);
    al_chain_free(&a->block_chain);
    al_chain_free(&a->chain);
    free(a->unread_by);
    free(a->unread_assumes);
    al_chain_free(&a->unread_chain);
    al_pairs_free(&a->pairs);
}

static void function_facts(fctx *f);

/* The reason that explains a block best: a callee that leaves elements,
 * then an accumulation, a read, a callee not found, an escape. */
static void shown_block(const actx *a, al_buffer *b)
{
    static const al_block_reason order[] = {AL_BLOCK_CALLEE, AL_BLOCK_ACCUMULATE, AL_BLOCK_READ,
                                            AL_BLOCK_NOT_FOUND, AL_BLOCK_ESCAPE, AL_BLOCK_GLOBAL};
    b->shown_block = b->block;
    b->shown_row = b->block_row;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (a->seen[order[i]] && a->seen_row[order[i]]) {
            b->shown_block = order[i];
            b->shown_row = a->seen_row[order[i]];
            return;
        }
}

static void consider_alloc(fctx *f, al_buffers *out, int node_idx)
{
    const al_file_env *env = f->env;
    al_buffer b;
    memset(&b, 0, sizeof b);
    if (!al_alloc_site_match(env->pf, &env->mod->imports, f->cfg.nodes[node_idx].eval, &b.site))
        return;
    function_facts(f);
    actx a;
    size_t root_len;
    const char *root = al_node_ptr(env->pf, b.site.target, &root_len);
    bool zeros = al_factory_is_zeros(b.site.factory);
    init_actx(&a, f, root, root_len, zeros);
    a.site = &b.site;
    a.alloc_node = node_idx;
    a.desc.site = &b.site;
    /* `n -= 1` after `zeros(n)`: later writes' `n` is another size. */
    a.desc.size_moved = al_rebound_after(env->pf, f->func, f->cfg.nodes[node_idx].eval,
                                         al_node_field(b.site.call, "arguments"));
    if (ts_node_is_null(a.desc.size_moved) &&
        (!ts_node_is_null(b.site.size_expr) || b.site.size_multiple))
        al_extents_read_shape(&a.ext, b.site.size_expr, b.site.size_multiple, &b.site.args, 0);
    if (zeros)
        a.refill_at = al_xcalloc(f->cfg.n, 1);
    bstate first, empty;
    memset(&empty, 0, sizeof empty);
    empty.reached = true;
    transfer(&a, node_idx, &empty, &first);
    run(&a, node_idx, &first);
    captured_early(&a, root, root_len, f->cfg.nodes[node_idx].eval);
    /* Escaped on some path: someone else may have written it. An accumulation is the
     * code's own write, seen on the path: a fill after it finds the state
     * dirty (refill_at 2), and one before it is redundant whatever the sum
     * does next. */
    bool trust_zero = !a.seen[AL_BLOCK_ESCAPE] && !a.seen[AL_BLOCK_GLOBAL] &&
                      !a.seen[AL_BLOCK_NOT_FOUND];
    for (size_t i = 0; trust_zero && a.refill_at && i < f->cfg.n; i++)
        if (a.refill_at[i] == 1)
            AL_PUSH(b.zero_refills, b.n_zero_refills, b.cap_zero_refills, f->cfg.nodes[i].eval);
    free(a.refill_at);
    if (a.blocked) {
        b.proof = AL_PROOF_BLOCKED;
        b.block = a.reason;
        b.block_row = a.reason_row;
        shown_block(&a, &b);
    } else if (a.completed_unsafe) {
        b.proof = AL_PROOF_OUTPUT_ONLY;
    } else if (a.completed_safe) {
        b.proof = AL_PROOF_FULL_WRITE;
    } else if (a.pairs.paired) {
        b.proof = AL_PROOF_GUARDED;
        al_pairs_take(&a.pairs, &a.evidence, &a.evidence_row, &a.why, &a.chain);
    } else if (a.unread_by && !a.touched) {
        b.proof = AL_PROOF_UNREAD;
        b.assumed = a.unread_assumes != NULL;
        free(a.why);
        a.why = a.unread_assumes;
        a.unread_assumes = NULL;
        a.evidence = a.unread_by;
        a.evidence_row = a.unread_row;
        al_chain_free(&a.chain);
        a.chain = a.unread_chain;
        a.unread_by = NULL;
        memset(&a.unread_chain, 0, sizeof a.unread_chain);
    } else {
        b.proof = AL_PROOF_NONE;
    }
    b.evidence = a.evidence;
    b.evidence_row = a.evidence_row;
    b.why = a.why;
    b.chain = a.chain;
    a.evidence = a.why = NULL;
    memset(&a.chain, 0, sizeof a.chain);
    if (a.blocked) {
        /* The reasons of what blocked it replace those of any write. */
        free(b.why);
        al_chain_free(&b.chain);
        b.why = a.block_why;
        b.chain = a.block_chain;
        a.block_why = NULL;
        memset(&a.block_chain, 0, sizeof a.block_chain);
    }
    AL_PUSH(out->items, out->n, out->cap, b);
    free_actx(&a);
}

/* ------------------------------------------------------------------ */
/* Functions                                                            */

static void collect_ids(TSNode n, occlist *out, bool into_blocks, int depth)
{
    if (depth > 400)
        return;
    uint32_t t = al_node_type_id(n);
    /* Blocks of clauses are nodes of their own in the graph. */
    if (!into_blocks && t == al_type_id("block"))
        return;
    if (t == al_type_id("identifier")) {
        AL_PUSH(out->ids, out->n, out->cap, n);
        return;
    }
    if (t == al_type_id("string") || t == al_type_id("comment") ||
        t == al_type_id("lambda_parameters") || t == al_type_id("dotted_name"))
        return;
    /* Attribute names and keyword names are not variable references. */
    if (t == al_type_id("attribute")) {
        collect_ids(al_node_field(n, "object"), out, into_blocks, depth + 1);
        return;
    }
    if (t == al_type_id("keyword_argument")) {
        collect_ids(al_node_field(n, "value"), out, into_blocks, depth + 1);
        return;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        collect_ids(ts_node_named_child(n, i), out, into_blocks, depth + 1);
}

/* `assert d % 2 == 0` makes d even. */
static void note_even(fctx *f, TSNode assert_stmt)
{
    const al_pyfile *pf = f->env->pf;
    TSNode c = ts_node_named_child(assert_stmt, 0);
    if (!al_node_is(c, "comparison_operator") || ts_node_named_child_count(c) != 2)
        return;
    TSNode l = ts_node_named_child(c, 0), r = ts_node_named_child(c, 1);
    long v;
    if (al_node_is(l, "binary_operator") && al_py_parse_long(pf, r, &v) && v == 0 &&
        al_node_text_eq(pf, al_node_field(l, "operator"), "%") &&
        al_py_parse_long(pf, al_node_field(l, "right"), &v) && v == 2) {
        const char *e = al_intern_node(&f->strs, pf, al_node_field(l, "left"));
        AL_PUSH(f->even, f->neven, f->capeven, e);
    }
}

static void scan_function_facts(fctx *f, TSNode n, int depth)
{
    if (depth > 400)
        return;
    uint32_t t = al_node_type_id(n);
    if (depth > 0 && (t == al_type_id("function_definition") || t == al_type_id("class_definition")))
        return;
    if (t == al_type_id("assert_statement"))
        note_even(f, n);
    if (t == al_type_id("global_statement") || t == al_type_id("nonlocal_statement")) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (al_node_is(c, "identifier")) {
                size_t len;
                const char *p = al_node_ptr(f->env->pf, c, &len);
                const char *s = al_intern(&f->strs, p, len);
                AL_PUSH(f->globals, f->nglobals, f->capglobals, s);
            }
        }
    }
    /* Statements hold the facts; an expression's names do not. */
    if (t == al_type_id("expression_statement") || t == al_type_id("return_statement"))
        return;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        scan_function_facts(f, ts_node_named_child(n, i), depth + 1);
}

static void open_function(fctx *f, const al_file_env *env, TSNode func)
{
    memset(f, 0, sizeof *f);
    f->env = env;
    f->func = func;
    al_cfg_build(&f->cfg, al_node_field(func, "body"));
}

/* What the dataflow reads besides the graph: each node's names, the
 * function's globals and even sizes, its closures. Made when a buffer is
 * first followed: most functions that name a factory make no buffer. */
static void function_facts(fctx *f)
{
    if (f->occ)
        return;
    f->occ = al_xcalloc(f->cfg.n ? f->cfg.n : 1, sizeof(occlist));
    for (size_t i = 0; i < f->cfg.n; i++)
        if (!ts_node_is_null(f->cfg.nodes[i].eval))
            collect_ids(f->cfg.nodes[i].eval, &f->occ[i], f->cfg.nodes[i].kind == AL_CFG_DEF, 0);
    scan_function_facts(f, al_node_field(f->func, "body"), 1);
    al_closures_find(f->env->pf, f->func, &f->cfg, f->globals, f->nglobals, &f->closures);
}

static void close_function(fctx *f)
{
    for (size_t i = 0; i < f->nce; i++)
        al_call_effect_free(&f->ce[i].e);
    free(f->ce);
    al_closures_free(&f->closures);
    for (size_t i = 0; f->occ && i < f->cfg.n; i++)
        free(f->occ[i].ids);
    free(f->occ);
    al_interner_free(&f->strs);
    free(f->even);
    free(f->globals);
    al_cfg_free(&f->cfg);
}

void al_buffers_analyse_function(al_buffers *out, const al_file_env *env, TSNode func)
{
    TSNode body = al_node_field(func, "body");
    if (ts_node_is_null(body) || !al_alloc_body_names_factory(env->pf, &env->mod->imports, body))
        return;
    fctx f;
    open_function(&f, env, func);
    for (size_t i = 0; i < f.cfg.n; i++)
        if (f.cfg.nodes[i].kind == AL_CFG_SIMPLE)
            consider_alloc(&f, out, (int)i);
    close_function(&f);
}

void al_buffer_param_effect(const al_file_env *env, TSNode func, const char *param,
                            al_call_effect *out)
{
    memset(out, 0, sizeof *out);
    fctx f;
    open_function(&f, env, func);
    function_facts(&f);
    al_strlist params = {0};
    al_py_param_names(env->pf, func, &params);
    actx a;
    init_actx(&a, &f, param, strlen(param), false);
    a.param_mode = true;
    a.desc.params = &params;
    a.desc.name = al_intern(&f.strs, param, strlen(param));
    a.returns_at = al_xcalloc(f.cfg.n ? f.cfg.n : 1, 1);
    a.returns_whole = true;
    bstate first;
    memset(&first, 0, sizeof first);
    first.reached = first.pristine = true;
    first.al[0] = (alias){a.desc.name, strlen(param), AL_ALIAS_SAME, AL_REGION_FULL, true, NULL, 0};
    first.nal = 1;
    run(&a, f.cfg.entry, &first);
    const char *why = NULL;
    if (a.blocked) {
        switch (a.reason) {
        case AL_BLOCK_READ: out->effect = AL_EFFECT_READS; why = "reads it before writing it"; break;
        case AL_BLOCK_ACCUMULATE: out->effect = AL_EFFECT_ACCUMULATES; why = "accumulates into it"; break;
        case AL_BLOCK_CALLEE: out->effect = AL_EFFECT_SKIPS; why = "hands it to a callee that may skip elements"; break;
        default: out->effect = AL_EFFECT_ESCAPES; why = "keeps it or hands it on before writing it"; break;
        }
        al_chain_add(&out->chain, env->path, a.reason_row, "%s", why);
    } else if (a.pairs.n || a.pairs.loaded) {
        al_pairs_export(&a.pairs, env, func, a.returned, a.touched, out);
    } else if (a.returned && (a.unwritten_exit || a.completed_safe || a.completed_unsafe ||
                              a.touched)) {
        /* Returned untouched on one path, written or dropped on another. */
        out->effect = AL_EFFECT_ESCAPES;
        why = "returns it untouched on some paths only";
        al_chain_add(&out->chain, env->path, a.returned, "%s", why);
    } else if (a.returned) {
        out->effect = AL_EFFECT_RETURNS_ALIAS;
        out->returns_whole = a.returns_whole;
        why = a.returns_whole ? "returns it, or a view of all of it" : "returns a part of it";
        al_chain_add(&out->chain, env->path, a.returned, "%s", why);
    } else if (a.unwritten_exit && (a.completed_safe || a.completed_unsafe)) {
        out->effect = AL_EFFECT_SKIPS;
        why = "leaves it unwritten on some path to its return";
        al_chain_add(&out->chain, env->path, a.unwritten_exit, "%s", why);
    } else if (a.completed_unsafe || (a.completed_safe && a.desc.conflict)) {
        out->effect = AL_EFFECT_WRITES_SOME;
        out->why = al_xstrdup(a.why ? a.why : "could not prove that every element is written");
        /* An op contract's rows, passed on to the caller to check. */
        if (!a.desc.conflict && a.desc.exported.kind == AL_REQ_ROWS_OF)
            out->req = a.desc.exported;
    } else if (a.completed_safe) {
        out->effect = AL_EFFECT_WRITES_ALL;
        out->req = a.desc.exported;
        if (!al_chain_store(&a.chain) && a.evidence) {
            al_chain_add(&out->chain, env->path, a.evidence_row, "writes it with %s", a.evidence);
            al_chain_mark_store(&out->chain);
        }
    } else if (a.unread_by && !a.touched) {
        out->effect = AL_EFFECT_UNREAD;
        out->assumed = a.unread_assumes != NULL;
        out->why = al_xstrdup(a.unread_assumes ? a.unread_assumes
                                               : "hands it to a callee that never reads its values");
        al_chain_add(&out->chain, env->path, a.unread_row, "hands it to %s", a.unread_by);
        al_chain_append(&out->chain, &a.unread_chain);
    } else if (a.touched && !a.origin_written) {
        out->effect = AL_EFFECT_WRITES_PART;
        why = "never writes its first element";
    } else if (a.touched) {
        /* Its writes cover regions that do not make up the buffer: what
         * they leave is the caller's zeros, so its fill is no waste. */
        out->effect = AL_EFFECT_WRITES_PART;
        why = "writes only part of it";
    } else {
        out->effect = AL_EFFECT_UNUSED;
    }
    if (why && !out->why)
        out->why = al_xstrdup(why);
    al_chain_append(&out->chain, &a.chain);
    free(a.returns_at);
    free_actx(&a);
    al_strlist_free(&params);
    close_function(&f);
}

void al_buffers_free(al_buffers *b)
{
    for (size_t i = 0; i < b->n; i++) {
        al_alloc_site_free(&b->items[i].site);
        free(b->items[i].evidence);
        free(b->items[i].why);
        al_chain_free(&b->items[i].chain);
        free(b->items[i].zero_refills);
    }
    free(b->items);
    memset(b, 0, sizeof *b);
}
