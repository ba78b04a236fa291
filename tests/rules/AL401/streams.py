# golden-args: --select AL401
# AL401 fixtures: work queued on another CUDA stream. A tensor read inside
# a `with torch.cuda.stream(...)` block before the update may still be
# read there when the current stream writes it in place; the out-of-place
# form writes a new tensor instead.
import torch


@torch.inference_mode()
def shared_experts_overlap(hidden, alt_stream):
    # The side stream reads `h` while the main stream would scale it.
    h = torch.exp(hidden)
    with torch.cuda.stream(alt_stream):
        shared = torch.sigmoid(h)
    h = h * 2.0  # expect: AL401 unsafe
    return h, shared


@torch.inference_mode()
def overlap_in_a_loop(hidden, alt_stream, steps: int):
    # The next pass's side-stream read meets this pass's update: the
    # update is before the block in the text, after it in time.
    h = torch.exp(hidden)
    outs = []
    for _ in range(steps):
        h = h.clamp(min=1)  # expect: AL401 unsafe
        with torch.cuda.stream(alt_stream):
            outs.append(torch.sigmoid(h).sum())
    return h, outs


@torch.inference_mode()
def read_after_the_update(hidden, alt_stream):
    # The side stream reads the updated tensor in either form.
    h = torch.exp(hidden)
    h = h * 2.0  # expect: AL401 safe
    with torch.cuda.stream(alt_stream):
        shared = torch.sigmoid(h)
    return h, shared


@torch.inference_mode()
def waited_for(hidden, alt_stream):
    # The main stream waits for the side stream's work before the update.
    current = torch.cuda.current_stream()
    h = torch.exp(hidden)
    with torch.cuda.stream(alt_stream):
        shared = torch.sigmoid(h)
    current.wait_stream(alt_stream)
    h = h * 2.0  # expect: AL401 safe
    return h, shared


@torch.inference_mode()
def waited_the_wrong_way(hidden, alt_stream):
    # The side stream waits for the main one: nothing orders the update
    # after the side stream's read.
    current = torch.cuda.current_stream()
    h = torch.exp(hidden)
    with torch.cuda.stream(alt_stream):
        shared = torch.sigmoid(h)
    alt_stream.wait_stream(current)
    h = h * 2.0  # expect: AL401 unsafe
    return h, shared


@torch.inference_mode()
def switched_by_set_stream(hidden, alt_stream):
    # set_stream instead of a `with` block: the read on the side stream may
    # still be queued when the main stream would scale `h` in place.
    main = torch.cuda.current_stream()
    h = torch.exp(hidden)
    torch.cuda.set_stream(alt_stream)
    shared = torch.sigmoid(h)
    torch.cuda.set_stream(main)
    h = h * 2.0  # expect: AL401 unsafe
    return h, shared


@torch.inference_mode()
def set_stream_then_waited(hidden, alt_stream):
    # Back on the main stream, which waits for the side one first.
    main = torch.cuda.current_stream()
    h = torch.exp(hidden)
    torch.cuda.set_stream(alt_stream)
    shared = torch.sigmoid(h)
    torch.cuda.set_stream(main)
    main.wait_stream(alt_stream)
    h = h * 2.0  # expect: AL401 safe
    return h, shared


@torch.inference_mode()
def set_stream_after_the_update(hidden, alt_stream):
    # The side stream reads the updated tensor in either form.
    h = torch.exp(hidden)
    h = h * 2.0  # expect: AL401 safe
    torch.cuda.set_stream(alt_stream)
    shared = torch.sigmoid(h)
    return h, shared


@torch.inference_mode()
def set_stream_in_the_outer_loop(hidden, alt_stream, steps: int, inner: int):
    # The update sits in an inner loop; the side stream, set after that
    # loop in the outer one, reads `h` before the next outer pass updates it.
    main = torch.cuda.current_stream()
    h = torch.exp(hidden)
    outs = []
    for _ in range(steps):
        for _ in range(inner):
            h = h * 0.5  # expect: AL401 unsafe
        torch.cuda.set_stream(alt_stream)
        outs.append(torch.sigmoid(h).sum())
        torch.cuda.set_stream(main)
    return h, outs
