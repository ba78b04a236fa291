# golden-args: --select AL101,AL900
# Suppression comments and AL900 unused-suppression. AL101 is selected too,
# so that there is something to suppress.
import torch


def noqa_with_code(x):
    buf = torch.zeros(x.shape)  # noqa: AL101  # expect: none
    buf.copy_(x)
    return buf


def bare_noqa(x):
    buf = torch.zeros(x.shape)  # noqa  # expect: none
    buf.copy_(x)
    return buf


def noqa_is_a_whole_word(x):
    # `noqa_reason` is a different word, not a suppression (as in ruff).
    buf = torch.zeros(x.shape)  # noqa_reason: kept for the kernel  # expect: AL101 safe
    buf.copy_(x)
    return buf


def ignore_on_the_line_before(x):
    # alloclint: ignore[AL101]
    buf = torch.zeros(x.shape)  # expect: none
    buf.copy_(x)
    return buf


def ignore_trailing(x):
    buf = torch.zeros(x.shape)  # alloclint: ignore[AL101]  # expect: none
    buf.copy_(x)
    return buf


def upper_case_noqa(x):
    buf = torch.zeros(x.shape)  # NOQA: AL101  # expect: none
    buf.copy_(x)
    return buf


def no_space_after_colon(x):
    buf = torch.zeros(x.shape)  # noqa:AL101  # expect: none
    buf.copy_(x)
    return buf


def explained(x):
    buf = torch.zeros(x.shape)  # noqa: AL101 needed for the graph capture  # expect: none
    buf.copy_(x)
    return buf


def on_the_last_line_of_the_call(x):
    buf = torch.zeros(
        x.shape, dtype=x.dtype
    )  # noqa: AL101  # expect: none
    buf.copy_(x)
    return buf


def unused_noqa(x):
    buf = torch.empty(x.shape)  # noqa: AL101  # expect: AL900 safe
    buf.copy_(x)
    return buf


def unused_among_other_codes(x):
    buf = torch.empty(x.shape)  # noqa: AL101, E501  # expect: AL900 safe
    buf.copy_(x)
    return buf


def other_linters_codes(x):
    buf = torch.empty(x.shape)  # noqa: E501  # expect: none
    buf.copy_(x)
    return buf


def unused_ignore_comment_line(x):
    # alloclint: ignore[AL101]  # expect: AL900 safe
    buf = torch.empty(x.shape)
    buf.copy_(x)
    return buf


def ignore_too_far_above(x):
    # alloclint: ignore[AL101]  # expect: AL900 safe

    buf = torch.zeros(x.shape)  # expect: AL101 safe
    buf.copy_(x)
    return buf


def wrong_code(x):
    buf = torch.zeros(x.shape)  # noqa: AL103  # expect: AL101 safe
    buf.copy_(x)
    return buf


def unused_but_silenced(x):
    buf = torch.empty(x.shape)  # noqa: AL101, AL900  # expect: none
    buf.copy_(x)
    return buf


def unsuppressed(x):
    buf = torch.zeros(x.shape)  # expect: AL101 safe
    buf.copy_(x)
    return buf
