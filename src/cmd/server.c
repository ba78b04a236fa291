#include "server.h"

#include "../analysis/core/index.h"
#include "../analysis/core/ops.h"
#include "check.h"
#include "../run/config.h"
#include "../engine/lint.h"
#include "../rules/rules.h"
#include "../base/paths.h"
#include "../base/source.h"
#include "../base/util.h"
#include "../base/version.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Where the rule pages are, for diagnostics' codeDescription: installed
 * beside the binary (share/doc/alloclint/rules), else the source tree the
 * binary was built from; none when neither exists. */
static char pages_dir[PATH_MAX];

static void find_pages(void)
{
    pages_dir[0] = '\0';
    char *bin = al_path_self_dir();
    if (bin) {
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s/../share/doc/alloclint/rules/AL101.md", bin);
        free(bin);
        char real[PATH_MAX];
        if (realpath(probe, real)) {
            *strrchr(real, '/') = '\0';
            snprintf(pages_dir, sizeof pages_dir, "%s", real);
            return;
        }
    }
#ifdef ALLOCLINT_SOURCE_DIR
    char probe[PATH_MAX], real[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/rules/AL101.md", ALLOCLINT_SOURCE_DIR);
    if (realpath(probe, real)) {
        *strrchr(real, '/') = '\0';
        snprintf(pages_dir, sizeof pages_dir, "%s", real);
    }
#endif
}

/* --- Documents ---------------------------------------------------------- */

typedef struct {
    char *uri, *path;
    char *text;
    size_t len;
    al_lint_result res; /* the last check, positions in text */
    al_source src;
    bool checked;
    /* Every safe fix applied, computed on the first request for it after a
     * check: editors ask for code actions at each cursor move. */
    char *fix_all;
    bool fix_all_done;
} document;

typedef struct {
    FILE *in, *out;
    document *docs;
    size_t n_docs, cap_docs;
    al_config_cache *configs;
    al_op_table ops;
    bool shutdown;
} server;

static void percent_decode(const char *s, al_strbuf *out)
{
    for (; *s; s++) {
        if (s[0] == '%' && s[1] && s[2]) {
            char hex[3] = {s[1], s[2], 0};
            char *end;
            long v = strtol(hex, &end, 16);
            if (!*end) {
                al_strbuf_putc(out, (char)v);
                s += 2;
                continue;
            }
        }
        al_strbuf_putc(out, *s);
    }
}

/* The file path of a file:// URI; other schemes keep the URI as the name
 * (an unsaved buffer has no configuration). */
static char *uri_path(const char *uri)
{
    al_strbuf sb = {0};
    al_strbuf_reserve(&sb, 1);
    if (!strncmp(uri, "file://", 7))
        percent_decode(uri + 7, &sb);
    else
        al_strbuf_puts(&sb, uri);
    return al_strbuf_detach(&sb);
}

static document *find_doc(server *s, const char *uri)
{
    for (size_t i = 0; i < s->n_docs; i++)
        if (!strcmp(s->docs[i].uri, uri))
            return &s->docs[i];
    return NULL;
}

static void doc_clear_check(document *d)
{
    if (d->checked) {
        al_lint_result_free(&d->res);
        al_source_free(&d->src);
        d->checked = false;
    }
    free(d->fix_all);
    d->fix_all = NULL;
    d->fix_all_done = false;
}

static void drop_doc(server *s, const char *uri)
{
    document *d = find_doc(s, uri);
    if (!d)
        return;
    doc_clear_check(d);
    free(d->uri);
    free(d->path);
    free(d->text);
    *d = s->docs[--s->n_docs];
}

/* --- Positions: LSP counts UTF-16 code units on 0-based lines ---------- */

static cJSON *lsp_position(const al_source *src, size_t offset)
{
    size_t row, col;
    al_source_position(src, offset, &row, &col);
    size_t start, end;
    al_source_line(src, row, &start, &end);
    size_t units = 0;
    for (size_t i = start; i < offset && i < src->len; i++) {
        unsigned char c = (unsigned char)src->bytes[i];
        if ((c & 0xC0) == 0x80)
            continue;
        units += c >= 0xF0 ? 2 : 1;
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "line", (double)(row - 1));
    cJSON_AddNumberToObject(p, "character", (double)units);
    return p;
}

static cJSON *lsp_range(const al_source *src, size_t start, size_t end)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToObject(r, "start", lsp_position(src, start));
    cJSON_AddItemToObject(r, "end", lsp_position(src, end));
    return r;
}

/* The byte offset of an LSP position, or len past the end. */
static size_t lsp_offset(const al_source *src, const cJSON *pos)
{
    int line = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pos, "line"));
    int character =
        (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(pos, "character"));
    if (line < 0 || (size_t)line >= src->n_lines)
        return src->len;
    size_t start, end;
    al_source_line(src, (size_t)line + 1, &start, &end);
    size_t i = start, units = 0;
    while (i < end && units < (size_t)(character > 0 ? character : 0)) {
        unsigned char c = (unsigned char)src->bytes[i++];
        units += c >= 0xF0 ? 2 : 1;
        while (i < end && ((unsigned char)src->bytes[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* --- Wire --------------------------------------------------------------- */

/* One message body, or NULL at the end of input or on a broken frame. */
static char *read_message(FILE *in)
{
    char line[1024];
    long length = -1;
    for (;;) {
        if (!fgets(line, sizeof line, in))
            return NULL;
        if (!strcmp(line, "\r\n") || !strcmp(line, "\n"))
            break;
        if (!strncasecmp(line, "Content-Length:", 15))
            length = strtol(line + 15, NULL, 10);
    }
    if (length < 0 || length > 64L * 1024 * 1024)
        return NULL;
    char *body = al_xmalloc((size_t)length + 1);
    if (fread(body, 1, (size_t)length, in) != (size_t)length) {
        free(body);
        return NULL;
    }
    body[length] = '\0';
    return body;
}

static void send_json(server *s, cJSON *msg)
{
    cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
    char *text = cJSON_PrintUnformatted(msg);
    if (text) {
        fprintf(s->out, "Content-Length: %zu\r\n\r\n%s", strlen(text), text);
        fflush(s->out);
        free(text);
    }
    cJSON_Delete(msg);
}

static void reply(server *s, const cJSON *id, cJSON *result)
{
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddItemToObject(msg, "id", cJSON_Duplicate(id, true));
    cJSON_AddItemToObject(msg, "result", result ? result : cJSON_CreateNull());
    send_json(s, msg);
}

static void reply_error(server *s, const cJSON *id, int code, const char *message)
{
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddItemToObject(msg, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON *err = cJSON_AddObjectToObject(msg, "error");
    cJSON_AddNumberToObject(err, "code", code);
    cJSON_AddStringToObject(err, "message", message);
    send_json(s, msg);
}

static void notify(server *s, const char *method, cJSON *params)
{
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "method", method);
    cJSON_AddItemToObject(msg, "params", params);
    send_json(s, msg);
}

static void show_message(server *s, int type, const char *text)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", text);
    notify(s, "window/showMessage", p);
}

/* --- Checking ----------------------------------------------------------- */

/* The options a document is checked with: its project's configuration, as
 * `alloclint check` reads it. */
static bool options_for(server *s, const document *d, al_lint_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->ops = &s->ops;
    const al_config *cfg = NULL;
    al_config_error err;
    if (!al_config_for(s->configs, d->path, false, &cfg, &err)) {
        show_message(s, 1, err.message);
        return false;
    }
    if (cfg && al_config_excludes(cfg, d->path))
        return false;
    al_check_options none;
    memset(&none, 0, sizeof none);
    if (!al_check_rules_for(&none, cfg, d->path, opt->enabled, &err))
        show_message(s, 2, err.message);
    if (cfg)
        opt->ops = &cfg->ops;
    return true;
}

static const char *tier(const al_finding *f)
{
    if (!f->fix)
        return "no fix";
    switch (f->fix->applicability) {
    case AL_FIX_SAFE: return "safe fix";
    case AL_FIX_UNSAFE: return "unsafe fix";
    default: return "fix shown only";
    }
}

static cJSON *diagnostic(const document *d, const al_finding *f)
{
    cJSON *g = cJSON_CreateObject();
    cJSON_AddItemToObject(g, "range", lsp_range(&d->src, f->start, f->end));
    cJSON_AddNumberToObject(g, "severity", 2); /* warning: none of this is an error */
    cJSON_AddStringToObject(g, "code", f->code);
    if (pages_dir[0]) {
        al_strbuf href = {0};
        al_strbuf_printf(&href, "file://%s/%s.md", pages_dir, f->code);
        cJSON *cd = cJSON_AddObjectToObject(g, "codeDescription");
        cJSON_AddStringToObject(cd, "href", href.data);
        al_strbuf_free(&href);
    }
    cJSON_AddStringToObject(g, "source", "alloclint");
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "%s [%s]", f->message, tier(f));
    for (size_t i = 0; i < f->n_notes; i++)
        al_strbuf_printf(&msg, "\nnote: %s:%zu: %s", f->notes[i].path ? f->notes[i].path : d->path,
                         f->notes[i].row, f->notes[i].message);
    cJSON_AddStringToObject(g, "message", msg.data);
    al_strbuf_free(&msg);
    return g;
}

static void check_and_publish(server *s, document *d)
{
    doc_clear_check(d);
    cJSON *diags = cJSON_CreateArray();
    al_lint_options opt;
    if (options_for(s, d, &opt)) {
        al_source_from_memory(&d->src, d->path, d->text, d->len);
        /* A fresh index: files on disk may have changed since the last check. */
        opt.index = al_index_new();
        char cwd[PATH_MAX];
        opt.cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL;
        al_lint(&d->src, &opt, &d->res);
        al_index_free(opt.index);
        d->checked = true;
        for (size_t i = 0; i < d->res.findings.n; i++)
            cJSON_AddItemToArray(diags, diagnostic(d, &d->res.findings.items[i]));
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", d->uri);
    cJSON_AddItemToObject(p, "diagnostics", diags);
    notify(s, "textDocument/publishDiagnostics", p);
}

static void publish_empty(server *s, const char *uri)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", uri);
    cJSON_AddItemToObject(p, "diagnostics", cJSON_CreateArray());
    notify(s, "textDocument/publishDiagnostics", p);
}

/* --- Requests and notifications ------------------------------------------ */

static cJSON *capabilities(void)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *caps = cJSON_AddObjectToObject(r, "capabilities");
    cJSON *sync = cJSON_AddObjectToObject(caps, "textDocumentSync");
    cJSON_AddBoolToObject(sync, "openClose", true);
    cJSON_AddNumberToObject(sync, "change", 1); /* whole documents */
    cJSON *save = cJSON_AddObjectToObject(sync, "save");
    cJSON_AddBoolToObject(save, "includeText", false);
    cJSON *ca = cJSON_AddObjectToObject(caps, "codeActionProvider");
    cJSON *kinds = cJSON_AddArrayToObject(ca, "codeActionKinds");
    cJSON_AddItemToArray(kinds, cJSON_CreateString("quickfix"));
    cJSON_AddItemToArray(kinds, cJSON_CreateString("source.fixAll.alloclint"));
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "alloclint");
    cJSON_AddStringToObject(info, "version", ALLOCLINT_VERSION);
    return r;
}

static void did_open(server *s, const cJSON *params)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(td, "uri"));
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(td, "text"));
    if (!uri || !text)
        return;
    drop_doc(s, uri);
    document d;
    memset(&d, 0, sizeof d);
    d.uri = al_xstrdup(uri);
    d.path = uri_path(uri);
    d.text = al_xstrdup(text);
    d.len = strlen(text);
    AL_PUSH(s->docs, s->n_docs, s->cap_docs, d);
    check_and_publish(s, &s->docs[s->n_docs - 1]);
}

static void did_change(server *s, const cJSON *params)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    document *d = find_doc(s, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(td, "uri")));
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(params, "contentChanges");
    const cJSON *last = cJSON_GetArrayItem(changes, cJSON_GetArraySize(changes) - 1);
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(last, "text"));
    if (!d || !text)
        return;
    free(d->text);
    d->text = al_xstrdup(text);
    d->len = strlen(text);
    check_and_publish(s, d);
}

static cJSON *text_edits(const document *d, const al_fix *fix)
{
    cJSON *edits = cJSON_CreateArray();
    for (size_t e = 0; e < fix->n_edits; e++) {
        cJSON *te = cJSON_CreateObject();
        cJSON_AddItemToObject(te, "range", lsp_range(&d->src, fix->edits[e].start, fix->edits[e].end));
        cJSON_AddStringToObject(te, "newText", fix->edits[e].content);
        cJSON_AddItemToArray(edits, te);
    }
    return edits;
}

static cJSON *workspace_edit(const document *d, cJSON *edits)
{
    cJSON *we = cJSON_CreateObject();
    cJSON *changes = cJSON_AddObjectToObject(we, "changes");
    cJSON_AddItemToObject(changes, d->uri, edits);
    return we;
}

/* Each fix of a finding in the range as a quickfix; and every safe fix,
 * applied to a fixed point as `check --fix` would, as source.fixAll. */
static cJSON *code_actions(server *s, const cJSON *params)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    document *d = find_doc(s, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(td, "uri")));
    cJSON *actions = cJSON_CreateArray();
    if (!d || !d->checked)
        return actions;
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
    size_t from = lsp_offset(&d->src, cJSON_GetObjectItemCaseSensitive(range, "start"));
    size_t to = lsp_offset(&d->src, cJSON_GetObjectItemCaseSensitive(range, "end"));
    size_t safe = 0;
    for (size_t i = 0; i < d->res.findings.n; i++) {
        const al_finding *f = &d->res.findings.items[i];
        if (f->fix && f->fix->applicability == AL_FIX_SAFE)
            safe++;
        if (!f->fix || f->fix->applicability == AL_FIX_DISPLAY_ONLY || f->end < from || f->start > to)
            continue;
        bool unsafe = f->fix->applicability == AL_FIX_UNSAFE;
        cJSON *a = cJSON_CreateObject();
        al_strbuf title = {0};
        al_strbuf_printf(&title, "%s (%s%s)", f->fix->message, f->code, unsafe ? ", unsafe" : "");
        cJSON_AddStringToObject(a, "title", title.data);
        al_strbuf_free(&title);
        cJSON_AddStringToObject(a, "kind", "quickfix");
        cJSON *diags = cJSON_AddArrayToObject(a, "diagnostics");
        cJSON_AddItemToArray(diags, diagnostic(d, f));
        cJSON_AddBoolToObject(a, "isPreferred", !unsafe);
        cJSON_AddItemToObject(a, "edit", workspace_edit(d, text_edits(d, f->fix)));
        cJSON_AddItemToArray(actions, a);
    }
    al_lint_options opt;
    if (safe && !d->fix_all_done && options_for(s, d, &opt)) {
        opt.apply_safe = true;
        opt.index = al_index_new();
        al_lint_result fixed;
        al_lint(&d->src, &opt, &fixed);
        al_index_free(opt.index);
        d->fix_all = fixed.fixed;
        fixed.fixed = NULL;
        al_lint_result_free(&fixed);
    }
    d->fix_all_done = true;
    if (d->fix_all) {
        cJSON *a = cJSON_CreateObject();
        cJSON_AddStringToObject(a, "title", "alloclint: apply every safe fix");
        cJSON_AddStringToObject(a, "kind", "source.fixAll.alloclint");
        cJSON *edits = cJSON_CreateArray();
        cJSON *te = cJSON_CreateObject();
        cJSON_AddItemToObject(te, "range", lsp_range(&d->src, 0, d->src.len));
        cJSON_AddStringToObject(te, "newText", d->fix_all);
        cJSON_AddItemToArray(edits, te);
        cJSON_AddItemToObject(a, "edit", workspace_edit(d, edits));
        cJSON_AddItemToArray(actions, a);
    }
    return actions;
}

/* Returns false when the session is over. */
static bool handle(server *s, const cJSON *msg, int *exit_code)
{
    const char *method = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
    if (!method) {
        if (id)
            return true; /* a response to something we never ask: ignored */
        reply_error(s, NULL, -32600, "not a request");
        return true;
    }
    if (!strcmp(method, "exit")) {
        *exit_code = s->shutdown ? 0 : 1;
        return false;
    }
    if (s->shutdown && id) {
        reply_error(s, id, -32600, "the server is shutting down");
        return true;
    }
    if (!strcmp(method, "initialize"))
        reply(s, id, capabilities());
    else if (!strcmp(method, "shutdown"))
        s->shutdown = true, reply(s, id, NULL);
    else if (!strcmp(method, "textDocument/didOpen"))
        did_open(s, params);
    else if (!strcmp(method, "textDocument/didChange"))
        did_change(s, params);
    else if (!strcmp(method, "textDocument/didSave")) {
        /* The configuration may have been what was saved. */
        al_config_cache_free(s->configs);
        s->configs = al_config_cache_new();
        const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
        document *d =
            find_doc(s, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(td, "uri")));
        if (d)
            check_and_publish(s, d);
    } else if (!strcmp(method, "textDocument/didClose")) {
        const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
        const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(td, "uri"));
        if (uri) {
            drop_doc(s, uri);
            publish_empty(s, uri);
        }
    } else if (!strcmp(method, "textDocument/codeAction"))
        reply(s, id, code_actions(s, params));
    else if (id)
        reply_error(s, id, -32601, "method not found");
    /* Other notifications (initialized, $/cancelRequest, ...) need nothing. */
    return true;
}

int al_server_run(FILE *in, FILE *out)
{
    server s;
    memset(&s, 0, sizeof s);
    s.in = in;
    s.out = out;
    s.configs = al_config_cache_new();
    al_ops_error operr;
    if (!al_ops_load_builtin(&s.ops, &operr)) {
        fprintf(stderr, "alloclint: error: built-in op table: %s\n", operr.message);
        al_config_cache_free(s.configs);
        return 2;
    }
    find_pages();
    int exit_code = 1; /* input ended without `exit` */
    char *body;
    while ((body = read_message(in)) != NULL) {
        cJSON *msg = cJSON_Parse(body);
        free(body);
        bool go_on = true;
        if (!msg)
            reply_error(&s, NULL, -32700, "parse error");
        else
            go_on = handle(&s, msg, &exit_code);
        cJSON_Delete(msg);
        if (!go_on)
            break;
    }
    while (s.n_docs)
        drop_doc(&s, s.docs[0].uri);
    free(s.docs);
    al_config_cache_free(s.configs);
    al_ops_free(&s.ops);
    return exit_code;
}

int al_server_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs("Usage: alloclint server\n\n"
                  "A Language Server on stdin/stdout (JSON-RPC, Content-Length framing):\n"
                  "diagnostics for open Python and C++/CUDA documents with their project's\n"
                  "configuration, and fixes as code actions (quickfix per finding,\n"
                  "source.fixAll.alloclint for every safe fix).\n",
                  stdout);
            return 0;
        }
        if (strcmp(argv[i], "--stdio") != 0) { /* what many clients pass */
            fprintf(stderr, "alloclint: error: unknown option `%s` for `server`\n", argv[i]);
            return 2;
        }
    }
    return al_server_run(stdin, stdout);
}
