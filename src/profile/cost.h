/* A finding's measured cost: the traces' calls at the sites its span
 * holds, and the part its fix removes as its rule's page defines it
 * (al_removes): the factory's fill for AL101, the fill call for a
 * redundant AL103 fill, the copy for AL201/AL203/AL204 and AL501, all but
 * one launch per call of the function for AL202, AL301 and AL303, nothing
 * for a rewrite that only simplifies. */
#ifndef ALLOCLINT_COST_H
#define ALLOCLINT_COST_H

#include "sites.h"
#include "../base/finding.h"

/* Attaches al_cost to each finding of the file at path that the sites
 * measured (those sites whose call lies in its span; else the function's
 * unsplit cost when a site it shares lies there). */
void al_cost_attach(const al_site_costs *sites, const char *path, al_findings *findings);

/* Sorts the site costs by file and position, for al_cost_attach. */
void al_site_costs_sort_by_place(al_site_costs *sites);

/* The part of a site's GPU time a fix that removes `removes` takes off. */
double al_cost_removable_us(const al_site_cost *s, al_removes removes);

#endif
