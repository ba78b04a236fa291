#include "report.h"

#include "../base/version.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *code, *name;
    size_t count, fixable;
    size_t measured;            /* with a profile: findings it measured */
    double gpu_us, removable_us; /* their cost, and what their fixes remove (by line) */
} stat_row;

/* One finding as written, for the order by cost. */
typedef struct {
    double key;      /* its measured GPU time; -1 unmeasured */
    size_t off, len; /* its bytes of text */
    cJSON *item;     /* its JSON or SARIF object */
} entry;

struct al_report {
    al_report_options opt;
    al_strbuf text;
    cJSON *json; /* JSON: the array; SARIF: the results */
    size_t count, fixable_safe, fixable_unsafe;
    stat_row *stats;
    size_t n_stats, cap_stats;
    entry *entries;
    size_t n_entries, cap_entries;
};

al_report *al_report_new(const al_report_options *opt)
{
    al_report *r = al_xcalloc(1, sizeof *r);
    r->opt = *opt;
    if (opt->format == AL_FORMAT_JSON || opt->format == AL_FORMAT_SARIF) {
        r->json = cJSON_CreateArray();
        if (!r->json)
            abort();
    }
    return r;
}

/* "path", or "path:cell N" for a place in a notebook. */
static void put_path(al_strbuf *sb, const al_source *src, size_t cell)
{
    al_strbuf_puts(sb, src->path);
    if (cell)
        al_strbuf_printf(sb, ":cell %zu", cell);
}

/* A finding's message as users read it. Rules count lines in the source
 * they were given; in a notebook that is the cells joined, so "line N"
 * becomes "line M of cell C". NULL when the message stands as it is;
 * otherwise the caller frees. */
static char *notebook_message(const al_source *src, const char *message)
{
    if (!src->notebook)
        return NULL;
    al_strbuf sb = {0};
    const char *p = message;
    const char *hit;
    while ((hit = strstr(p, "line ")) != NULL) {
        const char *digits = hit + 5;
        if (*digits < '0' || *digits > '9') {
            al_strbuf_append(&sb, p, (size_t)(digits - p));
            p = digits;
            continue;
        }
        char *end;
        unsigned long row = strtoul(digits, &end, 10);
        size_t cell, in_cell = al_source_shown_row(src, (size_t)row, &cell);
        al_strbuf_append(&sb, p, (size_t)(hit - p));
        if (cell)
            al_strbuf_printf(&sb, "line %zu of cell %zu", in_cell, cell);
        else
            al_strbuf_append(&sb, hit, (size_t)(end - hit));
        p = end;
    }
    al_strbuf_puts(&sb, p);
    return al_strbuf_detach(&sb);
}

static cJSON *location(const al_source *src, size_t offset)
{
    size_t row, col;
    size_t cell = al_source_place(src, offset, &row, &col);
    cJSON *o = cJSON_CreateObject();
    if (cell)
        cJSON_AddNumberToObject(o, "cell", (double)cell);
    cJSON_AddNumberToObject(o, "row", (double)row);
    cJSON_AddNumberToObject(o, "column", (double)col);
    return o;
}

static cJSON *cost_json(const al_cost *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "calls", (double)c->calls);
    cJSON_AddNumberToObject(o, "gpu_us", c->gpu_us);
    cJSON_AddNumberToObject(o, "host_us", c->host_us);
    cJSON_AddNumberToObject(o, "removable_gpu_us", c->removable_gpu_us);
    cJSON_AddNumberToObject(o, "share", c->share);
    cJSON_AddStringToObject(o, "attribution", c->by_function ? "function" : "line");
    return o;
}

static cJSON *finding_json(const al_report *r, const al_source *src, const al_finding *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "code", f->code);
    cJSON_AddStringToObject(o, "name", f->name);
    char *message = notebook_message(src, f->message);
    cJSON_AddStringToObject(o, "message", message ? message : f->message);
    free(message);
    cJSON_AddStringToObject(o, "filename", src->path);
    cJSON_AddItemToObject(o, "location", location(src, f->start));
    cJSON_AddItemToObject(o, "end_location", location(src, f->end));
    if (f->fix) {
        cJSON *fix = cJSON_CreateObject();
        cJSON_AddStringToObject(fix, "applicability", al_applicability_name(f->fix->applicability));
        cJSON_AddStringToObject(fix, "message", f->fix->message);
        cJSON *edits = cJSON_CreateArray();
        for (size_t i = 0; i < f->fix->n_edits; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "content", f->fix->edits[i].content);
            cJSON_AddItemToObject(e, "location", location(src, f->fix->edits[i].start));
            cJSON_AddItemToObject(e, "end_location", location(src, f->fix->edits[i].end));
            cJSON_AddItemToArray(edits, e);
        }
        cJSON_AddItemToObject(fix, "edits", edits);
        cJSON_AddItemToObject(o, "fix", fix);
    } else {
        cJSON_AddNullToObject(o, "fix");
    }
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (size_t i = 0; i < f->n_notes; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "message", f->notes[i].message);
        cJSON_AddStringToObject(n, "filename", f->notes[i].path ? f->notes[i].path : src->path);
        size_t cell = 0, row = f->notes[i].row;
        if (!f->notes[i].path)
            row = al_source_shown_row(src, row, &cell);
        if (cell)
            cJSON_AddNumberToObject(n, "cell", (double)cell);
        cJSON_AddNumberToObject(n, "row", (double)row);
        cJSON_AddItemToArray(notes, n);
    }
    /* Only with a profile, so that a check without one writes what it did. */
    if (f->cost)
        cJSON_AddItemToObject(o, "cost", cost_json(f->cost));
    else if (r->opt.profiled)
        cJSON_AddNullToObject(o, "cost");
    return o;
}

static void add_json(al_report *r, const al_source *src, const al_finding *f)
{
    cJSON *o = finding_json(r, src, f);
    if (r->opt.format == AL_FORMAT_JSON_LINES) {
        char *line = cJSON_PrintUnformatted(o);
        if (!line)
            abort();
        al_strbuf_printf(&r->text, "%s\n", line);
        cJSON_free(line);
        cJSON_Delete(o);
        return;
    }
    cJSON_AddItemToArray(r->json, o);
}

static cJSON *sarif_region(const al_source *src, size_t start, size_t end)
{
    size_t row, col, erow, ecol;
    size_t cell = al_source_place(src, start, &row, &col);
    al_source_place(src, end, &erow, &ecol);
    cJSON *r = cJSON_CreateObject();
    if (cell) { /* SARIF has no cells: the row counts within the cell it names */
        cJSON *props = cJSON_AddObjectToObject(r, "properties");
        cJSON_AddNumberToObject(props, "cell", (double)cell);
    }
    cJSON_AddNumberToObject(r, "startLine", (double)row);
    cJSON_AddNumberToObject(r, "startColumn", (double)col);
    cJSON_AddNumberToObject(r, "endLine", (double)erow);
    cJSON_AddNumberToObject(r, "endColumn", (double)ecol);
    return r;
}

static cJSON *sarif_artifact(const char *path)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "uri", path);
    cJSON_AddStringToObject(a, "uriBaseId", "%SRCROOT%");
    return a;
}

static void add_sarif(al_report *r, const al_source *src, const al_finding *f)
{
    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "ruleId", f->code);
    for (size_t i = 0; i < r->opt.n_rules; i++)
        if (!strcmp(r->opt.rules[i].code, f->code))
            cJSON_AddNumberToObject(res, "ruleIndex", (double)i);
    cJSON_AddStringToObject(res, "level", "warning");
    cJSON *msg = cJSON_AddObjectToObject(res, "message");
    char *message = notebook_message(src, f->message);
    cJSON_AddStringToObject(msg, "text", message ? message : f->message);
    free(message);
    cJSON *locs = cJSON_AddArrayToObject(res, "locations");
    cJSON *loc = cJSON_CreateObject();
    cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
    cJSON_AddItemToObject(phys, "artifactLocation", sarif_artifact(src->path));
    cJSON_AddItemToObject(phys, "region", sarif_region(src, f->start, f->end));
    cJSON_AddItemToArray(locs, loc);
    if (f->n_notes) {
        cJSON *related = cJSON_AddArrayToObject(res, "relatedLocations");
        for (size_t i = 0; i < f->n_notes; i++) {
            cJSON *rl = cJSON_CreateObject();
            cJSON_AddNumberToObject(rl, "id", (double)i);
            cJSON *rp = cJSON_AddObjectToObject(rl, "physicalLocation");
            cJSON_AddItemToObject(rp, "artifactLocation",
                                  sarif_artifact(f->notes[i].path ? f->notes[i].path : src->path));
            cJSON_AddNumberToObject(cJSON_AddObjectToObject(rp, "region"), "startLine",
                                    (double)(f->notes[i].row ? f->notes[i].row : 1));
            cJSON_AddStringToObject(cJSON_AddObjectToObject(rl, "message"), "text",
                                    f->notes[i].message);
            cJSON_AddItemToArray(related, rl);
        }
    }
    if (f->fix && f->fix->n_edits) {
        cJSON *props = cJSON_AddObjectToObject(res, "properties");
        cJSON_AddStringToObject(props, "applicability",
                                al_applicability_name(f->fix->applicability));
        cJSON *fixes = cJSON_AddArrayToObject(res, "fixes");
        cJSON *fix = cJSON_CreateObject();
        cJSON *desc = cJSON_AddObjectToObject(fix, "description");
        cJSON_AddStringToObject(desc, "text", f->fix->message);
        cJSON *changes = cJSON_AddArrayToObject(fix, "artifactChanges");
        cJSON *change = cJSON_CreateObject();
        cJSON_AddItemToObject(change, "artifactLocation", sarif_artifact(src->path));
        cJSON *reps = cJSON_AddArrayToObject(change, "replacements");
        for (size_t i = 0; i < f->fix->n_edits; i++) {
            cJSON *rep = cJSON_CreateObject();
            cJSON_AddItemToObject(rep, "deletedRegion",
                                  sarif_region(src, f->fix->edits[i].start, f->fix->edits[i].end));
            cJSON *ins = cJSON_AddObjectToObject(rep, "insertedContent");
            cJSON_AddStringToObject(ins, "text", f->fix->edits[i].content);
            cJSON_AddItemToArray(reps, rep);
        }
        cJSON_AddItemToArray(changes, change);
        cJSON_AddItemToArray(fixes, fix);
    }
    if (f->cost) {
        /* SARIF's rank orders results 0-100: the share of the traces' GPU time. */
        cJSON_AddNumberToObject(res, "rank", f->cost->share * 100.0);
        cJSON *props = cJSON_GetObjectItemCaseSensitive(res, "properties");
        if (!props)
            props = cJSON_AddObjectToObject(res, "properties");
        cJSON_AddItemToObject(props, "cost", cost_json(f->cost));
    }
    cJSON_AddItemToArray(r->json, res);
}

static bool write_sarif(al_report *r, FILE *out)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(doc, "version", "2.1.0");
    cJSON *runs = cJSON_AddArrayToObject(doc, "runs");
    cJSON *run = cJSON_CreateObject();
    cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
    cJSON_AddStringToObject(driver, "name", "alloclint");
    cJSON_AddStringToObject(driver, "version", ALLOCLINT_VERSION);
    cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
    for (size_t i = 0; i < r->opt.n_rules; i++) {
        const al_report_rule *ri = &r->opt.rules[i];
        cJSON *rule = cJSON_CreateObject();
        cJSON_AddStringToObject(rule, "id", ri->code);
        cJSON_AddStringToObject(rule, "name", ri->name);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(rule, "shortDescription"), "text",
                                ri->summary);
        cJSON *conf = cJSON_AddObjectToObject(rule, "defaultConfiguration");
        cJSON_AddBoolToObject(conf, "enabled", ri->default_on);
        cJSON_AddStringToObject(conf, "level", "warning");
        cJSON_AddItemToArray(rules, rule);
    }
    cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");
    cJSON_AddItemToObject(run, "results", r->json);
    r->json = NULL;
    cJSON_AddItemToArray(runs, run);
    char *s = cJSON_Print(doc);
    bool ok = s && fputs(s, out) >= 0 && fputc('\n', out) != EOF;
    cJSON_free(s);
    cJSON_Delete(doc);
    return ok;
}

/* GitHub's workflow-command escaping: data escapes %, CR, LF; property
 * values also `:` and `,`. */
static void gh_escape(al_strbuf *out, const char *s, bool property)
{
    for (; *s; s++) {
        if (*s == '%')
            al_strbuf_puts(out, "%25");
        else if (*s == '\r')
            al_strbuf_puts(out, "%0D");
        else if (*s == '\n')
            al_strbuf_puts(out, "%0A");
        else if (property && *s == ':')
            al_strbuf_puts(out, "%3A");
        else if (property && *s == ',')
            al_strbuf_puts(out, "%2C");
        else
            al_strbuf_putc(out, *s);
    }
}

static void add_github(al_report *r, const al_source *src, const al_finding *f)
{
    size_t row, col, erow, ecol;
    size_t cell = al_source_place(src, f->start, &row, &col);
    al_source_place(src, f->end, &erow, &ecol);
    al_strbuf title = {0};
    al_strbuf_printf(&title, "alloclint (%s)", f->code);
    al_strbuf_puts(&r->text, "::error title=");
    gh_escape(&r->text, title.data, true);
    al_strbuf_puts(&r->text, ",file=");
    gh_escape(&r->text, src->path, true);
    al_strbuf_printf(&r->text, ",line=%zu,col=%zu,endLine=%zu,endColumn=%zu::", row, col, erow,
                     ecol);
    al_strbuf msg = {0};
    put_path(&msg, src, cell);
    char *message = notebook_message(src, f->message);
    al_strbuf_printf(&msg, ":%zu:%zu: %s %s", row, col, f->code, message ? message : f->message);
    free(message);
    gh_escape(&r->text, msg.data, false);
    al_strbuf_putc(&r->text, '\n');
    al_strbuf_free(&title);
    al_strbuf_free(&msg);
}

static const char *mark(const al_report *r, const al_finding *f)
{
    if (!r->opt.show_fix_marks || !f->fix)
        return "";
    if (f->fix->applicability == AL_FIX_SAFE)
        return " [*]";
    if (f->fix->applicability == AL_FIX_UNSAFE)
        return r->opt.unsafe_fixes ? " [*]" : " [unsafe fix]";
    return "";
}

static void add_text(al_report *r, const al_source *src, const al_finding *f)
{
    size_t row, col;
    al_source_position(src, f->start, &row, &col);
    size_t cell, shown = al_source_shown_row(src, row, &cell);
    const char *bold = r->opt.color ? "\033[1m" : "", *red = r->opt.color ? "\033[1;31m" : "";
    const char *off = r->opt.color ? "\033[0m" : "";
    al_strbuf_puts(&r->text, bold);
    put_path(&r->text, src, cell);
    char *message = notebook_message(src, f->message);
    al_strbuf_printf(&r->text, "%s:%zu:%zu: %s%s%s%s %s\n", off, shown, col, red, f->code, off,
                     mark(r, f), message ? message : f->message);
    free(message);
    if (r->opt.format != AL_FORMAT_TEXT)
        return;
    size_t ls, le;
    al_source_line(src, row, &ls, &le);
    /* The line's bytes from its start (an excerpt holds only some). */
    const char *line = al_source_at(src, ls);
    al_strbuf_printf(&r->text, "%6zu | ", shown);
    al_strbuf_append(&r->text, line, le - ls);
    al_strbuf_puts(&r->text, "\n       | ");
    for (size_t i = ls; i < f->start && i < le; i++)
        if (((unsigned char)line[i - ls] & 0xC0) != 0x80)
            al_strbuf_putc(&r->text, line[i - ls] == '\t' ? '\t' : ' ');
    size_t end = f->end < le ? f->end : le;
    size_t carets = 0;
    for (size_t i = f->start; i < end; i++)
        if (((unsigned char)line[i - ls] & 0xC0) != 0x80)
            carets++;
    if (carets == 0)
        carets = 1;
    al_strbuf_puts(&r->text, red);
    for (size_t i = 0; i < carets; i++)
        al_strbuf_putc(&r->text, '^');
    al_strbuf_puts(&r->text, off);
    al_strbuf_putc(&r->text, '\n');
    if (f->fix)
        al_strbuf_printf(&r->text, "       = fix (%s): %s\n",
                         al_applicability_name(f->fix->applicability), f->fix->message);
    if (f->cost) {
        const al_cost *c = f->cost;
        al_strbuf_printf(&r->text, "       = measured: %zu call%s, %.1f \xc2\xb5s GPU (%.1f %% of "
                                   "the profile's), %.1f \xc2\xb5s on the host",
                         c->calls, c->calls == 1 ? "" : "s", c->gpu_us, c->share * 100.0,
                         c->host_us);
        if (c->by_function)
            al_strbuf_printf(&r->text, " (the function's, shared by its %zu sites of this call: "
                                       "the trace cannot split them)",
                             c->sharing);
        else if (f->fix && f->fix->n_edits)
            al_strbuf_printf(&r->text, "; the fix removes %.1f \xc2\xb5s", c->removable_gpu_us);
        al_strbuf_putc(&r->text, '\n');
    }
    for (size_t i = 0; i < f->n_notes; i++) {
        al_strbuf_puts(&r->text, "       = note: ");
        size_t note_cell = 0, note_row = f->notes[i].row;
        if (f->notes[i].path)
            al_strbuf_puts(&r->text, f->notes[i].path);
        else
            note_row = al_source_shown_row(src, note_row, &note_cell), put_path(&r->text, src, note_cell);
        al_strbuf_printf(&r->text, ":%zu: %s\n", note_row, f->notes[i].message);
    }
    al_strbuf_putc(&r->text, '\n');
}

void al_report_add(al_report *r, const al_source *src, const al_findings *findings)
{
    for (size_t i = 0; i < findings->n; i++) {
        const al_finding *f = &findings->items[i];
        size_t text_at = r->text.len;
        int items_before = r->json ? cJSON_GetArraySize(r->json) : 0;
        r->count++;
        if (f->fix && f->fix->n_edits && f->fix->applicability == AL_FIX_SAFE)
            r->fixable_safe++;
        if (f->fix && f->fix->n_edits && f->fix->applicability == AL_FIX_UNSAFE)
            r->fixable_unsafe++;
        bool fixable = f->fix && f->fix->n_edits &&
                       (f->fix->applicability == AL_FIX_SAFE ||
                        (r->opt.unsafe_fixes && f->fix->applicability == AL_FIX_UNSAFE));
        size_t k = 0;
        while (k < r->n_stats && strcmp(r->stats[k].code, f->code))
            k++;
        if (k == r->n_stats) {
            stat_row row = {f->code, f->name, 0, 0, 0, 0, 0};
            AL_PUSH(r->stats, r->n_stats, r->cap_stats, row);
        }
        r->stats[k].count++;
        r->stats[k].fixable += fixable;
        if (f->cost) {
            r->stats[k].measured++;
            r->stats[k].gpu_us += f->cost->gpu_us;
            r->stats[k].removable_us += f->cost->by_function ? 0 : f->cost->removable_gpu_us;
        }
        if (r->opt.statistics)
            continue;
        if (r->opt.format == AL_FORMAT_SARIF)
            add_sarif(r, src, f);
        else if (r->opt.format == AL_FORMAT_JSON || r->opt.format == AL_FORMAT_JSON_LINES)
            add_json(r, src, f);
        else if (r->opt.format == AL_FORMAT_GITHUB)
            add_github(r, src, f);
        else
            add_text(r, src, f);
        if (r->opt.sort_by_cost) {
            entry e = {f->cost ? f->cost->gpu_us : -1.0, text_at, r->text.len - text_at, NULL};
            if (r->json && cJSON_GetArraySize(r->json) > items_before)
                e.item = cJSON_GetArrayItem(r->json, items_before);
            AL_PUSH(r->entries, r->n_entries, r->cap_entries, e);
        }
    }
}

void al_report_add_applied(al_report *r, const al_source *src, size_t start, const char *code,
                           const char *name, al_applicability tier, bool revealed,
                           const char *message, const char *fix_message)
{
    if (r->opt.statistics ||
        (r->opt.format != AL_FORMAT_JSON && r->opt.format != AL_FORMAT_JSON_LINES))
        return;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "code", code);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "message", message);
    cJSON_AddStringToObject(o, "filename", src->path);
    if (start != SIZE_MAX)
        cJSON_AddItemToObject(o, "location", location(src, start));
    cJSON *fix = cJSON_AddObjectToObject(o, "fix");
    cJSON_AddStringToObject(fix, "applicability", al_applicability_name(tier));
    cJSON_AddStringToObject(fix, "message", fix_message);
    cJSON_AddBoolToObject(o, "applied", true);
    cJSON_AddBoolToObject(o, "after_earlier_fix", revealed);
    if (r->opt.format == AL_FORMAT_JSON_LINES) {
        char *line = cJSON_PrintUnformatted(o);
        if (!line)
            abort();
        al_strbuf_printf(&r->text, "%s\n", line);
        cJSON_free(line);
        cJSON_Delete(o);
        return;
    }
    cJSON_AddItemToArray(r->json, o);
}

/* The costliest first; unmeasured findings after, each group in the
 * order it came (the sort is stable by position). */
static int by_cost(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return a->off < b->off ? -1 : a->off > b->off ? 1 : a->item < b->item ? -1 : 1;
}

/* Puts the findings in cost order: the text's pieces, or the array's items. */
static void order_by_cost(al_report *r)
{
    if (!r->opt.sort_by_cost || r->n_entries < 2)
        return;
    for (size_t i = 0; i < r->n_entries; i++)
        if (r->entries[i].item)
            r->entries[i].off = i; /* JSON: keep the order of arrival as the tie-break */
    qsort(r->entries, r->n_entries, sizeof *r->entries, by_cost);
    if (r->json) {
        cJSON *sorted = cJSON_CreateArray();
        for (size_t i = 0; i < r->n_entries; i++) {
            cJSON *it = r->entries[i].item;
            if (!it)
                continue;
            cJSON_DetachItemViaPointer(r->json, it);
            cJSON_AddItemToArray(sorted, it);
        }
        cJSON_Delete(r->json);
        r->json = sorted;
        return;
    }
    al_strbuf text = {0};
    for (size_t i = 0; i < r->n_entries; i++)
        al_strbuf_append(&text, r->text.data + r->entries[i].off, r->entries[i].len);
    al_strbuf_free(&r->text);
    r->text = text;
}

static int by_count(const void *x, const void *y)
{
    const stat_row *a = x, *b = y;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    return strcmp(a->code, b->code);
}

bool al_report_write(al_report *r, FILE *out)
{
    order_by_cost(r);
    if (r->opt.statistics) {
        if (r->n_stats > 1)
            qsort(r->stats, r->n_stats, sizeof *r->stats, by_count);
        if (r->opt.format == AL_FORMAT_JSON) {
            cJSON *arr = cJSON_CreateArray();
            for (size_t i = 0; i < r->n_stats; i++) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "code", r->stats[i].code);
                cJSON_AddStringToObject(o, "name", r->stats[i].name);
                cJSON_AddNumberToObject(o, "count", (double)r->stats[i].count);
                cJSON_AddNumberToObject(o, "fixable", (double)r->stats[i].fixable);
                if (r->opt.profiled) {
                    cJSON_AddNumberToObject(o, "measured", (double)r->stats[i].measured);
                    cJSON_AddNumberToObject(o, "gpu_us", r->stats[i].gpu_us);
                    cJSON_AddNumberToObject(o, "removable_gpu_us", r->stats[i].removable_us);
                }
                cJSON_AddItemToArray(arr, o);
            }
            char *s = cJSON_Print(arr);
            bool ok = s && fputs(s, out) >= 0 && fputc('\n', out) != EOF;
            cJSON_free(s);
            cJSON_Delete(arr);
            return ok;
        }
        double gpu = 0, removable = 0;
        for (size_t i = 0; i < r->n_stats; i++) {
            const char *marks = r->stats[i].fixable == r->stats[i].count ? "[*] "
                                : r->stats[i].fixable                   ? "[-] "
                                                                        : "    ";
            if (fprintf(out, "%5zu\t%s\t%s%s", r->stats[i].count, r->stats[i].code, marks,
                        r->stats[i].name) < 0)
                return false;
            if (r->opt.profiled &&
                fprintf(out, "\t%zu measured, %.1f \xc2\xb5s GPU, fixes remove %.1f \xc2\xb5s",
                        r->stats[i].measured, r->stats[i].gpu_us, r->stats[i].removable_us) < 0)
                return false;
            if (fputc('\n', out) == EOF)
                return false;
            gpu += r->stats[i].gpu_us;
            removable += r->stats[i].removable_us;
        }
        if (r->opt.profiled && fprintf(out, "Measured: %.1f \xc2\xb5s of GPU time at the findings; "
                                            "their fixes remove %.1f \xc2\xb5s.\n",
                                       gpu, removable) < 0)
            return false;
        return true;
    }
    if (r->opt.format == AL_FORMAT_SARIF)
        return write_sarif(r, out);
    if (r->opt.format == AL_FORMAT_JSON) {
        char *s = cJSON_Print(r->json);
        if (!s)
            abort();
        bool ok = fputs(s, out) >= 0 && fputc('\n', out) != EOF;
        cJSON_free(s);
        return ok;
    }
    if (r->text.len && fwrite(r->text.data, 1, r->text.len, out) != r->text.len)
        return false;
    return true;
}

size_t al_report_count(const al_report *r)
{
    return r->count;
}

size_t al_report_fixable(const al_report *r, bool unsafe)
{
    return unsafe ? r->fixable_unsafe : r->fixable_safe;
}

void al_report_free(al_report *r)
{
    if (!r)
        return;
    al_strbuf_free(&r->text);
    free(r->stats);
    free(r->entries);
    if (r->json)
        cJSON_Delete(r->json);
    free(r);
}
