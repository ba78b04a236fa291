/* A git work tree's ignore rules as the walk needs them: each folder's
 * .gitignore read once (not re-checked per path, as libgit2 does), then
 * $GIT_DIR/info/exclude and core.excludesFile (else
 * $XDG_CONFIG_HOME/git/ignore), in git's order of precedence. */
#ifndef ALLOCLINT_GITIGNORE_H
#define ALLOCLINT_GITIGNORE_H

#include <git2.h>
#include <stdbool.h>

typedef struct al_gitignore al_gitignore;

/* For repo, whose work tree is `workdir` (its real path). */
al_gitignore *al_gitignore_new(git_repository *repo, const char *workdir);
void al_gitignore_free(al_gitignore *g);
/* Folder `rel` (relative to the work tree; "" is the top) has no
 * .gitignore: a walk that listed it says so, and it is not looked for. */
void al_gitignore_no_file(al_gitignore *g, const char *rel);
/* Whether the rules exclude `rel` (relative to the work tree, no
 * trailing slash) when its folders are known not to be excluded, as in a
 * walk that does not enter excluded folders. */
bool al_gitignore_excludes(al_gitignore *g, const char *rel, bool is_dir);
/* The same for any path: a path in an excluded folder is excluded. */
bool al_gitignore_excludes_path(al_gitignore *g, const char *rel, bool is_dir);

#endif
