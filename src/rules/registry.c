#include "rules.h"

#include <string.h>

const al_rule al_rules[] = {
    {"AL101", "zeros-overwritten",
     "`torch.zeros/ones/full` buffer fully overwritten before it is read", true,
     al_rule_al101},
};

const size_t al_rules_count = sizeof al_rules / sizeof al_rules[0];

const al_rule *al_rule_find(const char *code)
{
    for (size_t i = 0; i < al_rules_count; i++)
        if (strcmp(al_rules[i].code, code) == 0)
            return &al_rules[i];
    return NULL;
}
