#include "passed.h"

#include "module.h"
#include "uses.h"
#include "contract.h"
#include "values.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* nn.init functions that write every element of their tensor. */
static const char *const INIT_FULL[] = {
    "trunc_normal_", "normal_",         "uniform_",         "constant_",
    "ones_",         "zeros_",          "xavier_uniform_",  "xavier_normal_",
    "kaiming_uniform_", "kaiming_normal_", "orthogonal_",   "eye_",
    "dirac_",        NULL};
/* Tensor methods that write every element of their receiver. */
static const char *const METHOD_FULL[] = {"normal_", "uniform_", "fill_", "zero_", "copy_",
                                          "exponential_", "geometric_", "log_normal_",
                                          "cauchy_", "random_", NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return true;
    return false;
}

static void add_site(al_buffers *out, al_alloc_site *site, al_proof proof, const char *evidence,
                     size_t evidence_row, char *why, al_chain *chain)
{
    al_buffer b;
    memset(&b, 0, sizeof b);
    b.site = *site;
    b.proof = proof;
    b.evidence = al_xstrdup(evidence);
    b.evidence_row = evidence_row;
    b.why = why;
    if (chain)
        b.chain = *chain;
    AL_PUSH(out->items, out->n, out->cap, b);
}

/* The text of what a factory's first dimension is, read in func: its
 * first size, or dimension 0 of the tensor it is made like; NULL when
 * the call does not say. */
static char *first_dim(const al_pyfile *pf, TSNode func, const al_alloc_site *s)
{
    bool like = s->factory == AL_FACTORY_ZEROS_LIKE || s->factory == AL_FACTORY_ONES_LIKE ||
                s->factory == AL_FACTORY_FULL_LIKE;
    TSNode first = {0};
    if (like && s->args.npos > 0) {
        char *t = al_value_text(pf, func, s->call, s->args.pos[0]);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s.shape[0]", t);
        free(t);
        return al_strbuf_detach(&sb);
    }
    if (s->size_multiple && s->args.npos > 0) {
        first = s->args.pos[0];
    } else if (!ts_node_is_null(s->size_expr)) {
        TSNode e = al_py_unparen(s->size_expr);
        TSNode items[8];
        if (al_py_elements(e, items, 8) >= 1 && !al_node_is(items[0], "list_splat"))
            first = items[0];
    }
    return ts_node_is_null(first) ? NULL : al_value_text(pf, func, s->call, first);
}

/* Whether the factory has exactly the rows of argument arg's dimension dim. */
static bool has_rows_of(const al_pyfile *pf, TSNode func, const al_alloc_site *s, TSNode arg,
                        int dim)
{
    char *mine = first_dim(pf, func, s);
    bool same = mine && al_value_rows_match(pf, func, s->call, arg, dim,
                                            (const char *const *)&mine, 1);
    free(mine);
    return same;
}

/* `op(..., out=torch.zeros(...))`: no one else holds the buffer, so what
 * the op does to that argument decides, by its contract or summary. */
static void passed_to_op(al_buffers *out, const al_file_env *env, TSNode func, TSNode call,
                         int pos, TSNode kw, al_alloc_site *s)
{
    const al_pyfile *pf = env->pf;
    TSNode fn = al_node_field(call, "function");
    char *q = al_imports_resolve(&env->mod->imports, pf, fn);
    char *shown = q ? al_xstrdup(q) : al_node_text_compact(pf, fn);
    size_t kwlen = 0;
    const char *kwp = ts_node_is_null(kw) ? NULL : al_node_ptr(pf, kw, &kwlen);
    al_strbuf name = {0};
    if (kwp)
        al_strbuf_printf(&name, "passed as `%.*s=` to `%s`", (int)kwlen, kwp, shown);
    else
        al_strbuf_printf(&name, "passed as argument %d to `%s`", pos, shown);
    s->name = al_strbuf_detach(&name);
    al_strbuf evidence = {0};
    al_strbuf_printf(&evidence, "`%s`", shown);
    size_t row = al_node_row(call);
    const al_op_summary *op = q ? al_ops_find_output(env->ops, q, pos, kwp, kwlen) : NULL;
    char given[64];
    /* Outside its contract (`unless`): part of the output, at most. */
    bool voided = op && al_contract_voided(pf, call, op, given, sizeof given);
    al_call_effect e;
    memset(&e, 0, sizeof e);
    bool added = false;
    if (voided) {
        /* nothing proved */
    } else if (op) {
        if (op->writes == AL_OP_WRITES_ALL && !op->library) {
            add_site(out, s, AL_PROOF_FULL_WRITE, evidence.data, row, NULL, NULL);
            added = true;
        } else if (op->writes == AL_OP_WRITES_ALL || op->writes == AL_OP_WRITES_SOME ||
                   (op->writes == AL_OP_WRITES_ROWS &&
                    has_rows_of(pf, func, s, al_contract_argument(pf, call, op, op->rows_param),
                                op->rows_dim))) {
            add_site(out, s, AL_PROOF_OUTPUT_ONLY, evidence.data, row, al_contract_why(op, shown),
                     NULL);
            added = true;
        }
    } else if (env->index && al_callee_effect(env, call, pos, kw, &e)) {
        bool rows = e.req.kind == AL_REQ_ROWS_OF &&
                    has_rows_of(pf, func, s, e.req.node, e.req.dim);
        al_chain chain = {0};
        al_chain_add(&chain, env->path, row, "handed to %s here", e.callee);
        al_chain_append(&chain, &e.chain);
        if (e.effect == AL_EFFECT_WRITES_ALL && (e.req.kind == AL_REQ_NONE || rows)) {
            add_site(out, s, AL_PROOF_FULL_WRITE, e.callee, row, NULL, &chain);
            added = true;
        } else if (e.effect == AL_EFFECT_WRITES_SOME && (e.req.kind == AL_REQ_NONE || rows)) {
            add_site(out, s, AL_PROOF_OUTPUT_ONLY, e.callee, row,
                     e.why ? al_xstrdup(e.why) : NULL, &chain);
            added = true;
        } else {
            al_chain_free(&chain);
        }
        al_call_effect_free(&e);
    }
    if (!added)
        al_alloc_site_free(s);
    al_strbuf_free(&evidence);
    free(shown);
    free(q);
}

/* Whether stmt writes every element of the tensor spelled `target`: an
 * nn.init function or a filling method on it (or on its .data). */
static bool initializes(const al_file_env *env, TSNode stmt, const char *target,
                        const char **how)
{
    const al_pyfile *pf = env->pf;
    TSNode call = al_py_statement_call(stmt);
    if (ts_node_is_null(call))
        return false;
    TSNode fn = al_node_field(call, "function");
    al_py_args a;
    al_py_args_read(call, &a);
    char *q = al_imports_resolve(&env->mod->imports, pf, fn);
    bool ok = false;
    if (q && al_str_starts_with(q, "torch.nn.init.") && in_list(INIT_FULL, q + 14)) {
        TSNode t = a.npos > 0 ? a.pos[0] : al_py_kwarg(pf, &a, "tensor");
        char *text = ts_node_is_null(t) ? NULL : al_node_text_compact(pf, t);
        ok = text && !strcmp(text, target);
        for (size_t i = 0; INIT_FULL[i]; i++)
            if (!strcmp(INIT_FULL[i], q + 14))
                *how = INIT_FULL[i];
        free(text);
    } else if (al_node_is(fn, "attribute")) {
        char *obj = al_node_text_compact(pf, al_node_field(fn, "object"));
        char *m = al_node_text(pf, al_node_field(fn, "attribute"));
        size_t tl = strlen(target);
        bool on_target = !strcmp(obj, target) ||
                         (!strncmp(obj, target, tl) && !strcmp(obj + tl, ".data"));
        for (size_t i = 0; on_target && METHOD_FULL[i]; i++)
            if (!strcmp(m, METHOD_FULL[i])) {
                ok = true;
                *how = METHOD_FULL[i];
            }
        free(obj);
        free(m);
    }
    free(q);
    return ok;
}

/* Whether a statement might read `target`: it names it, or calls a
 * method of self or hands self on (which could reach it). */
static bool may_touch(const al_pyfile *pf, TSNode stmt, const char *target, bool attribute)
{
    char *text = al_node_text_compact(pf, stmt);
    bool touch = strstr(text, target) != NULL;
    if (!touch && attribute) {
        /* self.foo(...), f(self), getattr(self, ...) */
        for (const char *p = strstr(text, "self"); p && !touch; p = strstr(p + 1, "self")) {
            bool word = (p == text || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                        (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                        (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'));
            if (!word)
                continue;
            const char *after = p + 4;
            if (*after == ',' || *after == ')')
                touch = true; /* handed on */
            else if (*after == '.') {
                after++;
                after += strspn(after, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789_");
                touch = *after == '('; /* a method call */
            }
        }
    }
    free(text);
    return touch;
}

/* `T = nn.Parameter(torch.zeros(...))`: the parameter shares the
 * factory's storage. When the statements after it, before anything could
 * read T, come to an initializer that writes all of T, the fill is never
 * seen. A parameter left for the weight loader gets nothing. */
static void parameter_data(al_buffers *out, const al_file_env *env, TSNode call, al_alloc_site *s)
{
    const al_pyfile *pf = env->pf;
    TSNode asg = ts_node_parent(call);
    TSNode stmt = ts_node_parent(asg);
    if (!al_node_is(asg, "assignment") || !al_py_node_eq(al_node_field(asg, "right"), call) ||
        !al_node_is(stmt, "expression_statement")) {
        al_alloc_site_free(s);
        return;
    }
    TSNode left = al_node_field(asg, "left");
    bool attribute = al_node_is(left, "attribute");
    if (!attribute && !al_node_is(left, "identifier")) {
        al_alloc_site_free(s);
        return;
    }
    char *target = al_node_text_compact(pf, left);
    bool found = false;
    for (TSNode n = ts_node_next_named_sibling(stmt); !ts_node_is_null(n);
         n = ts_node_next_named_sibling(n)) {
        if (al_node_is(n, "comment"))
            continue;
        const char *how = NULL;
        if (initializes(env, n, target, &how)) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "kept as parameter `%s`", target);
            s->name = al_strbuf_detach(&sb);
            al_strbuf ev = {0};
            al_strbuf_printf(&ev, "`%s`", how);
            al_chain chain = {0};
            al_chain_add(&chain, env->path, al_node_row(call),
                         "`nn.Parameter` keeps the factory's storage as `%s`", target);
            al_chain_add(&chain, env->path, al_node_row(n), "`%s` writes every element of it",
                         how);
            add_site(out, s, AL_PROOF_FULL_WRITE, ev.data, al_node_row(n), NULL, &chain);
            al_strbuf_free(&ev);
            found = true;
            break;
        }
        if (may_touch(pf, n, target, attribute))
            break;
    }
    if (!found)
        al_alloc_site_free(s);
    free(target);
}

static bool is_parameter_class(const al_file_env *env, TSNode call)
{
    char *q = al_imports_resolve(&env->mod->imports, env->pf, al_node_field(call, "function"));
    bool yes = q && (!strcmp(q, "torch.nn.Parameter") || !strcmp(q, "torch.nn.parameter.Parameter"));
    free(q);
    return yes;
}

/* Whether n's bytes name a fill factory (zeros, ones, full and their
 * forms): the cheap test before an argument, or a function, is read. */
static bool names_fill(const al_pyfile *pf, TSNode n)
{
    const char *text = pf->src->bytes + ts_node_start_byte(n);
    size_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    return memmem(text, len, "zeros", 5) || memmem(text, len, "ones", 4) ||
           memmem(text, len, "full", 4);
}

static void visit(al_buffers *out, const al_file_env *env, TSNode func, TSNode n, int depth)
{
    if (depth > 300)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
                      al_node_is(n, "lambda")))
        return;
    if (al_node_is(n, "call")) {
        TSNode args = al_node_field(n, "arguments");
        uint32_t k = ts_node_named_child_count(args);
        int pos = 0;
        for (uint32_t i = 0; i < k; i++) {
            TSNode arg = ts_node_named_child(args, i);
            TSNode kw = {0}, value = arg;
            if (al_node_is(arg, "keyword_argument")) {
                kw = al_node_field(arg, "name");
                value = al_node_field(arg, "value");
            } else if (al_node_is(arg, "list_splat") || al_node_is(arg, "dictionary_splat")) {
                break; /* positions after a splat are not known */
            }
            al_alloc_site s;
            if (al_node_is(value, "call") && names_fill(env->pf, al_node_field(value, "function")) &&
                al_alloc_call_match(env->pf, &env->mod->imports, value, &s)) {
                if (is_parameter_class(env, n))
                    parameter_data(out, env, n, &s);
                else
                    passed_to_op(out, env, func, n, ts_node_is_null(kw) ? pos : -1, kw, &s);
            }
            if (ts_node_is_null(kw))
                pos++;
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        visit(out, env, func, ts_node_named_child(n, i), depth + 1);
}

void al_passed_factories_analyse(al_buffers *out, const al_file_env *env, TSNode func)
{
    /* Most functions name no fill factory: not walked. */
    if (!names_fill(env->pf, func))
        return;
    visit(out, env, func, al_node_field(func, "body"), 1);
}
