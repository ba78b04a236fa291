/* SARIF output, validated against the official SARIF 2.1.0 JSON schema
 * (draft-04; tests/schemas/). The validator covers the keywords that
 * schema uses. A document broken on purpose must fail it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#ifndef ALLOCLINT_BIN
#error "ALLOCLINT_BIN must name the alloclint binary"
#endif
#ifndef SARIF_SCHEMA
#error "SARIF_SCHEMA must name the schema file"
#endif
#ifndef FIXTURE
#error "FIXTURE must name a Python file with findings"
#endif

static cJSON *schema_root;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static char *run_capture(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s", ALLOCLINT_BIN, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    pclose(p);
    return buf;
}

/* ------------------------------------------------------------------ */
/* A draft-04 validator for the keywords the SARIF schema uses.        */

static int errors;
static char first_error[512];

static void report(const char *where, const char *what)
{
    if (errors++ == 0)
        snprintf(first_error, sizeof first_error, "%.400s: %.100s", where, what);
}

static const cJSON *resolve(const cJSON *schema)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(schema, "$ref");
    int guard = 0;
    while (cJSON_IsString(ref) && guard++ < 32) {
        const char *r = ref->valuestring;
        if (strncmp(r, "#/definitions/", 14) != 0)
            return schema;
        schema = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(schema_root, "definitions"), r + 14);
        if (!schema)
            return NULL;
        ref = cJSON_GetObjectItemCaseSensitive(schema, "$ref");
    }
    return schema;
}

static bool type_ok(const char *type, const cJSON *v)
{
    if (!strcmp(type, "object"))
        return cJSON_IsObject(v);
    if (!strcmp(type, "array"))
        return cJSON_IsArray(v);
    if (!strcmp(type, "string"))
        return cJSON_IsString(v);
    if (!strcmp(type, "boolean"))
        return cJSON_IsBool(v);
    if (!strcmp(type, "null"))
        return cJSON_IsNull(v);
    if (!strcmp(type, "number"))
        return cJSON_IsNumber(v);
    if (!strcmp(type, "integer"))
        return cJSON_IsNumber(v) && floor(v->valuedouble) == v->valuedouble;
    return true;
}

static void validate(const cJSON *schema, const cJSON *v, const char *where);

static int count_valid(const cJSON *list, const cJSON *v, const char *where)
{
    int ok = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, list)
    {
        int before = errors;
        char saved[512];
        memcpy(saved, first_error, sizeof saved);
        validate(s, v, where);
        if (errors == before)
            ok++;
        errors = before;
        memcpy(first_error, saved, sizeof saved);
    }
    return ok;
}

static void validate(const cJSON *schema, const cJSON *v, const char *where)
{
    schema = resolve(schema);
    if (!schema) {
        report(where, "unresolved $ref");
        return;
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    if (cJSON_IsString(type) && !type_ok(type->valuestring, v)) {
        report(where, "wrong type");
        return;
    }
    if (cJSON_IsArray(type)) {
        bool any = false;
        const cJSON *t;
        cJSON_ArrayForEach(t, type) any |= cJSON_IsString(t) && type_ok(t->valuestring, v);
        if (!any) {
            report(where, "wrong type");
            return;
        }
    }
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(schema, "enum");
    if (cJSON_IsArray(en)) {
        bool hit = false;
        const cJSON *e;
        cJSON_ArrayForEach(e, en) hit |= cJSON_Compare(e, v, true);
        if (!hit)
            report(where, "not one of the enum values");
    }
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(schema, "minimum");
    if (cJSON_IsNumber(min) && cJSON_IsNumber(v) && v->valuedouble < min->valuedouble)
        report(where, "below minimum");
    const cJSON *max = cJSON_GetObjectItemCaseSensitive(schema, "maximum");
    if (cJSON_IsNumber(max) && cJSON_IsNumber(v) && v->valuedouble > max->valuedouble)
        report(where, "above maximum");
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(schema, "pattern");
    if (cJSON_IsString(pat) && cJSON_IsString(v)) {
        regex_t re;
        if (regcomp(&re, pat->valuestring, REG_EXTENDED | REG_NOSUB) == 0) {
            if (regexec(&re, v->valuestring, 0, NULL, 0) != 0)
                report(where, "does not match pattern");
            regfree(&re);
        }
    }
    const cJSON *any = cJSON_GetObjectItemCaseSensitive(schema, "anyOf");
    if (cJSON_IsArray(any) && count_valid(any, v, where) == 0)
        report(where, "matches none of anyOf");
    const cJSON *one = cJSON_GetObjectItemCaseSensitive(schema, "oneOf");
    if (cJSON_IsArray(one) && count_valid(one, v, where) != 1)
        report(where, "does not match exactly one of oneOf");
    if (cJSON_IsArray(v)) {
        const cJSON *mi = cJSON_GetObjectItemCaseSensitive(schema, "minItems");
        if (cJSON_IsNumber(mi) && cJSON_GetArraySize(v) < mi->valueint)
            report(where, "too few items");
        const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
        const cJSON *uniq = cJSON_GetObjectItemCaseSensitive(schema, "uniqueItems");
        int i = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, v)
        {
            char w[512];
            snprintf(w, sizeof w, "%s[%d]", where, i++);
            if (cJSON_IsObject(items))
                validate(items, it, w);
            if (cJSON_IsTrue(uniq))
                for (const cJSON *o = it->next; o; o = o->next)
                    if (cJSON_Compare(it, o, true))
                        report(w, "items not unique");
        }
    }
    if (cJSON_IsObject(v)) {
        const cJSON *req = cJSON_GetObjectItemCaseSensitive(schema, "required");
        const cJSON *r;
        cJSON_ArrayForEach(r, req)
        {
            if (cJSON_IsString(r) && !cJSON_GetObjectItemCaseSensitive(v, r->valuestring)) {
                char w[512];
                snprintf(w, sizeof w, "%s.%s", where, r->valuestring);
                report(w, "required property missing");
            }
        }
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
        const cJSON *addl = cJSON_GetObjectItemCaseSensitive(schema, "additionalProperties");
        const cJSON *m;
        cJSON_ArrayForEach(m, v)
        {
            char w[512];
            snprintf(w, sizeof w, "%s.%s", where, m->string);
            const cJSON *ps = cJSON_GetObjectItemCaseSensitive(props, m->string);
            if (ps)
                validate(ps, m, w);
            else if (cJSON_IsFalse(addl))
                report(w, "property not allowed");
            else if (cJSON_IsObject(addl))
                validate(addl, m, w);
        }
    }
}

static int validate_doc(const cJSON *doc)
{
    errors = 0;
    first_error[0] = '\0';
    validate(schema_root, doc, "$");
    return errors;
}

static int setup(void **state)
{
    (void)state;
    char *text = slurp(SARIF_SCHEMA);
    schema_root = text ? cJSON_Parse(text) : NULL;
    free(text);
    return schema_root ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cJSON_Delete(schema_root);
    return 0;
}

static void output_is_valid_sarif(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "check --select ALL --output-format sarif '%s'", FIXTURE);
    char *out = run_capture(args);
    assert_non_null(out);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    int n = validate_doc(doc);
    if (n)
        fail_msg("%d schema violations; first: %s", n, first_error);
    /* Fixes travel with the results. */
    cJSON *results = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0),
                                         "results");
    assert_true(cJSON_GetArraySize(results) >= 3);
    bool has_fix = false;
    cJSON *res;
    cJSON_ArrayForEach(res, results) has_fix |= cJSON_GetObjectItem(res, "fixes") != NULL;
    assert_true(has_fix);
    cJSON_Delete(doc);
}

static void the_validator_rejects_broken_sarif(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "check --select ALL --output-format sarif '%s'", FIXTURE);
    char *out = run_capture(args);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    /* A result level that SARIF does not know, and a missing message. */
    cJSON *res = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "results"), 0);
    cJSON_ReplaceItemInObject(res, "level", cJSON_CreateString("fatal"));
    assert_true(validate_doc(doc) > 0);
    cJSON_DeleteItemFromObject(res, "message");
    cJSON_ReplaceItemInObject(res, "level", cJSON_CreateString("warning"));
    assert_true(validate_doc(doc) > 0);
    assert_non_null(strstr(first_error, "message"));
    cJSON_Delete(doc);
}

/* With a profile: each measured result carries its cost and a rank, and
 * the log stays valid. */
static void profiled_sarif_is_valid_and_ranked(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "check --no-cache --output-format sarif --profile '%s' '%s'",
             PROFILE_TRACE, PROFILE_PROJECT);
    char *out = run_capture(args);
    assert_non_null(out);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    int n = validate_doc(doc);
    if (n)
        fail_msg("%d schema violations; first: %s", n, first_error);
    cJSON *results = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0),
                                         "results");
    int ranked = 0;
    double last = 101;
    cJSON *res;
    cJSON_ArrayForEach(res, results)
    {
        cJSON *rank = cJSON_GetObjectItem(res, "rank");
        if (!rank)
            continue;
        ranked++;
        /* Costliest first. */
        assert_true(rank->valuedouble <= last);
        last = rank->valuedouble;
        cJSON *cost = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "properties"), "cost");
        assert_non_null(cost);
        assert_non_null(cJSON_GetObjectItem(cost, "removable_gpu_us"));
        assert_string_equal(cJSON_GetObjectItem(cost, "attribution")->valuestring, "line");
    }
    assert_true(ranked >= 4);
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(output_is_valid_sarif),
        cmocka_unit_test(the_validator_rejects_broken_sarif),
        cmocka_unit_test(profiled_sarif_is_valid_and_ranked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
