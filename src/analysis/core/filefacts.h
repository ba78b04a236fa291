/* What the index's byte scans of a project read from each Python file
 * (the methods it defines, whether it may register custom ops), shared by
 * the indexes of one run's threads: each file is read once a run, not
 * once a thread and a scan. */
#ifndef ALLOCLINT_FILEFACTS_H
#define ALLOCLINT_FILEFACTS_H

#include "../../base/source.h"
#include "../../base/util.h"

#include <stdbool.h>

typedef struct {
    al_source_status status;
    unsigned long long hash; /* of the bytes read (status AL_SOURCE_OK) */
    bool markers;            /* names "custom_op" or "impl(": may register ops */
    al_strlist methods;      /* names of indented `def name(`, those starting `__` left out */
    al_strlist attrs;        /* attribute names it assigns on an object other than
                              * self or cls: `x.name =`, `x.name: T =`,
                              * `setattr(obj, "name", ...)` */
    al_strlist self_attrs;   /* those it assigns on `self.` or `cls.` */
    char *names;             /* the three lists' strings, packed (NULL: none) */
} al_file_facts;

typedef struct al_file_facts_table al_file_facts_table;

al_file_facts_table *al_file_facts_table_new(void);
void al_file_facts_table_free(al_file_facts_table *t);
/* path's facts: read now, or as another thread read them before. Safe
 * from any thread; the facts live as long as the table. */
const al_file_facts *al_file_facts_of(al_file_facts_table *t, const char *path);

#endif
