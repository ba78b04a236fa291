/* gitignore patterns (gitignore(5)), parsed and matched without I/O: the
 * walk reads each folder's .gitignore once as it descends, instead of
 * asking libgit2 per path (which re-checks every ignore file on the way
 * up: 58,000 stat calls a run over vLLM and SGLang). tests/unit/
 * test_ignore.c holds it to libgit2's answers on generated trees. */
#ifndef ALLOCLINT_IGNORE_H
#define ALLOCLINT_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *glob;    /* without the leading '!' or '/' and the trailing '/' */
    bool negated;  /* "!pattern": re-includes */
    bool dir_only; /* "pattern/": matches folders only */
    bool anchored; /* a '/' before the end: matched against the whole path */
    /* Most patterns are "name" or "*.ext": compared, not matched. */
    enum { AL_IGNORE_GLOB, AL_IGNORE_LITERAL, AL_IGNORE_SUFFIX } form;
    /* The literal head and tail of a glob (a suffix pattern's tail is
     * all after its '*'), which any match starts and ends with: a cheap
     * refusal before the match. */
    size_t head_len, tail_len;
} al_ignore_pattern;

/* The patterns of one ignore file, in file order. */
typedef struct {
    al_ignore_pattern *items;
    size_t n, cap;
} al_ignore_rules;

typedef enum {
    AL_IGNORE_NO_MATCH, /* no pattern of these rules says anything */
    AL_IGNORE_EXCLUDED,
    AL_IGNORE_INCLUDED /* the last pattern to match is a negation */
} al_ignore_verdict;

/* Adds the patterns of an ignore file's bytes (comments, blank lines,
 * escapes and trailing spaces as git reads them). */
void al_ignore_parse(al_ignore_rules *rules, const char *bytes, size_t len);
void al_ignore_rules_free(al_ignore_rules *rules);
/* What the last matching pattern says of `rel`, a path relative to the
 * folder of the ignore file ("a/b.py", no leading or trailing slash);
 * is_dir says whether it names a folder. icase: core.ignorecase. */
al_ignore_verdict al_ignore_match(const al_ignore_rules *rules, const char *rel, bool is_dir,
                                  bool icase);
/* git's wildmatch with WM_PATHNAME: '*', '?' and classes never match
 * '/', a "**" between slashes (or at an end) matches any folders. */
bool al_wildmatch(const char *pattern, const char *text, bool icase);

#endif
