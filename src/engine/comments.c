#include "comments.h"

#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* Whether the comment at c ends its line. */
static bool ends_line(const al_source *src, const al_span *c)
{
    size_t i = c->end;
    while (i < src->len && (src->bytes[i] == ' ' || src->bytes[i] == '\t' ||
                            src->bytes[i] == '\r'))
        i++;
    return i >= src->len || src->bytes[i] == '\n';
}

/* Comments inside the text a fix rewrites would be lost. The comment
 * ending the first line rewritten (the statement's own) is carried to the
 * end of the replacement's first line; any other (a comment inside a
 * call, or on a later line) makes the fix not safe, as in ruff, and the
 * finding says so. A deletion takes its statement's comments with it. */
void al_comments_keep(const al_source *src, const al_span *comments, size_t n_comments,
                      al_findings *out, size_t first)
{
    for (size_t i = first; i < out->n; i++) {
        al_finding *f = &out->items[i];
        if (!f->fix || f->fix->applicability == AL_FIX_DISPLAY_ONLY)
            continue;
        bool dropped = false;
        for (size_t e = 0; e < f->fix->n_edits; e++) {
            al_edit *ed = &f->fix->edits[e];
            if (!*ed->content)
                continue;
            /* comments are in document order: the first at or after start */
            size_t lo = 0, hi = n_comments;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (comments[mid].start < ed->start)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            const char *nl = memchr(src->bytes + ed->start, '\n', ed->end - ed->start);
            size_t first_line_end = nl ? (size_t)(nl - src->bytes) : ed->end;
            al_strbuf carried = {0};
            for (size_t c = lo; c < n_comments && comments[c].end <= ed->end; c++) {
                char *text = al_xstrndup(src->bytes + comments[c].start,
                                         comments[c].end - comments[c].start);
                if (!strstr(ed->content, text)) {
                    if (comments[c].end <= first_line_end && ends_line(src, &comments[c]))
                        al_strbuf_printf(&carried, "  %s", text);
                    else
                        dropped = true;
                }
                free(text);
            }
            size_t head = strcspn(ed->content, "\n");
            if (carried.len && head > 0 && ed->content[head - 1] == '\\')
                dropped = true; /* no comment after a line continuation */
            else if (carried.len) {
                al_strbuf c = {0};
                al_strbuf_append(&c, ed->content, head);
                al_strbuf_append(&c, carried.data, carried.len);
                al_strbuf_puts(&c, ed->content + head);
                free(ed->content);
                ed->content = al_strbuf_detach(&c);
            }
            al_strbuf_free(&carried);
        }
        if (!dropped)
            continue;
        if (f->fix->applicability == AL_FIX_SAFE)
            f->fix->applicability = AL_FIX_UNSAFE;
        al_strbuf m = {0};
        al_strbuf_printf(&m, "%s; the fix would drop a comment inside the code it rewrites",
                         f->message);
        free(f->message);
        f->message = al_strbuf_detach(&m);
    }
}
