/* `--profile`: the traces read, joined to the checked files, and what a
 * user must be told about them (no Python frames, nothing in the tree,
 * CUDA-graph replays that cannot be split). The traces themselves are
 * dropped once joined: only the per-site costs stay. */
#ifndef ALLOCLINT_PROFILE_H
#define ALLOCLINT_PROFILE_H

#include "sites.h"
#include "../base/util.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    al_site_costs sites; /* sorted by place (al_site_costs_sort_by_place) */
    size_t n_traces;
    al_strlist frameless; /* traces without Python frames */
} al_profile;

/* Reads each trace and joins them to the checked files. False with a
 * message naming the file and the offset when one cannot be read whole;
 * nothing is kept then. */
bool al_profile_load(al_profile *p, const char *const *traces, size_t n_traces,
                     char *const *paths, size_t n_paths, char *err, size_t err_size);
/* One line each ("alloclint: note: ..."): the traces' GPU time and how
 * much of it the tree's calls and CUDA-graph replays took, and what could
 * not be placed. */
void al_profile_notes(const al_profile *p, al_strbuf *out);
void al_profile_free(al_profile *p);

#endif
