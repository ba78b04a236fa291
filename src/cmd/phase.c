#include "phase.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double al_phase_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

double al_phase_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void al_phase_done(const char *name, double *since)
{
    static int enabled = -1;
    if (enabled < 0)
        enabled = getenv("ALLOCLINT_TIMING") != NULL;
    double t = al_phase_now();
    if (enabled)
        fprintf(stderr, "alloclint: timing: %-10s %.3f s\n", name, t - *since);
    *since = t;
}
