/* Facts about an attribute of `self` across the methods of its class
 * (DESIGN.md, "class attributes"): CUDA-graph state is made once, in the
 * constructor or init_cuda_graph_state, and written on every replay, so an
 * invariant such as "element 0 stays zero" is a fact about every method
 * that touches the attribute, and about code outside the class that
 * could. */
#ifndef ALLOCLINT_ATTRS_H
#define ALLOCLINT_ATTRS_H

#include "module.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    /* The attribute is bound in the class by a zeros factory (torch.zeros,
     * zeros_like, new_zeros); made_row is the first such binding. Any
     * other binding is a breaker. */
    bool made_zero;
    size_t made_row;
    int rank; /* of those factories' shape; -1 unknown or differing */
    /* The first use that may leave element 0 non-zero, or that hands the
     * buffer where that cannot be followed: where, and why ("is passed to
     * `attn`, which alloclint cannot follow"). NULL when there is none. */
    char *breaker;
    char *breaker_path; /* NULL: this file; else from the project's root */
    size_t breaker_row;
} al_attr_head;

/* The facts about `self.<attr>` in class cls (a class_definition).
 * Copies of a value whose element 0 is zero (al_zero_head_value),
 * zero_(), fill_(0) and writes to slices that start at 1 or later keep the
 * head zero; reads by operators and metadata queries touch nothing. */
void al_attr_head_facts(const al_pymodule *m, TSNode cls, const char *attr, al_attr_head *out);
void al_attr_head_free(al_attr_head *h);

/* The class_definition whose method holds n, and that method's first
 * parameter (`self`); null node when n is not in a method. */
TSNode al_enclosing_method_class(const al_pyfile *pf, TSNode n, char **self_name);
/* When attr is `self.x` in a method (self its first parameter): the
 * method's class; a null node otherwise. */
TSNode al_self_attribute_class(const al_pyfile *pf, TSNode attr);

#endif
