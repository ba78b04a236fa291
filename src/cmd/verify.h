/* `alloclint verify PATCH -- CMD`: runs the user's own command on a copy
 * of the working tree with each change of a patch applied and freshly
 * allocated memory poisoned, and says of every change whether it was
 * verified, rejected (the command fails with it) or untested (the command
 * never executed it). The user's files are never touched. */
#ifndef ALLOCLINT_VERIFY_H
#define ALLOCLINT_VERIFY_H

/* argv from the `verify` word on; returns the exit code (0 every change
 * verified, 1 one rejected or untested, 2 an error). */
int al_verify_main(int argc, char **argv);

#endif
