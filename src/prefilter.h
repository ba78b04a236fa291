/* Cheap token facts about a file's bytes, to skip parsing files that no
 * enabled rule can fire on. Each rule declares the token classes it needs
 * (rules/rules.h); a file is parsed when some enabled rule's needs are met. */
#ifndef ALLOCLINT_PREFILTER_H
#define ALLOCLINT_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>

enum {
    AL_TOK_FACTORY = 1 << 0,  /* zeros( ones( full( (and _like, new_) */
    AL_TOK_FILL = 1 << 1,     /* fill_( zero_( */
    AL_TOK_TRITON = 1 << 2,   /* triton */
    AL_TOK_CAT = 1 << 3,      /* cat( concat( concatenate( stack( */
    AL_TOK_LOOP = 1 << 4,     /* `for ` / `while ` */
    AL_TOK_MOVE = 1 << 5,     /* .to( .cuda( */
    AL_TOK_MAKER = 1 << 6,    /* empty( arange( tensor( rand( ... every other factory */
    AL_TOK_SUPPRESS = 1 << 7, /* noqa, alloclint: */
};

/* At most this many conjuncts in a rule's needs. */
#define AL_PREFILTER_TERMS 3

/* The token classes present in bytes. */
unsigned al_prefilter_scan(const char *bytes, size_t len);
/* Whether tokens meet needs: every nonzero entry (a set of classes) must
 * share a class with tokens. All zero: always. */
bool al_prefilter_admits(const unsigned needs[AL_PREFILTER_TERMS], unsigned tokens);

#endif
