#include "filefacts.h"

#include "../../base/paths.h"
#include "../../front/pylex.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A walk's paths are packed in blocks that never move. */
typedef struct path_block {
    struct path_block *next;
    size_t used, cap;
    char bytes[];
} path_block;

typedef struct {
    char *root;
    al_project_files files;
} project_walk;

struct al_file_facts_table {
    pthread_mutex_t lock;
    /* An open-addressing table of the facts, keyed by the path each holds
     * (no copy of the key, no entry beside the pointer); cap a power of
     * two, at most half full. */
    al_file_facts **slots;
    size_t n, cap;
    project_walk *walks;
    size_t n_walks, cap_walks;
    path_block *blocks;
};

al_file_facts_table *al_file_facts_table_new(void)
{
    al_file_facts_table *t = al_xcalloc(1, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    return t;
}

static al_file_facts **slot(al_file_facts **slots, size_t cap, const char *path, size_t len)
{
    size_t h = (size_t)al_hash_bytes(path, len);
    for (size_t i = 0;; i++) {
        al_file_facts **e = &slots[(h + i) & (cap - 1)];
        if (!*e || (!strncmp((*e)->path, path, len) && !(*e)->path[len]))
            return e;
    }
}

static al_file_facts *table_get(const al_file_facts_table *t, const char *path, size_t len)
{
    return t->cap ? *slot(t->slots, t->cap, path, len) : NULL;
}

static void table_put(al_file_facts_table *t, al_file_facts *f)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        al_file_facts **s = al_xcalloc(cap, sizeof *s);
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i])
                *slot(s, cap, t->slots[i]->path, strlen(t->slots[i]->path)) = t->slots[i];
        free(t->slots);
        t->slots = s;
        t->cap = cap;
    }
    *slot(t->slots, t->cap, f->path, strlen(f->path)) = f;
    t->n++;
}

const char *al_file_facts_names(const al_file_facts *f, al_facts_list which, size_t *n)
{
    const char *p = f->names;
    for (int k = 0; k < (int)which; k++)
        for (uint32_t i = 0; i < f->n_names[k]; i++)
            p += strlen(p) + 1;
    *n = f->n_names[which];
    return p;
}

/* The facts record of path: the lists' names in one block. */
static al_file_facts *facts_new(const char *path, al_strlist lists[AL_FACTS_LISTS])
{
    size_t bytes = 0;
    for (size_t k = 0; k < AL_FACTS_LISTS; k++)
        for (size_t i = 0; i < lists[k].n; i++)
            bytes += strlen(lists[k].items[i]) + 1;
    al_file_facts *f = al_xcalloc(1, sizeof *f + bytes);
    f->path = path;
    char *at = f->names;
    for (size_t k = 0; k < AL_FACTS_LISTS; k++) {
        f->n_names[k] = (uint32_t)lists[k].n;
        for (size_t i = 0; i < lists[k].n; i++) {
            size_t len = strlen(lists[k].items[i]) + 1;
            memcpy(at, lists[k].items[i], len);
            at += len;
        }
    }
    return f;
}

void al_file_facts_table_free(al_file_facts_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->cap; i++)
        free(t->slots[i]);
    free(t->slots);
    for (size_t i = 0; i < t->n_walks; i++) {
        free(t->walks[i].root);
        free((void *)t->walks[i].files.py.items);
        free((void *)t->walks[i].files.cxx.items);
    }
    free(t->walks);
    while (t->blocks) {
        path_block *next = t->blocks->next;
        free(t->blocks);
        t->blocks = next;
    }
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* A copy of path in the table's blocks. */
static const char *keep_path(al_file_facts_table *t, const char *path)
{
    size_t len = strlen(path) + 1;
    path_block *b = t->blocks;
    if (!b || b->cap - b->used < len) {
        size_t cap = len > 60000 ? len : 60000;
        b = al_xmalloc(sizeof *b + cap);
        b->next = t->blocks;
        b->used = 0;
        b->cap = cap;
        t->blocks = b;
    }
    char *at = b->bytes + b->used;
    memcpy(at, path, len);
    b->used += len;
    return at;
}

typedef struct {
    al_file_facts_table *t;
    bool (*is_py)(const char *name);
    const char **py, **cxx;
    size_t n_py, cap_py, n_cxx, cap_cxx;
} walk_state;

static void found(const char *path, void *arg)
{
    walk_state *w = arg;
    const char *kept = keep_path(w->t, path);
    if (w->is_py(path))
        AL_PUSH(w->py, w->n_py, w->cap_py, kept);
    else
        AL_PUSH(w->cxx, w->n_cxx, w->cap_cxx, kept);
}

/* Where needle next occurs in src from p, or NULL. The bytes end in a
 * NUL (al_file_read_bytes): without one inside, strstr finds it, in a
 * quarter to a half of memmem's time with glibc (both checkouts' 98 MB
 * of Python: "custom_op" 4 against 12 ms, "def " 11 against 26). */
static const char *find(const al_source *src, const char *p, const char *needle, size_t n)
{
    if (!src->has_nul)
        return strstr(p, needle);
    return memmem(p, (size_t)(src->bytes + src->len - p), needle, n);
}

/* The methods a file defines: an indented `def name(`, not a dunder or a
 * name Python mangles (`__name`: no subclass overrides it); a byte scan,
 * nothing is parsed. A private `_name` counts: subclasses override it. */
static void read_methods(const al_source *src, al_strlist *out)
{
    const char *b = src->bytes, *end = src->bytes + src->len;
    while ((b = find(src, b, "def ", 4)) != NULL) {
        const char *q = b + 4;
        while (q < end && al_lex_ident_char((unsigned char)*q))
            q++;
        const char *ls = b;
        while (ls > src->bytes && (ls[-1] == ' ' || ls[-1] == '\t'))
            ls--;
        bool method = ls < b && (ls == src->bytes || ls[-1] == '\n') &&
                      !(b[4] == '_' && q > b + 5 && b[5] == '_');
        if (method && q < end && *q == '(' && q > b + 4)
            al_strlist_add(out, al_xstrndup(b + 4, (size_t)(q - b - 4)));
        b = q;
    }
}

/* The attribute names a file assigns on some object: `obj.name = ...`,
 * `obj.name: T = ...`, and `setattr(obj, "name", ...)` with the name
 * written out (a byte scan). An instance attribute hides the class's
 * method of that name. */
static void read_attrs(const al_source *src, al_strlist *out, al_strlist *on_self)
{
    const char *b = src->bytes, *end = src->bytes + src->len;
    for (const char *d = b; (d = memchr(d, '.', (size_t)(end - d))) != NULL; d++) {
        const char *q = d + 1;
        while (q < end && al_lex_ident_char((unsigned char)*q))
            q++;
        if (q == d + 1 || isdigit((unsigned char)d[1]))
            continue;
        const char *a = q;
        while (a < end && *a == ' ')
            a++;
        bool assigned = a + 1 < end && *a == '=' && a[1] != '=';
        if (!assigned && a < end && *a == ':' && (a + 1 >= end || a[1] != '=')) {
            /* `obj.name: T = v`: an `=` later on the line */
            for (const char *c = a + 1; c < end && *c != '\n' && !assigned; c++)
                assigned = *c == '=' && c[-1] != '=' && c[-1] != '!' && c[-1] != '<' &&
                           c[-1] != '>' && (c + 1 >= end || c[1] != '=');
        }
        if (!assigned)
            continue;
        const char *o = d;
        while (o > b && al_lex_ident_char((unsigned char)o[-1]))
            o--;
        /* `self.name` itself, not `x.self.name` */
        bool self = (o == b || o[-1] != '.') &&
                    ((d - o == 4 && !memcmp(o, "self", 4)) || (d - o == 3 && !memcmp(o, "cls", 3)));
        al_strlist_add(self ? on_self : out, al_xstrndup(d + 1, (size_t)(q - d - 1)));
    }
    for (const char *s = b; (s = find(src, s, "setattr(", 8)) != NULL; s += 8) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        e = e ? e : end;
        const char *qt = s + 8;
        while (qt < e && *qt != '"' && *qt != '\'')
            qt++;
        const char *n = qt + 1, *ne = n;
        while (ne < e && al_lex_ident_char((unsigned char)*ne))
            ne++;
        if (qt < e && ne < e && *ne == *qt && ne > n)
            al_strlist_add(out, al_xstrndup(n, (size_t)(ne - n)));
    }
}

al_project_files al_file_facts_project(al_file_facts_table *t, const char *root,
                                       bool (*want)(const char *name),
                                       bool (*is_py)(const char *name))
{
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->n_walks; i++)
        if (!strcmp(t->walks[i].root, root)) {
            al_project_files files = t->walks[i].files;
            pthread_mutex_unlock(&t->lock);
            return files;
        }
    /* Under the lock: a thread asking meanwhile waits for this walk. */
    walk_state w = {t, is_py, NULL, NULL, 0, 0, 0, 0};
    al_path_walk(root, want, found, &w);
    project_walk pw = {al_xstrdup(root), {{w.py, w.n_py}, {w.cxx, w.n_cxx}}};
    AL_PUSH(t->walks, t->n_walks, t->cap_walks, pw);
    pthread_mutex_unlock(&t->lock);
    return pw.files;
}

const al_file_facts *al_file_facts_of(al_file_facts_table *t, const char *path)
{
    size_t path_len = strlen(path);
    pthread_mutex_lock(&t->lock);
    al_file_facts *f = table_get(t, path, path_len);
    pthread_mutex_unlock(&t->lock);
    if (f)
        return f;
    /* Read outside the lock; a thread that read it meanwhile keeps its own. */
    al_strlist lists[AL_FACTS_LISTS];
    memset(lists, 0, sizeof lists);
    al_source src;
    al_source_status status = al_source_load_bytes(&src, path);
    unsigned long long hash = 0;
    bool markers = false;
    if (status == AL_SOURCE_OK) {
        hash = src.hash;
        markers = find(&src, src.bytes, "custom_op", 9) || find(&src, src.bytes, "impl(", 5);
        read_methods(&src, &lists[AL_FACTS_METHODS]);
        read_attrs(&src, &lists[AL_FACTS_ATTRS], &lists[AL_FACTS_SELF_ATTRS]);
        /* A file may assign one attribute hundreds of times: each name
         * is kept once, after the scan. */
        for (size_t k = 0; k < AL_FACTS_LISTS; k++)
            al_strlist_sort_unique(&lists[k]);
    }
    al_source_free(&src);
    f = facts_new(path, lists);
    for (size_t k = 0; k < AL_FACTS_LISTS; k++)
        al_strlist_free(&lists[k]);
    f->status = status;
    f->hash = hash;
    f->markers = markers;
    pthread_mutex_lock(&t->lock);
    al_file_facts *had = table_get(t, path, path_len);
    if (had) {
        free(f);
        f = had;
    } else {
        table_put(t, f);
    }
    pthread_mutex_unlock(&t->lock);
    return f;
}
