/* Jupyter notebooks (.ipynb) as one Python source: the code cells joined
 * in document order, each after a marker line, with IPython magics
 * commented out so that the rest parses; and the way back, writing changed
 * cells into the notebook's JSON without touching anything else (outputs,
 * metadata, other cells, formatting). Pure: bytes in, bytes out. */
#ifndef ALLOCLINT_NOTEBOOK_H
#define ALLOCLINT_NOTEBOOK_H
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t number;              /* 1-based position among all cells, as Jupyter shows */
    size_t value_start, value_end; /* the "source" value's bytes in the JSON */
    bool as_list;               /* "source" is a list of lines (else one string) */
    char *text;                 /* the cell's code as written */
    char *python;               /* the same with magic lines commented out */
    bool added_newline;         /* python got a final newline text lacks */
    size_t python_start;        /* where python starts in the joined source */
    size_t first_line;          /* its first line there (1-based) */
} al_nb_cell;

typedef struct al_notebook {
    al_nb_cell *cells; /* code cells only */
    size_t n, cap;
    char *python;      /* the joined source */
    size_t python_len;
} al_notebook;

/* Reads a notebook. False with *err (caller frees) when the bytes are not
 * JSON, or not a notebook (no "cells" list, a cell whose source is neither
 * a string nor a list of strings), or when it cannot be written back
 * exactly as Jupyter reads it: a key held twice by the notebook or a cell,
 * a source whose bytes do not decode to the text read, an escaped NUL. */
bool al_notebook_parse(const char *json, size_t len, al_notebook *nb, char **err);
void al_notebook_free(al_notebook *nb);

/* The notebook JSON with each code cell whose code differs in `python` (a
 * changed copy of nb->python) written back, magics restored; NULL with
 * *err when the cells or their magics cannot be found again in it. */
char *al_notebook_rewrite(const al_notebook *nb, const char *json, size_t len,
                          const char *python, size_t python_len, size_t *out_len, char **err);

/* The cell holding a line of the joined source, and the line within it. */
void al_notebook_cell_line(const al_notebook *nb, size_t line, size_t *cell_number,
                           size_t *cell_line);
#endif
