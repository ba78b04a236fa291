/* A finding: one rule's report about one span, with an optional fix made
 * of byte-range edits. */
#ifndef ALLOCLINT_FINDING_H
#define ALLOCLINT_FINDING_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    AL_FIX_SAFE,
    AL_FIX_UNSAFE,
    AL_FIX_DISPLAY_ONLY,
} al_applicability;

typedef struct {
    size_t start, end; /* byte range replaced */
    char *content;     /* replacement text */
} al_edit;

typedef struct {
    al_applicability applicability;
    char *message;
    al_edit *edits;
    size_t n_edits, cap_edits;
    /* The bytes its proof read (scope_end > scope_start when set): a fix
     * is proved on the text before any other fix, so no fix editing these
     * bytes goes into the same pass; the next pass proves it again. */
    size_t scope_start, scope_end;
} al_fix;

/* A step of the reasoning behind a finding, possibly in another file:
 * which callee, which kernel, which store. */
typedef struct {
    char *message;
    char *path; /* NULL: the finding's own file */
    size_t row; /* 1-based */
} al_note;

/* What a finding's fix takes off the GPU, for the measured cost of a
 * profile: the part of the statement's GPU time it removes. */
typedef enum {
    AL_REMOVES_RULE,     /* what the rule's page says (al_rule.removes) */
    AL_REMOVES_NOTHING,  /* a rewrite that only simplifies, or whose work stays */
    AL_REMOVES_FACTORY_FILL, /* the fill kernels of a factory (`torch.zeros`, `*_like`) */
    AL_REMOVES_FILL_CALL,    /* those of a fill call (`.zero_()`, `.fill_(v)`) */
    AL_REMOVES_PART,     /* part of the fill, by sizes a trace does not hold: counted 0 */
    AL_REMOVES_COPY,     /* the copy of `.to()` / `.cuda()` */
    AL_REMOVES_CAT,      /* the copy `torch.cat` makes */
    AL_REMOVES_ALL_BUT_ONE, /* every launch of the statement but one per call of its function */
} al_removes;

/* What a profile measured of a finding's statement. */
typedef struct {
    size_t calls;            /* how many times it ran */
    double gpu_us, host_us;  /* its GPU events, and its ops on the host */
    double removable_gpu_us; /* the part of gpu_us the fix removes */
    double share;            /* gpu_us over all GPU time of the traces */
    bool by_function;        /* the trace could not split its function's sites */
    size_t sharing;          /* by_function: how many sites of its kind share the cost */
} al_cost;

typedef struct {
    const char *code; /* static: "AL101" */
    const char *name; /* static: "zeros-overwritten" */
    char *message;
    size_t start, end; /* byte span */
    al_fix *fix;       /* NULL when there is none */
    al_note *notes;
    size_t n_notes, cap_notes;
    al_removes removes;
    al_cost *cost; /* NULL unless a profile measured it */
} al_finding;

typedef struct {
    al_finding *items;
    size_t n, cap;
} al_findings;

al_fix *al_fix_new(al_applicability applicability, const char *message);
void al_fix_add_edit(al_fix *fix, size_t start, size_t end, const char *content);
void al_findings_add(al_findings *list, const char *code, const char *name,
                     size_t start, size_t end, char *message, al_fix *fix);
void al_findings_sort(al_findings *list);
/* Whether some finding of list offers a fix. */
bool al_findings_any_fix(const al_findings *list);
/* What the fix of the finding most recently added removes, where it is not
 * what its rule's fixes usually remove. */
void al_findings_set_removes(al_findings *list, al_removes removes);
const char *al_removes_name(al_removes removes);
/* Adds a note to the finding most recently added to list. */
void al_findings_note(al_findings *list, const char *path, size_t row, const char *message);
/* Frees one finding's message and fix (not the finding itself). */
void al_finding_free(al_finding *f);
void al_findings_free(al_findings *list);
const char *al_applicability_name(al_applicability a);
/* Every byte offset a report of these findings asks a position of (each
 * span's ends, each edit's ends); *n of them. Caller frees. */
size_t *al_findings_places(const al_findings *list, size_t *n);

#endif
