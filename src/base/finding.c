#include "finding.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

al_fix *al_fix_new(al_applicability applicability, const char *message)
{
    al_fix *fix = al_xcalloc(1, sizeof *fix);
    fix->applicability = applicability;
    fix->message = al_xstrdup(message);
    return fix;
}

void al_fix_add_edit(al_fix *fix, size_t start, size_t end, const char *content)
{
    al_edit e = {start, end, al_xstrdup(content)};
    AL_PUSH(fix->edits, fix->n_edits, fix->cap_edits, e);
}

static void fix_free(al_fix *fix)
{
    if (!fix)
        return;
    for (size_t i = 0; i < fix->n_edits; i++)
        free(fix->edits[i].content);
    free(fix->edits);
    free(fix->message);
    free(fix);
}

/* A message is one line (text, concise and GitHub output are a finding a
 * line): code quoted in it that spans lines (`x.sub_((\n    y\n))`) keeps
 * one space where each line break and its indentation were. */
static void one_line(char *m)
{
    size_t k = 0;
    for (size_t i = 0; m[i]; i++) {
        if (m[i] != '\n' && m[i] != '\r') {
            m[k++] = m[i];
            continue;
        }
        while (k > 0 && (m[k - 1] == ' ' || m[k - 1] == '\t' || m[k - 1] == '\\'))
            k--;
        while (m[i + 1] == ' ' || m[i + 1] == '\t' || m[i + 1] == '\n' || m[i + 1] == '\r')
            i++;
        m[k++] = ' ';
    }
    m[k] = '\0';
}

void al_findings_add(al_findings *list, const char *code, const char *name,
                     size_t start, size_t end, char *message, al_fix *fix)
{
    if (message)
        one_line(message);
    al_finding f = {code, name, message, start, end, fix, NULL, 0, 0, AL_REMOVES_RULE, NULL};
    AL_PUSH(list->items, list->n, list->cap, f);
}

void al_findings_set_removes(al_findings *list, al_removes removes)
{
    list->items[list->n - 1].removes = removes;
}

const char *al_removes_name(al_removes removes)
{
    switch (removes) {
    case AL_REMOVES_RULE:
        return "rule";
    case AL_REMOVES_NOTHING:
        return "nothing";
    case AL_REMOVES_FACTORY_FILL:
        return "factory-fill";
    case AL_REMOVES_FILL_CALL:
        return "fill-call";
    case AL_REMOVES_PART:
        return "part";
    case AL_REMOVES_COPY:
        return "copy";
    case AL_REMOVES_CAT:
        return "cat";
    case AL_REMOVES_ALL_BUT_ONE:
        return "all-but-one";
    }
    return "?";
}

static int compare(const void *x, const void *y)
{
    const al_finding *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return strcmp(a->code, b->code);
}

void al_findings_sort(al_findings *list)
{
    if (list->n > 1)
        qsort(list->items, list->n, sizeof *list->items, compare);
}

bool al_findings_any_fix(const al_findings *list)
{
    for (size_t i = 0; i < list->n; i++)
        if (list->items[i].fix)
            return true;
    return false;
}

void al_findings_note(al_findings *list, const char *path, size_t row, const char *message)
{
    al_finding *f = &list->items[list->n - 1];
    al_note n = {al_xstrdup(message), path ? al_xstrdup(path) : NULL, row};
    AL_PUSH(f->notes, f->n_notes, f->cap_notes, n);
}

void al_finding_free(al_finding *f)
{
    free(f->message);
    fix_free(f->fix);
    for (size_t i = 0; i < f->n_notes; i++) {
        free(f->notes[i].message);
        free(f->notes[i].path);
    }
    free(f->notes);
    free(f->cost);
    f->message = NULL;
    f->fix = NULL;
    f->notes = NULL;
    f->n_notes = 0;
    f->cost = NULL;
}

void al_findings_free(al_findings *list)
{
    for (size_t i = 0; i < list->n; i++)
        al_finding_free(&list->items[i]);
    free(list->items);
    memset(list, 0, sizeof *list);
}

const char *al_applicability_name(al_applicability a)
{
    switch (a) {
    case AL_FIX_SAFE:
        return "safe";
    case AL_FIX_UNSAFE:
        return "unsafe";
    case AL_FIX_DISPLAY_ONLY:
        return "display-only";
    }
    return "?";
}

size_t *al_findings_places(const al_findings *list, size_t *n)
{
    size_t *places = NULL, cap = 0;
    *n = 0;
    for (size_t i = 0; i < list->n; i++) {
        const al_finding *x = &list->items[i];
        AL_PUSH(places, *n, cap, x->start);
        AL_PUSH(places, *n, cap, x->end);
        for (size_t k = 0; x->fix && k < x->fix->n_edits; k++) {
            AL_PUSH(places, *n, cap, x->fix->edits[k].start);
            AL_PUSH(places, *n, cap, x->fix->edits[k].end);
        }
    }
    return places;
}
