/* The configuration reader: the first byte picks pyproject.toml (odd) or
 * alloclint.toml (even), the rest is the file. A configuration read
 * without error is then asked the questions a run asks of it. */
#include "run/config.h"
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    bool pyproject = data[0] & 1;
    const char *path = pyproject ? "/repo/pyproject.toml" : "/repo/alloclint.toml";
    al_config cfg;
    al_config_error err;
    memset(&err, 0, sizeof err);
    bool found = false;
    bool ok = al_config_parse(&cfg, path, (const char *)data + 1, size - 1, pyproject, &found,
                              &err);
    if (!ok)
        FUZZ_CHECK(err.message[0] != '\0', size);
    if (ok && found) {
        static const char *const paths[] = {"/repo/model.py", "/repo/vllm/ops/a.py",
                                            "/repo/build/x.cu", "/elsewhere/b.py"};
        for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
            (void)al_config_excludes(&cfg, paths[i]);
            al_strlist codes = {0};
            al_config_file_ignores(&cfg, paths[i], &codes);
            al_strlist_free(&codes);
        }
    }
    al_config_free(&cfg);
    return 0;
}
