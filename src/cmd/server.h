/* `alloclint server`: a Language Server over stdio (JSON-RPC 2.0 with
 * Content-Length framing). Open documents are checked as they change, with
 * their project's configuration; findings are published as diagnostics and
 * fixes offered as code actions. */
#ifndef ALLOCLINT_SERVER_H
#define ALLOCLINT_SERVER_H
#include <stdio.h>

/* Serves requests from in to out until `exit`; returns the exit code (0
 * after a shutdown request, 1 otherwise, as the protocol asks). */
int al_server_run(FILE *in, FILE *out);

int al_server_main(int argc, char **argv);
#endif
