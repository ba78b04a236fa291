# Two moves in one long call: the first fix rewrites the whole statement
# (wrapped to the line length), which holds the second finding; --fix
# still finds the second in the wrapped text and applies it, and the
# report shows it alone (its edit overlaps the first's).
import torch


def run_shapes(check_model, model_with_size_check, batch_small, batch_large, hidden_size):
    check_model(model_with_size_check, torch.zeros(batch_large, hidden_size).cuda(), torch.ones(batch_small, hidden_size).cuda())  # expect: AL501 safe, AL501 nofix
    check_model(model_with_size_check, torch.ones(batch_small, hidden_size).cuda(), torch.zeros(batch_large, hidden_size).cuda())  # expect: AL501 safe, AL501 nofix
