# AL303: a fill per element of an index tensor. For a tensor on the GPU
# each pass also reads its index back to the host before it can launch;
# one fill by advanced indexing does them all. Unsafe: only a 1-D integer
# index (or a list of ints) names the same elements that way.
import torch


class MambaStateCache:
    def __init__(self, num_slots, conv_dim, state_dim):
        self.conv_state = torch.zeros(num_slots, conv_dim, 4)
        self.ssm_state = torch.zeros(num_slots, state_dim, 16)
        self.per_layer = [torch.zeros(num_slots, state_dim) for _ in range(2)]

    def reset_slots(self, slots):
        for idx in slots:
            self.ssm_state[idx].zero_()  # expect: AL303 unsafe

    def reset_fresh_requests(self, state_indices, has_initial_state):
        for idx in state_indices[~has_initial_state]:
            self.conv_state[idx].fill_(0.0)  # expect: AL303 unsafe

    def reset_per_layer(self, slots):
        # A list of tensors: a tensor cannot index it.
        for idx in slots:
            self.per_layer[idx].zero_()  # expect: none

    def reset_to(self, slots, value):
        # A tensor fill value may be a view of the state.
        for idx in slots:
            self.ssm_state[idx].fill_(value)  # expect: none

    def reset_and_report(self, slots):
        # The loop variable is read after the loop.
        for idx in slots:
            self.ssm_state[idx].zero_()  # expect: AL303 nofix
        return idx
