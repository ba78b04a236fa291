#include "notebook.h"

#include "json.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The marker line before each cell. A comment, so it changes nothing in the
 * analysis; distinctive, so that the way back finds every cell again. */
#define MARKER_FMT "# %%%%%% alloclint cell %zu %%%%%%\n"

/* --- Finding the byte spans of cells[*].source in the JSON text -------- */

typedef struct {
    const char *s;
    size_t len, pos;
} scanner;

static void blanks(scanner *sc)
{
    while (sc->pos < sc->len && strchr(" \t\r\n", sc->s[sc->pos]) && sc->s[sc->pos])
        sc->pos++;
}

static bool skip_string(scanner *sc)
{
    if (sc->pos >= sc->len || sc->s[sc->pos] != '"')
        return false;
    for (sc->pos++; sc->pos < sc->len; sc->pos++) {
        if (sc->s[sc->pos] == '\\')
            sc->pos++;
        else if (sc->s[sc->pos] == '"')
            return ++sc->pos, true;
    }
    return false;
}

/* Any value; the text was already accepted by cJSON, so this only needs
 * to find where it ends (strings hold the only brackets that do not nest). */
static bool skip_value(scanner *sc)
{
    blanks(sc);
    if (sc->pos >= sc->len)
        return false;
    char c = sc->s[sc->pos];
    if (c == '"')
        return skip_string(sc);
    if (c != '{' && c != '[') {
        while (sc->pos < sc->len && !strchr(",]} \t\r\n", sc->s[sc->pos]))
            sc->pos++;
        return true;
    }
    size_t depth = 0;
    while (sc->pos < sc->len) {
        c = sc->s[sc->pos];
        if (c == '"') {
            if (!skip_string(sc))
                return false;
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && --depth == 0)
            return ++sc->pos, true;
        sc->pos++;
    }
    return false;
}

/* At a key: whether it is exactly `name` (keys with escapes never are). */
static bool key_is(scanner *sc, const char *name)
{
    size_t start = sc->pos;
    if (!skip_string(sc))
        return false;
    size_t n = strlen(name);
    return sc->pos - start == n + 2 && !memcmp(sc->s + start + 1, name, n);
}

/* The byte span of each cell's "source" value (0, 0 for a cell without
 * one), for at most max cells. False when the text is not shaped as a
 * notebook: an object whose "cells" is a list of objects. */
static bool cell_spans(const char *json, size_t len, size_t *starts, size_t *ends, size_t max,
                       size_t *n)
{
    scanner sc = {json, len, 0};
    *n = 0;
    blanks(&sc);
    if (sc.pos >= len || json[sc.pos] != '{')
        return false;
    sc.pos++;
    for (;;) {
        blanks(&sc);
        if (sc.pos < len && json[sc.pos] == '}')
            return false; /* no "cells" */
        bool cells = key_is(&sc, "cells");
        blanks(&sc);
        if (sc.pos >= len || json[sc.pos] != ':')
            return false;
        sc.pos++;
        blanks(&sc);
        if (!cells) {
            if (!skip_value(&sc))
                return false;
            blanks(&sc);
            if (sc.pos < len && json[sc.pos] == ',') {
                sc.pos++;
                continue;
            }
            return false;
        }
        if (sc.pos >= len || json[sc.pos] != '[')
            return false;
        sc.pos++;
        for (;;) {
            blanks(&sc);
            if (sc.pos < len && json[sc.pos] == ']')
                return true;
            if (sc.pos >= len || json[sc.pos] != '{' || *n >= max)
                return false;
            sc.pos++;
            starts[*n] = ends[*n] = 0;
            for (;;) {
                blanks(&sc);
                if (sc.pos < len && json[sc.pos] == '}') {
                    sc.pos++;
                    break;
                }
                bool source = key_is(&sc, "source");
                blanks(&sc);
                if (sc.pos >= len || json[sc.pos] != ':')
                    return false;
                sc.pos++;
                blanks(&sc);
                size_t v = sc.pos;
                if (!skip_value(&sc))
                    return false;
                if (source)
                    starts[*n] = v, ends[*n] = sc.pos;
                blanks(&sc);
                if (sc.pos < len && json[sc.pos] == ',')
                    sc.pos++;
            }
            (*n)++;
            blanks(&sc);
            if (sc.pos < len && json[sc.pos] == ',')
                sc.pos++;
        }
    }
}

/* --- Magics ------------------------------------------------------------ */

/* IPython syntax that is not Python: %line and %%cell magics, !shell,
 * ?help and help?, and `x = !cmd` / `x = %magic`. */
static bool magic_line(const char *line, size_t len, size_t *first)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    *first = i;
    if (i == len)
        return false;
    char c = line[i];
    if (c == '%' || c == '!' || c == '?')
        return true;
    size_t end = len;
    while (end > i && isspace((unsigned char)line[end - 1]))
        end--;
    if (end > i && line[end - 1] == '?' && line[i] != '#')
        return true;
    size_t k = i;
    while (k < end && (isalnum((unsigned char)line[k]) || line[k] == '_' || line[k] == '.'))
        k++;
    if (k == i)
        return false;
    while (k < end && line[k] == ' ')
        k++;
    if (k >= end || line[k] != '=' || (k + 1 < end && line[k + 1] == '='))
        return false;
    k++;
    while (k < end && line[k] == ' ')
        k++;
    return k < end && (line[k] == '!' || line[k] == '%');
}

static char *comment_magics(const char *text)
{
    char *out = al_xstrdup(text);
    bool cell_magic = !strncmp(text, "%%", 2);
    for (char *line = out; *line;) {
        char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        size_t first;
        bool magic = magic_line(line, len, &first);
        if ((magic || cell_magic) && first < len)
            line[first] = '#';
        if (!eol)
            break;
        line = eol + 1;
    }
    return out;
}

/* --- Reading ----------------------------------------------------------- */

static char *cell_text(const cJSON *source, bool *as_list)
{
    *as_list = cJSON_IsArray(source);
    if (cJSON_IsString(source))
        return al_xstrdup(source->valuestring);
    if (!*as_list)
        return NULL;
    al_strbuf sb = {0};
    al_strbuf_reserve(&sb, 1);
    const cJSON *line;
    cJSON_ArrayForEach(line, source)
    {
        if (!cJSON_IsString(line)) {
            al_strbuf_free(&sb);
            return NULL;
        }
        al_strbuf_puts(&sb, line->valuestring);
    }
    return al_strbuf_detach(&sb);
}

static size_t count_lines(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return n;
}

/* Why the cell's "source" value at json[start, end) does not read back as
 * text (its code as cJSON decoded it), or NULL when it does: the bytes the
 * rewrite replaces must be the value that was checked. A \u0000 escape
 * ends cJSON's string early, so the text would lose what follows it. */
static const char *source_mismatch(const char *json, size_t start, size_t end, const char *text)
{
    if (memchr(json + start, '\0', end - start))
        return "holds a NUL byte";
    /* The joined source is cut back into cells at the marker lines. */
    if (strstr(text, "%%% alloclint cell "))
        return "holds the text of alloclint's cell marker";
    for (size_t i = start; i + 1 < end; i++)
        if (json[i] == '\\') {
            if (json[i + 1] == 'u' && i + 6 <= end && !memcmp(json + i + 2, "0000", 4))
                return "holds an escaped NUL character (\\u0000)";
            i++; /* the escaped character */
        }
    cJSON *value = cJSON_ParseWithLength(json + start, end - start);
    bool as_list;
    char *again = value ? cell_text(value, &as_list) : NULL;
    bool same = again && !strcmp(again, text);
    free(again);
    cJSON_Delete(value);
    return same ? NULL : "cannot be located exactly in the JSON";
}

bool al_notebook_parse(const char *json, size_t len, al_notebook *nb, char **err)
{
    memset(nb, 0, sizeof *nb);
    *err = NULL;
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "cells");
    if (!root) {
        *err = al_xstrdup("not a notebook: invalid JSON");
    } else if (!cJSON_IsArray(cells)) {
        *err = al_xstrdup("not a notebook: no \"cells\" list");
    } else if (al_json_duplicate_key(root)) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb,
                         "the notebook holds the key \"%s\" twice (Jupyter keeps the last, "
                         "other readers the first): it cannot be read back exactly, so it is "
                         "neither checked nor written",
                         al_json_duplicate_key(root));
        *err = al_strbuf_detach(&sb);
    }
    size_t n_cells = cells && !*err ? (size_t)cJSON_GetArraySize(cells) : 0;
    size_t *starts = al_xcalloc(n_cells + 1, sizeof *starts);
    size_t *ends = al_xcalloc(n_cells + 1, sizeof *ends);
    size_t found = 0;
    if (!*err && (!cell_spans(json, len, starts, ends, n_cells, &found) || found != n_cells))
        *err = al_xstrdup("not a notebook: the cells cannot be located in the JSON");
    al_strbuf joined = {0};
    al_strbuf_reserve(&joined, 1);
    size_t line = 1, index = 0;
    const cJSON *cell, *list = *err ? NULL : cells;
    cJSON_ArrayForEach(cell, list)
    {
        index++;
        const char *twice = al_json_duplicate_key(cell);
        if (twice) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb,
                             "cell %zu holds the key \"%s\" twice (Jupyter keeps the last, "
                             "other readers the first): it cannot be read back exactly, so the "
                             "notebook is neither checked nor written",
                             index, twice);
            *err = al_strbuf_detach(&sb);
            break;
        }
        const char *type =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cell, "cell_type"));
        if (!type || strcmp(type, "code") != 0)
            continue;
        al_nb_cell c = {0};
        c.number = index;
        c.text = cell_text(cJSON_GetObjectItemCaseSensitive(cell, "source"), &c.as_list);
        if (!c.text || ends[index - 1] == 0) {
            free(c.text);
            al_strbuf sb = {0};
            al_strbuf_printf(&sb,
                             "not a notebook: the source of cell %zu is neither a string nor a "
                             "list of strings",
                             index);
            *err = al_strbuf_detach(&sb);
            break;
        }
        c.value_start = starts[index - 1];
        c.value_end = ends[index - 1];
        const char *mismatch = source_mismatch(json, c.value_start, c.value_end, c.text);
        if (mismatch) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb,
                             "the source of cell %zu %s: the notebook is neither checked nor "
                             "written",
                             index, mismatch);
            free(c.text);
            *err = al_strbuf_detach(&sb);
            break;
        }
        c.python = comment_magics(c.text);
        size_t plen = strlen(c.python);
        if (plen && c.python[plen - 1] != '\n') {
            char *grown = al_xmalloc(plen + 2);
            memcpy(grown, c.python, plen);
            memcpy(grown + plen, "\n", 2);
            free(c.python);
            c.python = grown;
            c.added_newline = true;
        }
        al_strbuf_printf(&joined, MARKER_FMT, c.number);
        line++;
        c.python_start = joined.len;
        c.first_line = line;
        al_strbuf_puts(&joined, c.python);
        line += count_lines(c.python, strlen(c.python));
        AL_PUSH(nb->cells, nb->n, nb->cap, c);
    }
    free(starts);
    free(ends);
    cJSON_Delete(root);
    nb->python_len = joined.len;
    nb->python = al_strbuf_detach(&joined);
    if (*err) {
        al_notebook_free(nb);
        return false;
    }
    return true;
}

void al_notebook_free(al_notebook *nb)
{
    for (size_t i = 0; i < nb->n; i++) {
        free(nb->cells[i].text);
        free(nb->cells[i].python);
    }
    free(nb->cells);
    free(nb->python);
    memset(nb, 0, sizeof *nb);
}

void al_notebook_cell_line(const al_notebook *nb, size_t line, size_t *cell_number,
                           size_t *cell_line)
{
    *cell_number = 0;
    *cell_line = line;
    for (size_t i = nb->n; i-- > 0;)
        if (line >= nb->cells[i].first_line) {
            *cell_number = nb->cells[i].number;
            *cell_line = line - nb->cells[i].first_line + 1;
            return;
        }
}

/* --- Writing back ------------------------------------------------------ */

static void json_string(al_strbuf *sb, const char *s, size_t len)
{
    al_strbuf_putc(sb, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': al_strbuf_puts(sb, "\\\""); break;
        case '\\': al_strbuf_puts(sb, "\\\\"); break;
        case '\n': al_strbuf_puts(sb, "\\n"); break;
        case '\r': al_strbuf_puts(sb, "\\r"); break;
        case '\t': al_strbuf_puts(sb, "\\t"); break;
        default:
            if (c < 0x20)
                al_strbuf_printf(sb, "\\u%04x", c);
            else
                al_strbuf_putc(sb, (char)c);
        }
    }
    al_strbuf_putc(sb, '"');
}

/* The new "source" value, in the style of the old one: a list keeps the
 * blanks that stood before its first element and before its `]`. */
static void source_value(al_strbuf *sb, const al_nb_cell *c, const char *json, const char *text)
{
    size_t len = strlen(text);
    if (!c->as_list) {
        json_string(sb, text, len);
        return;
    }
    const char *v = json + c->value_start, *vend = json + c->value_end;
    const char *first = v + 1;
    while (first < vend && strchr(" \t\r\n", *first) && *first)
        first++;
    const char *close = vend - 1;
    const char *before_close = close;
    while (before_close > v + 1 && strchr(" \t\r\n", before_close[-1]) && before_close[-1])
        before_close--;
    bool empty = first >= close;
    al_strbuf_putc(sb, '[');
    for (size_t i = 0, k = 0; i < len; k++) {
        const char *eol = memchr(text + i, '\n', len - i);
        size_t n = eol ? (size_t)(eol - (text + i)) + 1 : len - i;
        if (k)
            al_strbuf_putc(sb, ',');
        if (empty)
            al_strbuf_puts(sb, k ? " " : "");
        else
            al_strbuf_append(sb, v + 1, (size_t)(first - (v + 1)));
        json_string(sb, text + i, n);
        i += n;
    }
    if (!empty)
        al_strbuf_append(sb, before_close, (size_t)(close - before_close));
    al_strbuf_putc(sb, ']');
}

/* The next line of s (without its newline) and where the one after starts. */
static const char *next_line(const char *s, const char *end, size_t *len)
{
    const char *eol = memchr(s, '\n', (size_t)(end - s));
    *len = eol ? (size_t)(eol - s) : (size_t)(end - s);
    return eol ? eol + 1 : end;
}

/* The cell's code from its changed python: each magic line (commented out
 * on the way in) put back as written. Every one must still be there, in
 * order, unchanged; NULL otherwise. */
static char *restore_magics(const al_nb_cell *c, const char *python, size_t len)
{
    al_strbuf out = {0};
    al_strbuf_reserve(&out, len + 1);
    const char *orig = c->text, *orig_end = c->text + strlen(c->text);
    const char *com = c->python, *com_end = c->python + strlen(c->python);
    const char *p = python, *end = python + len;
    /* The pending magic line: its commented and original forms. */
    const char *mc = NULL, *mo = NULL;
    size_t mcl = 0, mol = 0;
    for (;;) {
        while (!mc && orig < orig_end && com < com_end) {
            size_t ol, cl;
            const char *o2 = next_line(orig, orig_end, &ol), *c2 = next_line(com, com_end, &cl);
            if (ol != cl || memcmp(orig, com, ol) != 0)
                mc = com, mcl = cl, mo = orig, mol = ol;
            orig = o2, com = c2;
        }
        if (p >= end)
            break;
        size_t n;
        const char *p2 = next_line(p, end, &n);
        if (mc && n == mcl && !memcmp(p, mc, n)) {
            al_strbuf_append(&out, mo, mol);
            mc = NULL;
        } else {
            al_strbuf_append(&out, p, n);
        }
        if (p2 > p + n)
            al_strbuf_putc(&out, '\n');
        p = p2;
    }
    if (mc) {
        al_strbuf_free(&out);
        return NULL;
    }
    return al_strbuf_detach(&out);
}

char *al_notebook_rewrite(const al_notebook *nb, const char *json, size_t len,
                          const char *python, size_t python_len, size_t *out_len, char **err)
{
    *err = NULL;
    /* Cut the changed source at the markers, which must all be there, in
     * order, and nowhere else. */
    size_t *starts = al_xcalloc(nb->n + 1, sizeof *starts);
    size_t *ends = al_xcalloc(nb->n + 1, sizeof *ends);
    size_t pos = 0;
    for (size_t i = 0; i < nb->n && !*err; i++) {
        char marker[96];
        int ml = snprintf(marker, sizeof marker, MARKER_FMT, nb->cells[i].number);
        if (python_len - pos < (size_t)ml || memcmp(python + pos, marker, (size_t)ml) != 0) {
            *err = al_xstrdup("a fix moved or removed the boundary of a notebook cell");
            break;
        }
        starts[i] = pos + (size_t)ml;
        const char *next = NULL;
        if (i + 1 < nb->n) {
            ml = snprintf(marker, sizeof marker, MARKER_FMT, nb->cells[i + 1].number);
            next = memmem(python + starts[i], python_len - starts[i], marker, (size_t)ml);
            if (!next || (next > python && next[-1] != '\n')) {
                *err = al_xstrdup("a fix moved or removed the boundary of a notebook cell");
                break;
            }
        }
        ends[i] = next ? (size_t)(next - python) : python_len;
        pos = ends[i];
    }
    al_strbuf out = {0};
    size_t copied = 0;
    for (size_t i = 0; i < nb->n && !*err; i++) {
        const al_nb_cell *c = &nb->cells[i];
        size_t n = ends[i] - starts[i];
        const char *cell = python + starts[i];
        if (n == strlen(c->python) && !memcmp(cell, c->python, n))
            continue; /* unchanged: its JSON stays byte for byte */
        char *text = restore_magics(c, cell, n);
        if (!text) {
            *err = al_xstrdup("a fix touched an IPython magic line in a notebook cell");
            break;
        }
        size_t tl = strlen(text);
        if (c->added_newline && tl && text[tl - 1] == '\n')
            text[--tl] = '\0';
        al_strbuf_append(&out, json + copied, c->value_start - copied);
        source_value(&out, c, json, text);
        copied = c->value_end;
        free(text);
    }
    free(starts);
    free(ends);
    if (*err) {
        al_strbuf_free(&out);
        return NULL;
    }
    al_strbuf_append(&out, json + copied, len - copied);
    *out_len = out.len;
    return al_strbuf_detach(&out);
}
