/* The command line: `alloclint check [OPTIONS] [PATH...]`. */
#ifndef ALLOCLINT_CLI_H
#define ALLOCLINT_CLI_H

/* Runs the command line and returns the process exit code. */
int al_cli_main(int argc, char **argv);

#endif
