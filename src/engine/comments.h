/* Comments inside the code a fix rewrites: carried along or the fix is
 * made unsafe, so that no fix loses what a developer wrote. */
#ifndef ALLOCLINT_COMMENTS_H
#define ALLOCLINT_COMMENTS_H

#include "../base/finding.h"
#include "../base/source.h"

#include <stddef.h>

/* For the fixes of findings from `first` on: the comment ending the first
 * line rewritten is carried to the end of the replacement's first line;
 * any other comment the rewrite would drop makes a safe fix unsafe and
 * says so in the finding's message. comments: the file's comment spans,
 * in document order. */
void al_comments_keep(const al_source *src, const al_span *comments, size_t n_comments,
                      al_findings *out, size_t first);

#endif
