/* The explain command: why alloclint says what it says about one line, or
 * nothing (engine/explain.h), as text or JSON. */
#ifndef ALLOCLINT_CMD_EXPLAIN_H
#define ALLOCLINT_CMD_EXPLAIN_H

/* argv[0] is "explain". Returns the process exit code. */
int al_explain_main(int argc, char **argv);

#endif
