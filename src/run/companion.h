/* The run-time companion (share/sitecustomize.py, embedded in the binary):
 * written into a fresh temporary folder whose site/ goes first on the
 * PYTHONPATH of the commands `verify` and `profile` run, so that Python
 * reads it at start-up. */
#ifndef ALLOCLINT_COMPANION_H
#define ALLOCLINT_COMPANION_H

#include <stddef.h>

/* A new folder /tmp/alloclint-<purpose>-XXXXXX holding site/sitecustomize.py;
 * NULL with a message in err when it cannot be made. Caller frees. */
char *al_companion_make(const char *purpose, char *err, size_t err_size);
/* "PYTHONPATH=<root>/site[:old]": the environment entry that loads it
 * (caller frees). */
char *al_companion_pythonpath(const char *root);
/* Removes the folder and all under it. */
void al_companion_remove(const char *root);

#endif
