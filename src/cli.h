/* The command line: `alloclint check [OPTIONS] [PATH...]`. */
#ifndef ALLOCLINT_CLI_H
#define ALLOCLINT_CLI_H

enum { AL_EXIT_CLEAN = 0, AL_EXIT_FINDINGS = 1, AL_EXIT_ERROR = 2 };

/* Runs the command line and returns the process exit code. */
int al_cli_main(int argc, char **argv);

#endif
