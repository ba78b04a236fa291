#include "pyast.h"

#include "../prefilter.h"
#include "../pylex.h"

#include "../../base/util.h"

#include <ctype.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const TSLanguage *tree_sitter_python(void);
static bool parse_now(al_pyfile *pf, const al_source *src, const TSRange *ranges, uint32_t n);

/* What every parse of the run cost (bench/speed.sh reads it through
 * ALLOCLINT_TIMING): files, bytes handed to the parser, thread CPU time. */
static _Atomic unsigned long long parsed_files, parsed_bytes, parse_nanos;

static unsigned long long thread_nanos(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

void al_pyfile_parse_stats(unsigned long long *files, unsigned long long *bytes, double *seconds)
{
    *files = parsed_files;
    *bytes = parsed_bytes;
    *seconds = (double)parse_nanos / 1e9;
}

/* Parses src, within ranges when n > 0. */
static bool parse(al_pyfile *pf, const al_source *src, const TSRange *ranges, uint32_t n)
{
    unsigned long long start = thread_nanos(), bytes = 0;
    for (uint32_t i = 0; i < n; i++)
        bytes += ranges[i].end_byte - ranges[i].start_byte;
    parsed_files++;
    parsed_bytes += n ? bytes : src->len;
    bool ok = parse_now(pf, src, ranges, n);
    parse_nanos += thread_nanos() - start;
    return ok;
}

/* One parser per thread, kept between parses: a tree does not need its
 * parser, and a parser keeps the buffers its largest parse grew (its
 * stack), so one per tree held hundreds of them for the run (56 MB of a
 * cold run's heap over both checkouts). Deleted when its thread ends. */
static pthread_key_t parser_key;
static pthread_once_t parser_once = PTHREAD_ONCE_INIT;
/* Every live thread's parser, reachable from here too: the main thread's
 * lives until exit, and a leak check that does not read thread-specific
 * data (LSAN_OPTIONS=use_tls=0, scripts/test.sh) must still find it. */
static TSParser **parsers;
static size_t n_parsers, cap_parsers;
static pthread_mutex_t parsers_lock = PTHREAD_MUTEX_INITIALIZER;

static void parser_delete(void *p)
{
    pthread_mutex_lock(&parsers_lock);
    for (size_t i = 0; i < n_parsers; i++)
        if (parsers[i] == p) {
            parsers[i] = parsers[--n_parsers];
            break;
        }
    pthread_mutex_unlock(&parsers_lock);
    ts_parser_delete(p);
}

static void parser_key_make(void)
{
    if (pthread_key_create(&parser_key, parser_delete) != 0)
        abort();
}

static TSParser *thread_parser(void)
{
    pthread_once(&parser_once, parser_key_make);
    TSParser *p = pthread_getspecific(parser_key);
    if (!p) {
        p = ts_parser_new();
        if (!p || !ts_parser_set_language(p, tree_sitter_python())) {
            if (p)
                ts_parser_delete(p);
            return NULL;
        }
        if (pthread_setspecific(parser_key, p) != 0) {
            ts_parser_delete(p);
            return NULL;
        }
        pthread_mutex_lock(&parsers_lock);
        AL_PUSH(parsers, n_parsers, cap_parsers, p);
        pthread_mutex_unlock(&parsers_lock);
    }
    return p;
}

static bool parse_now(al_pyfile *pf, const al_source *src, const TSRange *ranges, uint32_t n)
{
    memset(pf, 0, sizeof *pf);
    pf->src = src;
    pf->partial = n > 0;
    TSParser *parser = thread_parser();
    /* No ranges: the whole text (a parser keeps the last ranges set). */
    if (!parser || !ts_parser_set_included_ranges(parser, n ? ranges : NULL, n))
        return false;
    /* A NUL byte would end the text early; tree-sitter reads by length so
     * the bytes after it are still parsed, as errors. */
    pf->tree = ts_parser_parse_string(parser, NULL, src->bytes, (uint32_t)src->len);
    if (!pf->tree) {
        ts_parser_reset(parser);
        return false;
    }
    pf->root = ts_tree_root_node(pf->tree);
    pf->has_error = ts_node_has_error(pf->root);
    return true;
}

bool al_pyfile_parse(al_pyfile *pf, const al_source *src)
{
    return parse(pf, src, NULL, 0);
}

bool al_pyfile_parse_spans(al_pyfile *pf, const al_source *src, const size_t (*spans)[2],
                           size_t n)
{
    TSRange *ranges = al_xcalloc(n ? n : 1, sizeof *ranges);
    /* Spans start and end at line starts (or the end of the file). */
    uint32_t row = 0;
    size_t at = 0, line = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < 2; k++) {
            size_t to = spans[i][k];
            for (const char *q = src->bytes + at;
                 (q = memchr(q, '\n', to - (size_t)(q - src->bytes))) != NULL; q++) {
                row++;
                line = (size_t)(q + 1 - src->bytes);
            }
            at = to;
            TSPoint pt = {row, (uint32_t)(to - line)};
            if (k == 0) {
                ranges[i].start_byte = (uint32_t)to;
                ranges[i].start_point = pt;
            } else {
                ranges[i].end_byte = (uint32_t)to;
                ranges[i].end_point = pt;
            }
        }
    }
    bool ok = parse(pf, src, ranges, (uint32_t)n);
    pf->partial = true;
    free(ranges);
    return ok;
}

/* Which of pf's trimmed classes cls is, or SIZE_MAX. */
static size_t trimmed_class(const al_pyfile *pf, TSNode cls)
{
    size_t at = ts_node_is_null(cls) ? SIZE_MAX : ts_node_start_byte(cls);
    for (size_t i = 0; at != SIZE_MAX && i < pf->n_trimmed; i++)
        if (pf->trimmed[i][0] <= at && at < pf->trimmed[i][1])
            return i;
    return SIZE_MAX;
}

/* Records a question about trimmed class i; true. */
static bool ask_trimmed(const al_pyfile *pf, size_t i)
{
    if (pf->asked_trimmed)
        *pf->asked_trimmed = true;
    if (pf->trimmed_asked)
        pf->trimmed_asked[i] = true;
    return true;
}

bool al_pyfile_class_extent(const al_pyfile *pf, TSNode cls, size_t *from, size_t *to)
{
    size_t i = trimmed_class(pf, cls);
    if (i == SIZE_MAX)
        return false;
    *from = pf->trimmed[i][0];
    *to = pf->trimmed[i][1];
    return true;
}

bool al_pyfile_class_trimmed(const al_pyfile *pf, TSNode cls)
{
    size_t i = trimmed_class(pf, cls);
    return i != SIZE_MAX && ask_trimmed(pf, i);
}

bool al_pyfile_class_trimmed_def(const al_pyfile *pf, TSNode cls, const char *name)
{
    size_t i = trimmed_class(pf, cls), n = strlen(name);
    if (i == SIZE_MAX)
        return false;
    /* The class's whole text, as the file holds it: `def name` there. */
    const char *bytes = pf->src->bytes, *p = bytes + pf->trimmed[i][0];
    const char *end = bytes + pf->trimmed[i][1];
    for (; (p = memmem(p, (size_t)(end - p), "def", 3)) != NULL; p += 3) {
        const char *q = p + 3;
        if ((p > bytes && al_lex_ident_char((unsigned char)p[-1])) || q >= end ||
            (*q != ' ' && *q != '\t'))
            continue;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if ((size_t)(end - q) > n && !memcmp(q, name, n) &&
            !al_lex_ident_char((unsigned char)q[n]))
            return ask_trimmed(pf, i);
    }
    return false;
}

bool al_pyfile_class_trimmed_assigns(const al_pyfile *pf, TSNode cls, const char *attr)
{
    size_t i = trimmed_class(pf, cls);
    if (i == SIZE_MAX)
        return false;
    /* The parts of the class the parse did not include. */
    uint32_t n;
    TSRange *r = ts_tree_included_ranges(pf->tree, &n);
    size_t from = pf->trimmed[i][0], to = pf->trimmed[i][1];
    bool found = false;
    for (uint32_t k = 0; k <= n && !found; k++) {
        size_t s = k < n ? r[k].start_byte : to, e = k < n ? r[k].end_byte : to;
        if (e <= from)
            continue; /* a range before what is left to look at */
        size_t gap_end = s < to ? s : to;
        if (gap_end > from)
            found = al_text_assigns_attribute(pf->src->bytes, from, gap_end, attr, strlen(attr));
        if (s >= to)
            break;
        from = e;
    }
    free(r);
    return found && ask_trimmed(pf, i);
}

bool al_pyfile_holds_all(const al_pyfile *pf)
{
    if (pf->partial && pf->asked_trimmed)
        *pf->asked_trimmed = true;
    if (pf->partial && pf->asked_all)
        *pf->asked_all = true;
    return !pf->partial;
}

void al_pyfile_free(al_pyfile *pf)
{
    if (pf->tree)
        ts_tree_delete(pf->tree);
    memset(pf, 0, sizeof *pf);
}

static long count_errors(TSNode n)
{
    if (!ts_node_has_error(n))
        return 0;
    long count = ((strcmp(ts_node_type(n), "ERROR") == 0) || ts_node_is_missing(n)) ? 1 : 0;
    uint32_t k = ts_node_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        count += count_errors(ts_node_child(n, i));
    return count;
}

long al_python_error_count(const char *bytes, size_t len)
{
    TSParser *p = thread_parser();
    if (!p || !ts_parser_set_included_ranges(p, NULL, 0))
        return -1;
    TSTree *t = ts_parser_parse_string(p, NULL, bytes, (uint32_t)len);
    long count = -1;
    if (t) {
        count = count_errors(ts_tree_root_node(t));
        ts_tree_delete(t);
    } else {
        ts_parser_reset(p);
    }
    return count;
}

/* Per symbol of the grammar, the id of its name: the first symbol
 * spelled so. Symbols past the grammar's (ERROR) are named at lookup. */
static uint32_t *type_ids;
static uint32_t n_symbols;
static pthread_once_t type_ids_once = PTHREAD_ONCE_INIT;

static void make_type_ids(void)
{
    const TSLanguage *lang = tree_sitter_python();
    n_symbols = ts_language_symbol_count(lang);
    type_ids = al_xcalloc(n_symbols ? n_symbols : 1, sizeof *type_ids);
    for (uint32_t s = 0; s < n_symbols; s++) {
        const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
        type_ids[s] = s;
        for (uint32_t t = 0; t < s && name; t++)
            if (type_ids[t] == t && ts_language_symbol_name(lang, (TSSymbol)t) &&
                !strcmp(ts_language_symbol_name(lang, (TSSymbol)t), name)) {
                type_ids[s] = t;
                break;
            }
    }
}

/* Ids past the grammar's symbols: ERROR, and a name no symbol has. */
#define TYPE_ERROR (UINT32_MAX - 2)
#define TYPE_NONE (UINT32_MAX - 3)

uint32_t al_py_type_id(const char *type)
{
    pthread_once(&type_ids_once, make_type_ids);
    if (!strcmp(type, "ERROR"))
        return TYPE_ERROR;
    const TSLanguage *lang = tree_sitter_python();
    for (uint32_t s = 0; s < n_symbols; s++) {
        const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
        if (name && !strcmp(name, type))
            return type_ids[s];
    }
    return TYPE_NONE;
}

uint32_t al_node_type_id(TSNode n)
{
    /* Unlike al_node_has_type, whose id argument was made first, nothing
     * here has set the table up yet (another thread may be doing it). */
    pthread_once(&type_ids_once, make_type_ids);
    if (ts_node_is_null(n))
        return TYPE_NONE;
    TSSymbol s = ts_node_symbol(n);
    if (s < n_symbols)
        return type_ids[s];
    return !strcmp(ts_node_type(n), "ERROR") ? TYPE_ERROR : TYPE_NONE;
}

bool al_node_has_type(TSNode n, uint32_t type_id)
{
    if (ts_node_is_null(n))
        return false;
    TSSymbol s = ts_node_symbol(n);
    if (s < n_symbols)
        return type_ids[s] == type_id;
    return type_id == TYPE_ERROR && !strcmp(ts_node_type(n), "ERROR");
}

TSFieldId al_py_field_id(const char *field)
{
    return ts_language_field_id_for_name(tree_sitter_python(), field, (uint32_t)strlen(field));
}

const char *al_node_ptr(const al_pyfile *pf, TSNode n, size_t *len)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    *len = e - s;
    return pf->src->bytes + s;
}

bool al_node_text_eq(const al_pyfile *pf, TSNode n, const char *s)
{
    if (ts_node_is_null(n))
        return false;
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    return strlen(s) == len && memcmp(p, s, len) == 0;
}

char *al_node_text(const al_pyfile *pf, TSNode n)
{
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    return al_xstrndup(p, len);
}

char *al_node_text_compact(const al_pyfile *pf, TSNode n)
{
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    char *out = al_xmalloc(len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '\\' && i + 1 < len && (p[i + 1] == '\n' || p[i + 1] == '\r'))
            continue;
        if (isspace((unsigned char)p[i]))
            continue;
        out[k++] = p[i];
    }
    out[k] = '\0';
    return out;
}

size_t al_node_field_id_children(TSNode n, TSFieldId field, TSNode *out, size_t max)
{
    size_t k = 0;
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
        do {
            if (field && ts_tree_cursor_current_field_id(&c) == field) {
                if (k < max)
                    out[k] = ts_tree_cursor_current_node(&c);
                k++;
            }
        } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return k;
}

size_t al_node_row(TSNode n)
{
    return ts_node_start_point(n).row + 1;
}
