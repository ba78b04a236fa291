#include "cache.h"

#include "../base/paths.h"
#include "../rules/rules.h"
#include "../base/version.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define MAGIC "ALCACHE\x03"
#define MAGIC_LEN 8

typedef struct {
    char *path;
    uint64_t hash, len, options;
    bool uses_index;
    bool dropped;
    char *blob; /* the serialized findings */
    size_t blob_len;
    /* The file's stamp when it had these bytes, and when that was seen
     * (stamped_at 0: none). */
    al_file_stamp stamp;
    int64_t stamped_at;
} entry;

/* A stamp is taken for the bytes only when the file's last change is
 * older than this before the stamp was seen: a write in the same clock
 * tick as the stat would leave the stamp as it was ("racily clean"). */
#define STAMP_SETTLED_NS 2000000000LL

/* The operator schemas one C++ file gave, when it had these bytes. */
typedef struct {
    char *path;
    uint64_t hash;
    al_op_table ops;
} schema_record;

typedef struct {
    schema_record *items;
    size_t n, cap;
} schema_records;

struct al_cache {
    uint64_t settings, fingerprint;
    entry *entries;
    size_t n, cap;
    size_t *slots; /* open addressing over entries, index + 1; 0 empty */
    size_t n_slots;
    al_cache_dep *deps;
    size_t n_deps, cap_deps;
    schema_records schemas; /* as read back, sorted by path */
    schema_records schemas_next; /* this run's, to write */
};

uint64_t al_cache_hash(const void *bytes, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(bytes, len, seed);
}

/* The GNU build-id note of the running program (the linker's hash of its
 * contents), found among its program headers: no I/O. */
static int read_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uint64_t *id = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const char *name = p + sizeof *n;
            const char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
                *id = al_cache_hash(desc, n->n_descsz, 5);
                return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1; /* the first object is the program itself; the rest are libraries */
}

uint64_t al_cache_build_id(void)
{
    static uint64_t id;
    static bool known;
    if (known)
        return id;
    dl_iterate_phdr(read_build_id, &id);
    if (!id) {
        /* No note (another linker): the program's bytes, hashed. */
        FILE *f = fopen("/proc/self/exe", "rb");
        al_strbuf sb = {0};
        bool too_large;
        if (f && al_strbuf_read(&sb, f, 256u << 20, &too_large))
            id = al_cache_hash(sb.data ? sb.data : "", sb.len, 6);
        if (f)
            fclose(f);
        al_strbuf_free(&sb);
    }
    known = true;
    return id;
}

/* ------------------------------------------------------------------ */
/* Lookup                                                               */

static size_t *slot_for(const al_cache *c, const char *path)
{
    size_t mask = c->n_slots - 1;
    size_t i = (size_t)al_cache_hash(path, strlen(path), 0) & mask;
    for (;; i = (i + 1) & mask) {
        size_t *s = &c->slots[i];
        if (*s == 0 || !strcmp(c->entries[*s - 1].path, path))
            return s;
    }
}

/* Slots for `expected` entries (at least the ones held). */
static void rehash_for(al_cache *c, size_t expected)
{
    free(c->slots);
    c->n_slots = 64;
    while (c->n_slots < (expected > c->n ? expected : c->n) * 2 + 2)
        c->n_slots *= 2;
    c->slots = al_xcalloc(c->n_slots, sizeof *c->slots);
    for (size_t i = 0; i < c->n; i++)
        *slot_for(c, c->entries[i].path) = i + 1;
}

static void rehash(al_cache *c)
{
    rehash_for(c, c->n);
}

static void add_entry(al_cache *c, entry e)
{
    if ((c->n + 1) * 2 + 2 > c->n_slots)
        rehash(c);
    size_t *s = slot_for(c, e.path);
    if (*s) {
        entry *old = &c->entries[*s - 1];
        free(old->path);
        free(old->blob);
        *old = e;
        return;
    }
    AL_PUSH(c->entries, c->n, c->cap, e);
    *s = c->n;
}

/* ------------------------------------------------------------------ */
/* Serialization: little-endian integers, strings as u32 length + bytes */

static void put_u64(al_strbuf *b, uint64_t v)
{
    unsigned char x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    al_strbuf_append(b, (const char *)x, 8);
}

static void put_u32(al_strbuf *b, uint32_t v)
{
    unsigned char x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    al_strbuf_append(b, (const char *)x, 4);
}

static void put_u8(al_strbuf *b, unsigned v)
{
    char x = (char)v;
    al_strbuf_append(b, &x, 1);
}

static void put_str(al_strbuf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u32(b, (uint32_t)n);
    if (n)
        al_strbuf_append(b, s, n);
}

typedef struct {
    const unsigned char *p, *end;
    bool bad;
} reader;

static uint64_t get_u64(reader *r)
{
    if (r->bad || r->end - r->p < 8)
        return r->bad = true, 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    return v;
}

static uint32_t get_u32(reader *r)
{
    if (r->bad || r->end - r->p < 4)
        return r->bad = true, 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)r->p[i] << (8 * i);
    r->p += 4;
    return v;
}

static unsigned get_u8(reader *r)
{
    if (r->bad || r->end - r->p < 1)
        return r->bad = true, 0;
    return *r->p++;
}

/* A copy of the next string (NUL-terminated; no NUL inside). */
static char *get_str(reader *r)
{
    uint32_t n = get_u32(r);
    if (r->bad || (size_t)(r->end - r->p) < n || memchr(r->p, '\0', n)) {
        r->bad = true;
        return NULL;
    }
    char *s = al_xstrndup((const char *)r->p, n);
    r->p += n;
    return s;
}

/* src: the source the findings point into (NULL: none); an excerpt of it
 * is kept. */
static void put_findings(al_strbuf *b, const al_findings *f, const al_source *src)
{
    put_u32(b, (uint32_t)f->n);
    for (size_t i = 0; i < f->n; i++) {
        const al_finding *x = &f->items[i];
        put_str(b, x->code);
        put_str(b, x->message);
        put_u64(b, x->start);
        put_u64(b, x->end);
        put_u8(b, (unsigned char)x->removes);
        put_u8(b, x->fix != NULL);
        if (x->fix) {
            put_u8(b, x->fix->applicability);
            put_str(b, x->fix->message);
            put_u64(b, x->fix->scope_start);
            put_u64(b, x->fix->scope_end);
            put_u32(b, (uint32_t)x->fix->n_edits);
            for (size_t k = 0; k < x->fix->n_edits; k++) {
                put_u64(b, x->fix->edits[k].start);
                put_u64(b, x->fix->edits[k].end);
                put_str(b, x->fix->edits[k].content);
            }
        }
        put_u32(b, (uint32_t)x->n_notes);
        for (size_t k = 0; k < x->n_notes; k++) {
            put_str(b, x->notes[k].message);
            put_u8(b, x->notes[k].path != NULL);
            if (x->notes[k].path)
                put_str(b, x->notes[k].path);
            put_u64(b, x->notes[k].row);
        }
    }
    /* The lines the report shows and counts columns on, so that a later
     * run reports from the cache without reading the file: the excerpt
     * the job kept of it (jobs.c; never of a notebook or of a file with
     * a NUL byte). */
    bool keep = src && src->excerpt && f->n;
    put_u8(b, keep);
    if (!keep)
        return;
    put_u32(b, (uint32_t)src->n_excerpt);
    for (size_t i = 0; i < src->n_excerpt; i++) {
        const al_source_excerpt_line *l = &src->excerpt[i];
        put_u64(b, l->row);
        put_u64(b, l->start);
        put_u64(b, l->next);
        put_u32(b, (uint32_t)l->text_len);
        al_strbuf_append(b, src->bytes + l->text, l->text_len);
    }
}

/* The findings of a blob, and in *excerpt (when asked for and kept) the
 * lines they point at; false (out emptied) when it does not read back
 * whole. Codes must name a rule of this build. */
static bool get_findings(const char *blob, size_t len, const char *path, size_t file_len,
                         al_findings *out, al_source **excerpt)
{
    if (excerpt)
        *excerpt = NULL;
    reader r = {(const unsigned char *)blob, (const unsigned char *)blob + len, false};
    memset(out, 0, sizeof *out);
    uint32_t n = get_u32(&r);
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        char *code = get_str(&r);
        char *message = get_str(&r);
        uint64_t start = get_u64(&r), end = get_u64(&r);
        unsigned removes = get_u8(&r);
        const al_rule *rule = code ? al_rule_find(code) : NULL;
        free(code);
        if (!rule || r.bad || start > end || removes > AL_REMOVES_ALL_BUT_ONE) {
            free(message);
            r.bad = true;
            break;
        }
        al_fix *fix = NULL;
        if (get_u8(&r)) {
            unsigned app = get_u8(&r);
            char *fm = get_str(&r);
            if (r.bad || app > AL_FIX_DISPLAY_ONLY) {
                free(fm);
                free(message);
                r.bad = true;
                break;
            }
            fix = al_fix_new((al_applicability)app, fm);
            free(fm);
            fix->scope_start = (size_t)get_u64(&r);
            fix->scope_end = (size_t)get_u64(&r);
            uint32_t ne = get_u32(&r);
            for (uint32_t k = 0; k < ne && !r.bad; k++) {
                uint64_t es = get_u64(&r), ee = get_u64(&r);
                char *content = get_str(&r);
                if (!r.bad && es <= ee)
                    al_fix_add_edit(fix, (size_t)es, (size_t)ee, content);
                else
                    r.bad = true;
                free(content);
            }
        }
        al_findings_add(out, rule->code, rule->name, (size_t)start, (size_t)end,
                        message ? message : al_xstrdup(""), fix);
        al_findings_set_removes(out, (al_removes)removes);
        uint32_t nn = get_u32(&r);
        for (uint32_t k = 0; k < nn && !r.bad; k++) {
            char *nm = get_str(&r);
            char *np = get_u8(&r) ? get_str(&r) : NULL;
            uint64_t row = get_u64(&r);
            if (!r.bad)
                al_findings_note(out, np, (size_t)row, nm);
            free(nm);
            free(np);
        }
    }
    if (r.bad) {
        al_findings_free(out);
        return false;
    }
    /* Then the excerpt of the lines they point at, when one was kept. */
    bool held = get_u8(&r) != 0;
    al_source_excerpt_line *lines = NULL;
    char *text = NULL;
    size_t n_lines = held ? get_u32(&r) : 0, text_len = 0;
    if (held && !r.bad && n_lines <= (size_t)(r.end - r.p) / 28) {
        lines = al_xcalloc(n_lines ? n_lines : 1, sizeof *lines);
        al_strbuf t = {0};
        for (size_t i = 0; i < n_lines && !r.bad; i++) {
            lines[i].row = (size_t)get_u64(&r);
            lines[i].start = (size_t)get_u64(&r);
            lines[i].next = (size_t)get_u64(&r);
            uint32_t tl = get_u32(&r);
            if (r.bad || (size_t)(r.end - r.p) < tl) {
                r.bad = true;
                break;
            }
            lines[i].text = t.len;
            lines[i].text_len = tl;
            al_strbuf_append(&t, (const char *)r.p, tl);
            r.p += tl;
        }
        text_len = t.len;
        text = t.data ? al_strbuf_detach(&t) : al_xstrdup("");
    } else if (held) {
        r.bad = true;
    }
    bool whole = !r.bad && r.p == r.end;
    al_source *made = whole && held && excerpt ? al_xmalloc(sizeof *made) : NULL;
    if (made && !al_source_from_excerpt(made, path, file_len, lines, n_lines, text, text_len)) {
        free(made);
        made = NULL;
    }
    if (!made) {
        free(lines);
        free(text);
    }
    if (!whole) {
        al_findings_free(out);
        return false;
    }
    /* Every place a report asks about must be held, or the file is read. */
    size_t n_places = 0;
    size_t *places = made ? al_findings_places(out, &n_places) : NULL;
    for (size_t i = 0; made && i < n_places; i++)
        if (!al_source_holds(made, places[i])) {
            al_source_free(made);
            free(made);
            made = NULL;
        }
    free(places);
    if (excerpt)
        *excerpt = made;
    return true;
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

static char *cache_file(const char *dir, uint64_t settings)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s/%016llx.bin", dir, (unsigned long long)settings);
    return al_strbuf_detach(&sb);
}

/* The whole file in one read of the size stat gives (then to its end,
 * should it have grown), at most 1 GiB. */
static bool read_whole(const char *path, al_strbuf *out, bool *missing)
{
    *missing = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *missing = errno == ENOENT;
        return false;
    }
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 30);
    if (ok) {
        al_strbuf_reserve(out, (size_t)st.st_size + 1);
        al_prefault(out->data, out->cap);
    }
    while (ok) {
        if (out->cap - out->len < 2)
            al_strbuf_reserve(out, out->cap);
        ssize_t got = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            ok = got == 0;
            break;
        }
        out->len += (size_t)got;
        ok = out->len < (1u << 30);
    }
    close(fd);
    return ok;
}

static bool parse_cache(al_cache *c, const char *bytes, size_t len)
{
    if (len < MAGIC_LEN + 8 || memcmp(bytes, MAGIC, MAGIC_LEN))
        return false;
    reader tail = {(const unsigned char *)bytes + len - 8, (const unsigned char *)bytes + len,
                   false};
    if (get_u64(&tail) != al_cache_hash(bytes, len - 8, 0))
        return false;
    reader r = {(const unsigned char *)bytes + MAGIC_LEN, (const unsigned char *)bytes + len - 8,
                false};
    char *version = get_str(&r);
    bool same = version && !strcmp(version, ALLOCLINT_VERSION);
    free(version);
    if (!same || get_u64(&r) != c->settings)
        return false;
    c->fingerprint = get_u64(&r);
    uint32_t nd = get_u32(&r);
    for (uint32_t i = 0; i < nd && !r.bad; i++) {
        char *p = get_str(&r);
        uint64_t h = get_u64(&r);
        if (r.bad) {
            free(p);
            break;
        }
        al_cache_dep d = {p, h};
        AL_PUSH(c->deps, c->n_deps, c->cap_deps, d);
    }
    uint32_t ns = get_u32(&r);
    for (uint32_t i = 0; i < ns && !r.bad; i++) {
        schema_record rec = {get_str(&r), get_u64(&r), {0}};
        uint32_t no = get_u32(&r);
        for (uint32_t k = 0; k < no && !r.bad; k++) {
            al_op_summary op = {0};
            op.out_element = -1; /* schemas hand outputs whole */
            op.name = get_str(&r);
            op.out_keyword = get_u8(&r) ? get_str(&r) : NULL;
            op.out_position = (int)(int32_t)get_u32(&r);
            op.full_write = get_u8(&r) != 0;
            op.origin = get_u8(&r) ? get_str(&r) : NULL;
            op.library = get_u8(&r) != 0;
            /* Schemas say only that an argument may be changed. */
            op.writes = op.full_write ? AL_OP_WRITES_ALL : AL_OP_MUTATES;
            if (!op.name)
                r.bad = true;
            AL_PUSH(rec.ops.items, rec.ops.n, rec.ops.cap, op);
        }
        /* Written sorted by path, each once: anything else is not ours. */
        if (!rec.path || (c->schemas.n &&
                          strcmp(c->schemas.items[c->schemas.n - 1].path, rec.path) >= 0))
            r.bad = true;
        AL_PUSH(c->schemas.items, c->schemas.n, c->schemas.cap, rec);
    }
    uint32_t ne = get_u32(&r);
    /* Sized once: every entry takes at least its fixed fields. */
    if (!r.bad && ne <= (size_t)(r.end - r.p) / 64)
        rehash_for(c, ne);
    for (uint32_t i = 0; i < ne && !r.bad; i++) {
        entry e = {0};
        e.path = get_str(&r);
        e.hash = get_u64(&r);
        e.len = get_u64(&r);
        e.options = get_u64(&r);
        e.uses_index = get_u8(&r) != 0;
        e.stamp.dev = get_u64(&r);
        e.stamp.ino = get_u64(&r);
        e.stamp.size = get_u64(&r);
        e.stamp.mtime_ns = (int64_t)get_u64(&r);
        e.stamp.ctime_ns = (int64_t)get_u64(&r);
        e.stamped_at = (int64_t)get_u64(&r);
        uint32_t bl = get_u32(&r);
        if (r.bad || (size_t)(r.end - r.p) < bl) {
            free(e.path);
            r.bad = true;
            break;
        }
        e.blob = al_xstrndup((const char *)r.p, bl);
        e.blob_len = bl;
        r.p += bl;
        add_entry(c, e);
    }
    return !r.bad && r.p == r.end;
}

static void records_free(schema_records *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->items[i].path);
        al_ops_free(&s->items[i].ops);
    }
    free(s->items);
    memset(s, 0, sizeof *s);
}

static void clear(al_cache *c)
{
    records_free(&c->schemas);
    records_free(&c->schemas_next);
    for (size_t i = 0; i < c->n; i++) {
        free(c->entries[i].path);
        free(c->entries[i].blob);
    }
    for (size_t i = 0; i < c->n_deps; i++)
        free(c->deps[i].path);
    free(c->entries);
    free(c->slots);
    free(c->deps);
    c->entries = NULL;
    c->slots = NULL;
    c->deps = NULL;
    c->n = c->cap = c->n_slots = c->n_deps = c->cap_deps = 0;
    c->fingerprint = 0;
}

al_cache *al_cache_load(const char *dir, uint64_t settings, al_strbuf *warnings)
{
    al_cache *c = al_xcalloc(1, sizeof *c);
    c->settings = settings;
    rehash(c);
    char *path = cache_file(dir, settings);
    al_strbuf bytes = {0};
    bool missing;
    if (!read_whole(path, &bytes, &missing)) {
        if (!missing)
            al_strbuf_printf(warnings, "alloclint: warning: %s: cannot be read; the cache is "
                                       "rebuilt\n",
                             path);
    } else if (!parse_cache(c, bytes.data ? bytes.data : "", bytes.len)) {
        clear(c);
        rehash(c);
        al_strbuf_printf(warnings,
                         "alloclint: warning: %s: not a whole cache of this alloclint; "
                         "discarded\n",
                         path);
    }
    al_strbuf_free(&bytes);
    free(path);
    return c;
}

void al_cache_free(al_cache *c)
{
    if (!c)
        return;
    clear(c);
    free(c);
}

const al_cache_dep *al_cache_deps(const al_cache *c, size_t *n)
{
    *n = c->n_deps;
    return c->deps;
}

uint64_t al_cache_fingerprint(const al_cache *c)
{
    return c->fingerprint;
}

size_t al_cache_size(const al_cache *c)
{
    return c->n;
}

bool al_cache_get(const al_cache *c, const char *path, uint64_t hash, size_t len,
                  uint64_t options, bool project_ok, al_findings *out, al_source **excerpt)
{
    size_t s = *slot_for(c, path);
    if (!s)
        return false;
    const entry *e = &c->entries[s - 1];
    if (e->dropped || e->hash != hash || e->len != len || e->options != options ||
        (e->uses_index && !project_ok))
        return false;
    return get_findings(e->blob, e->blob_len, path, len, out, excerpt);
}

void al_cache_put(al_cache *c, const char *path, uint64_t hash, size_t len, uint64_t options,
                  bool uses_index, const al_findings *findings, const al_source *src,
                  const al_file_stamp *stamp, int64_t stamped_at)
{
    al_strbuf b = {0};
    put_findings(&b, findings, src);
    entry e = {al_xstrdup(path), hash, len, options, uses_index, false, NULL, b.len, {0}, 0};
    e.blob = al_strbuf_detach(&b);
    if (stamp) {
        e.stamp = *stamp;
        e.stamped_at = stamped_at;
    }
    add_entry(c, e);
}

/* Whether a stamp seen at `at` can vouch for the bytes: the file had not
 * changed for STAMP_SETTLED_NS before (a write within the same clock
 * tick as the stamp would not move it). */
static bool settled(const al_file_stamp *stamp, int64_t at)
{
    return stamp->ctime_ns < at - STAMP_SETTLED_NS && stamp->mtime_ns < at - STAMP_SETTLED_NS;
}

bool al_cache_stamped(const al_cache *c, const char *path, al_file_stamp *stamp, uint64_t *hash,
                      size_t *len)
{
    size_t s = *slot_for(c, path);
    if (!s)
        return false;
    const entry *e = &c->entries[s - 1];
    if (!e->stamped_at || !settled(&e->stamp, e->stamped_at))
        return false;
    *stamp = e->stamp;
    *hash = e->hash;
    *len = (size_t)e->len;
    return true;
}

bool al_cache_restamp(al_cache *c, const char *path, uint64_t hash, size_t len,
                      const al_file_stamp *stamp, int64_t stamped_at)
{
    size_t s = *slot_for(c, path);
    if (!s)
        return false;
    entry *e = &c->entries[s - 1];
    if (e->dropped || e->hash != hash || e->len != len)
        return false;
    /* The same stamp seen again is news only when it now vouches and did
     * not before: a file checked just after it was written would
     * otherwise be read on every run until it changed. */
    if (e->stamped_at && al_file_stamp_equal(&e->stamp, stamp) &&
        (settled(&e->stamp, e->stamped_at) || !settled(stamp, stamped_at)))
        return false;
    e->stamp = *stamp;
    e->stamped_at = stamped_at;
    return true;
}

void al_cache_keep_project(al_cache *c, bool project_ok)
{
    for (size_t i = 0; i < c->n && !project_ok; i++)
        if (c->entries[i].uses_index)
            c->entries[i].dropped = true;
}

/* mkdir -p, and on creation the files that keep the folder out of git
 * and of backups. */
static bool make_dir(const char *dir, al_strbuf *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            al_strbuf_printf(err, "%s: not a folder", dir);
        return S_ISDIR(st.st_mode);
    }
    char *copy = al_xstrdup(dir);
    for (char *p = copy + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            al_strbuf_printf(err, "%s: %s", copy, strerror(errno));
            free(copy);
            return false;
        }
        *p = '/';
    }
    free(copy);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        al_strbuf_printf(err, "%s: %s", dir, strerror(errno));
        return false;
    }
    static const char *const files[][2] = {
        {".gitignore", "# Created by alloclint: its cache, never committed.\n*\n"},
        {"CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                         "# This file is a cache directory tag created by alloclint.\n"},
    };
    for (size_t i = 0; i < 2; i++) {
        char *p = al_path_join(dir, files[i][0]);
        FILE *f = fopen(p, "wx");
        if (f) {
            fputs(files[i][1], f);
            fclose(f);
        }
        free(p);
    }
    return true;
}

static int compare_records(const void *x, const void *y)
{
    return strcmp(((const schema_record *)x)->path, ((const schema_record *)y)->path);
}

bool al_cache_schemas(const al_cache *c, const char *path, uint64_t hash, al_op_table *out)
{
    schema_record key = {(char *)path, 0, {0}};
    const schema_record *rec = c->schemas.n ? bsearch(&key, c->schemas.items, c->schemas.n,
                                                      sizeof key, compare_records)
                                            : NULL;
    if (!rec || rec->hash != hash)
        return false;
    al_ops_append(out, &rec->ops);
    return true;
}

void al_cache_put_schemas(al_cache *c, const char *path, uint64_t hash, const al_op_table *ops)
{
    schema_record rec = {al_xstrdup(path), hash, {0}};
    al_ops_append(&rec.ops, ops);
    AL_PUSH(c->schemas_next.items, c->schemas_next.n, c->schemas_next.cap, rec);
}

bool al_cache_save(al_cache *c, const char *dir, uint64_t fingerprint, const al_cache_dep *deps,
                   size_t n_deps, al_strbuf *err)
{
    if (!make_dir(dir, err))
        return false;
    al_strbuf b = {0};
    al_strbuf_append(&b, MAGIC, MAGIC_LEN);
    put_str(&b, ALLOCLINT_VERSION);
    put_u64(&b, c->settings);
    put_u64(&b, fingerprint);
    put_u32(&b, (uint32_t)n_deps);
    for (size_t i = 0; i < n_deps; i++) {
        put_str(&b, deps[i].path);
        put_u64(&b, deps[i].hash);
    }
    if (c->schemas_next.n > 1)
        qsort(c->schemas_next.items, c->schemas_next.n, sizeof *c->schemas_next.items,
              compare_records);
    put_u32(&b, (uint32_t)c->schemas_next.n);
    for (size_t i = 0; i < c->schemas_next.n; i++) {
        const schema_record *rec = &c->schemas_next.items[i];
        put_str(&b, rec->path);
        put_u64(&b, rec->hash);
        put_u32(&b, (uint32_t)rec->ops.n);
        for (size_t k = 0; k < rec->ops.n; k++) {
            const al_op_summary *op = &rec->ops.items[k];
            put_str(&b, op->name);
            put_u8(&b, op->out_keyword != NULL);
            if (op->out_keyword)
                put_str(&b, op->out_keyword);
            put_u32(&b, (uint32_t)(int32_t)op->out_position);
            put_u8(&b, op->full_write);
            put_u8(&b, op->origin != NULL);
            if (op->origin)
                put_str(&b, op->origin);
            put_u8(&b, op->library);
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < c->n; i++)
        kept += !c->entries[i].dropped;
    put_u32(&b, (uint32_t)kept);
    for (size_t i = 0; i < c->n; i++) {
        const entry *e = &c->entries[i];
        if (e->dropped)
            continue;
        put_str(&b, e->path);
        put_u64(&b, e->hash);
        put_u64(&b, e->len);
        put_u64(&b, e->options);
        put_u8(&b, e->uses_index);
        put_u64(&b, e->stamp.dev);
        put_u64(&b, e->stamp.ino);
        put_u64(&b, e->stamp.size);
        put_u64(&b, (uint64_t)e->stamp.mtime_ns);
        put_u64(&b, (uint64_t)e->stamp.ctime_ns);
        put_u64(&b, (uint64_t)e->stamped_at);
        put_u32(&b, (uint32_t)e->blob_len);
        al_strbuf_append(&b, e->blob, e->blob_len);
    }
    put_u64(&b, al_cache_hash(b.data, b.len, 0));
    char *path = cache_file(dir, c->settings);
    al_strbuf tmp = {0};
    al_strbuf_printf(&tmp, "%s.%ld.tmp", path, (long)getpid());
    bool ok = false;
    int fd = open(tmp.data, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) {
        size_t done = 0;
        while (done < b.len) {
            ssize_t w = write(fd, b.data + done, b.len - done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        ok = close(fd) == 0 && done == b.len && rename(tmp.data, path) == 0;
    }
    if (!ok) {
        al_strbuf_printf(err, "%s: %s", path, strerror(errno));
        unlink(tmp.data);
    }
    al_strbuf_free(&tmp);
    al_strbuf_free(&b);
    free(path);
    return ok;
}
