/* What a C++ host function returns (analysis/cxx/returns.c), read from its
 * tokens: only tensors it makes, or which return is not one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cxx/returns.h"
#include "front/cxx/cxx.h"

static const char *const extension =
    "#include <torch/extension.h>\n"
    "torch::Tensor split_k_gemm(torch::Tensor a, torch::Tensor w, int64_t k) {\n"
    "    auto options = torch::TensorOptions().dtype(a.dtype()).device(a.device());\n"
    "    at::Tensor partial = torch::empty({k, a.size(0), w.size(1)}, options);\n"
    "    launch(partial.data_ptr(), a.data_ptr());\n"
    "    return partial.sum(0);\n"
    "}\n"
    "torch::Tensor made(torch::Tensor w)\n"
    "{\n"
    "    at::Tensor out = at::zeros_like(w);\n"
    "    if (w.numel() == 0) {\n"
    "        return out;\n"
    "    }\n"
    "    return out;\n"
    "}\n"
    "torch::Tensor passthrough(torch::Tensor x, double s) {\n"
    "    if (s == 1.0) {\n"
    "        return x;\n"
    "    }\n"
    "    return torch::empty_like(x);\n"
    "}\n"
    "torch::Tensor rebound(torch::Tensor x) {\n"
    "    at::Tensor y = torch::empty_like(x);\n"
    "    y = x;\n"
    "    return y;\n"
    "}\n"
    "torch::Tensor maybe_self(torch::Tensor x) {\n"
    "    return x.contiguous();\n"
    "}\n"
    "void writes(torch::Tensor out) {\n"
    "    out.zero_();\n"
    "}\n";

static bool returns_new(const al_cxx_unit *u, const char *name, char *why, size_t len)
{
    for (size_t i = 0; i < u->n_functions; i++)
        if (!strcmp(u->functions[i].name, name)) {
            al_cxx_def d = {"ext.cu", u, i};
            return al_cxx_returns_new(&d, why, len);
        }
    fail_msg("no function %s", name);
    return false;
}

static void returns_read_from_tokens(void **state)
{
    (void)state;
    if (!al_cxx_available()) {
        skip();
        return;
    }
    al_source src;
    al_source_from_memory(&src, "ext.cu", extension, strlen(extension));
    al_cxx_unit u;
    al_cxx_parse(&src, NULL, 0, &u);
    assert_true(u.parsed);
    char why[400];
    assert_true(returns_new(&u, "split_k_gemm", why, sizeof why));
    assert_non_null(strstr(why, "line 6"));
    assert_true(returns_new(&u, "made", why, sizeof why));
    assert_non_null(strstr(why, "line 10"));
    assert_false(returns_new(&u, "passthrough", why, sizeof why));
    assert_non_null(strstr(why, "line 18 returns `x`"));
    assert_false(returns_new(&u, "rebound", why, sizeof why));
    assert_false(returns_new(&u, "maybe_self", why, sizeof why));
    assert_non_null(strstr(why, "x.contiguous()"));
    assert_false(returns_new(&u, "writes", why, sizeof why));
    assert_string_equal(why, "it returns nothing");
    al_cxx_unit_free(&u);
    al_source_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(returns_read_from_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
