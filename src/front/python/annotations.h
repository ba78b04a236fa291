/* Declared types in Python source: what a class says its attributes hold,
 * for calls dispatched through them (analysis/core/summary.c). */
#ifndef ALLOCLINT_ANNOTATIONS_H
#define ALLOCLINT_ANNOTATIONS_H

#include "syntax.h"

/* The class that class cls declares its attribute `attr` to hold: an
 * annotation `attr: T` in its body or `self.attr: T = ...` in a method
 * (`Optional[T]`, `T | None` give T); without one, what every `self.attr
 * = v` of its methods gives it, when they agree (v a parameter annotated
 * T, or `T(...)`; `None` aside). Null when there is none, one is not a
 * class's name, or two disagree. */
TSNode al_py_attribute_type(const al_pyfile *pf, TSNode cls, const char *attr);

#endif
