#include "json.h"

#include <string.h>

const char *al_json_duplicate_key(const cJSON *object)
{
    if (!cJSON_IsObject(object))
        return NULL;
    for (const cJSON *a = object->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && !strcmp(a->string, b->string))
                return a->string;
    return NULL;
}
