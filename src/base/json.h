/* What the JSON readers (notebooks, compile_commands.json) need beyond
 * cJSON. JSON allows an object to hold a key twice, and readers disagree
 * on which one counts (Python's json, and so Jupyter, keeps the last;
 * cJSON finds the first): a reader of ours refuses such an object rather
 * than guess. */
#ifndef ALLOCLINT_JSON_H
#define ALLOCLINT_JSON_H

#include <cjson/cJSON.h>

/* The first key that object holds twice, or NULL (also for a non-object). */
const char *al_json_duplicate_key(const cJSON *object);

#endif
