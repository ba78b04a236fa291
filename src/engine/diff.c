#include "diff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p;
    size_t len; /* including the line terminator, if any */
    uint64_t hash;
} line;

typedef struct {
    line *v;
    size_t n;
} lines;

static uint64_t fnv(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ull;
    }
    return h;
}

static lines split(const char *text, size_t len)
{
    lines out = {NULL, 0};
    size_t cap = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || text[i] == '\n') {
            size_t end = i < len ? i + 1 : i;
            if (end > start) {
                line l = {text + start, end - start, fnv(text + start, end - start)};
                AL_PUSH(out.v, out.n, cap, l);
            }
            start = end;
        }
    }
    return out;
}

static bool line_eq(const line *a, const line *b)
{
    return a->hash == b->hash && a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

typedef enum { OP_EQ, OP_DEL, OP_INS } op_kind;

typedef struct {
    op_kind kind;
    size_t a, b; /* line index in old / new */
} op;

/* Myers' greedy O(ND) diff; keeps each round's frontier to walk back. */
static op *myers(const lines *A, const lines *B, size_t *nops)
{
    long n = (long)A->n, m = (long)B->n, max = n + m;
    long off = max + 1;
    long *v = calloc((size_t)(2 * max + 3), sizeof(long));
    long **trace = NULL;
    size_t ntrace = 0, captrace = 0;
    if (!v)
        abort();
    long dfound = -1;
    for (long d = 0; d <= max; d++) {
        long *snap = al_xmalloc((size_t)(2 * d + 1) * sizeof(long));
        for (long k = -d; k <= d; k++)
            snap[k + d] = v[k + off];
        AL_PUSH(trace, ntrace, captrace, snap);
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (k == -d || (k != d && v[k - 1 + off] < v[k + 1 + off]))
                x = v[k + 1 + off];
            else
                x = v[k - 1 + off] + 1;
            long y = x - k;
            while (x < n && y < m && line_eq(&A->v[x], &B->v[y])) {
                x++;
                y++;
            }
            v[k + off] = x;
            if (x >= n && y >= m) {
                dfound = d;
                goto done;
            }
        }
    }
done:;
    /* Walk back through the snapshots (taken before each round). */
    op *ops = al_xmalloc((size_t)(n + m + 1) * sizeof(op));
    size_t count = 0;
    long x = n, y = m;
    for (long d = dfound; d > 0; d--) {
        long *prev = trace[d]; /* v at the start of round d, k in [-d, d] */
        long k = x - y;
        long prev_k;
        long vkm1 = (k - 1 >= -(d - 1) && k - 1 <= d - 1) ? prev[k - 1 + d] : -1;
        long vkp1 = (k + 1 >= -(d - 1) && k + 1 <= d - 1) ? prev[k + 1 + d] : -1;
        if (k == -d || (k != d && vkm1 < vkp1))
            prev_k = k + 1;
        else
            prev_k = k - 1;
        long prev_x = prev[prev_k + d];
        long prev_y = prev_x - prev_k;
        while (x > prev_x && y > prev_y) {
            ops[count++] = (op){OP_EQ, (size_t)(x - 1), (size_t)(y - 1)};
            x--;
            y--;
        }
        if (x == prev_x)
            ops[count++] = (op){OP_INS, (size_t)x, (size_t)(y - 1)};
        else
            ops[count++] = (op){OP_DEL, (size_t)(x - 1), (size_t)y};
        x = prev_x;
        y = prev_y;
    }
    while (x > 0 && y > 0) {
        ops[count++] = (op){OP_EQ, (size_t)(x - 1), (size_t)(y - 1)};
        x--;
        y--;
    }
    for (size_t i = 0; i < count / 2; i++) {
        op t = ops[i];
        ops[i] = ops[count - 1 - i];
        ops[count - 1 - i] = t;
    }
    for (size_t i = 0; i < ntrace; i++)
        free(trace[i]);
    free(trace);
    free(v);
    *nops = count;
    return ops;
}

static void emit_line(al_strbuf *out, char prefix, const line *l)
{
    al_strbuf_putc(out, prefix);
    al_strbuf_append(out, l->p, l->len);
    if (l->len == 0 || l->p[l->len - 1] != '\n')
        al_strbuf_puts(out, "\n\\ No newline at end of file\n");
}

void al_diff_unified(al_strbuf *out, const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len, int context)
{
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0)
        return;
    lines A = split(old_text, old_len), B = split(new_text, new_len);
    size_t nops;
    op *ops = myers(&A, &B, &nops);
    al_strbuf_printf(out, "--- a/%s\n+++ b/%s\n", path, path);
    size_t i = 0;
    while (i < nops) {
        /* Find the next change. */
        while (i < nops && ops[i].kind == OP_EQ)
            i++;
        if (i == nops)
            break;
        size_t first = i >= (size_t)context ? i - (size_t)context : 0;
        /* Extend while the gap to the next change is within 2*context. */
        size_t last = i;
        for (;;) {
            while (last < nops && ops[last].kind != OP_EQ)
                last++;
            size_t eq = last;
            while (eq < nops && ops[eq].kind == OP_EQ)
                eq++;
            if (eq < nops && eq - last <= (size_t)(2 * context)) {
                last = eq;
                continue;
            }
            last = last + (size_t)context < nops ? last + (size_t)context : nops;
            if (last > eq)
                last = eq;
            break;
        }
        size_t a_start = 0, b_start = 0, a_len = 0, b_len = 0;
        bool a_set = false, b_set = false;
        for (size_t j = first; j < last; j++) {
            if (ops[j].kind != OP_INS) {
                if (!a_set)
                    a_start = ops[j].a, a_set = true;
                a_len++;
            }
            if (ops[j].kind != OP_DEL) {
                if (!b_set)
                    b_start = ops[j].b, b_set = true;
                b_len++;
            }
        }
        if (!a_set)
            a_start = ops[first].a; /* empty side: the line before, 0-based */
        if (!b_set)
            b_start = ops[first].b;
        al_strbuf_printf(out, "@@ -%zu", a_len ? a_start + 1 : a_start);
        if (a_len != 1)
            al_strbuf_printf(out, ",%zu", a_len);
        al_strbuf_printf(out, " +%zu", b_len ? b_start + 1 : b_start);
        if (b_len != 1)
            al_strbuf_printf(out, ",%zu", b_len);
        al_strbuf_puts(out, " @@\n");
        for (size_t j = first; j < last; j++) {
            if (ops[j].kind == OP_EQ)
                emit_line(out, ' ', &A.v[ops[j].a]);
            else if (ops[j].kind == OP_DEL)
                emit_line(out, '-', &A.v[ops[j].a]);
            else
                emit_line(out, '+', &B.v[ops[j].b]);
        }
        i = last;
    }
    free(ops);
    free(A.v);
    free(B.v);
}

size_t al_diff_line_origins(const char *old_text, size_t old_len, const char *new_text,
                            size_t new_len, size_t **lo, size_t **hi)
{
    lines A = split(old_text, old_len), B = split(new_text, new_len);
    size_t nops;
    op *ops = myers(&A, &B, &nops);
    *lo = al_xcalloc(B.n ? B.n : 1, sizeof(size_t));
    *hi = al_xcalloc(B.n ? B.n : 1, sizeof(size_t));
    size_t i = 0;
    while (i < nops) {
        if (ops[i].kind == OP_EQ) {
            (*lo)[ops[i].b] = ops[i].a;
            (*hi)[ops[i].b] = ops[i].a + 1;
            i++;
            continue;
        }
        /* One change: the old lines it deletes, the new lines it inserts. */
        size_t j = i, a_lo = SIZE_MAX, a_hi = 0;
        for (; j < nops && ops[j].kind != OP_EQ; j++)
            if (ops[j].kind == OP_DEL) {
                a_lo = ops[j].a < a_lo ? ops[j].a : a_lo;
                a_hi = ops[j].a + 1 > a_hi ? ops[j].a + 1 : a_hi;
            }
        if (a_lo == SIZE_MAX)
            a_lo = a_hi = 0;
        for (size_t k = i; k < j; k++)
            if (ops[k].kind == OP_INS) {
                (*lo)[ops[k].b] = a_lo;
                (*hi)[ops[k].b] = a_hi;
            }
        i = j;
    }
    free(ops);
    free(A.v);
    size_t n = B.n;
    free(B.v);
    return n;
}
