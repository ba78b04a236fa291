/* ALLOCLINT_TIMING=1: each phase of a command's run, timed on stderr (for
 * bench/). */
#ifndef ALLOCLINT_PHASE_H
#define ALLOCLINT_PHASE_H

/* The monotonic clock, and the process's CPU time, in seconds. */
double al_phase_now(void);
double al_phase_cpu(void);
/* Prints the phase's wall time since *since (with ALLOCLINT_TIMING set);
 * restarts *since. */
void al_phase_done(const char *name, double *since);

#endif
