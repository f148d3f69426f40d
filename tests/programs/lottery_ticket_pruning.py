# Models: the lottery ticket hypothesis (Frankle & Carbin 2019) with torch.nn.utils.prune:
# iterative global magnitude pruning (prune.global_unstructured with L1Unstructured across
# layers), rewinding the surviving weights to their initial values through weight_orig,
# a custom BasePruningMethod subclass (keep the top-k rows by norm), prune.remove to make
# pruning permanent, and the sparsity and accuracy after each round.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)
X = torch.randn(400, 20)
w_true = torch.zeros(20, 3)
w_true[:5] = torch.randn(5, 3) * 2
y = (X @ w_true).argmax(1)
Xtr, ytr, Xte, yte = X[:300], y[:300], X[300:], y[300:]

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(),
                      nn.Linear(32, 3))
init_state = copy.deepcopy(model.state_dict())
layers = [(model[0], "weight"), (model[2], "weight"), (model[4], "weight")]


def train(model, epochs=15):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(epochs):
        perm = torch.randperm(300)
        for i in range(0, 300, 50):
            idx = perm[i:i + 50]
            loss = F.cross_entropy(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        return loss.item(), (model(Xte).argmax(1) == yte).float().mean().item()


def sparsity():
    zeros = sum(int((getattr(m, n) == 0).sum()) for m, n in layers)
    total = sum(getattr(m, n).numel() for m, n in layers)
    return zeros / total


loss, acc = train(model)
print(f"dense: loss {loss:.5f} test acc {acc:.4f}")
for round_ in range(3):
    prune.global_unstructured(layers, pruning_method=prune.L1Unstructured, amount=0.4)
    with torch.no_grad():                            # rewind surviving weights to init
        for i, (m, _) in enumerate(layers):
            m.weight_orig.copy_(init_state[f"{2 * i}.weight"])
            m.bias.copy_(init_state[f"{2 * i}.bias"])
    loss, acc = train(model)
    per_layer = [round(float((m.weight == 0).float().mean()), 4) for m, _ in layers]
    print(f"round {round_}: sparsity {sparsity():.4f} per layer {per_layer} "
          f"loss {loss:.5f} test acc {acc:.4f}")
print("buffers", [n for n, _ in model[0].named_buffers()], "params",
      [n for n, _ in model[0].named_parameters()])
print("forward pre hooks", len(model[0]._forward_pre_hooks), prune.is_pruned(model))
hook = next(iter(model[0]._forward_pre_hooks.values()))
print(type(hook).__name__, [type(h).__name__ for h in getattr(hook, "_pruning_methods", [hook])])


class RowNormPruning(prune.BasePruningMethod):
    PRUNING_TYPE = "structured"

    def __init__(self, keep):
        self.keep = keep
        self.dim = 0

    def compute_mask(self, t, default_mask):
        norms = t.norm(dim=1)
        keep_idx = norms.topk(self.keep).indices
        mask = torch.zeros_like(default_mask)
        mask[keep_idx] = 1
        return mask * default_mask


RowNormPruning.apply(model[2], "weight", keep=16)
rows_alive = int((model[2].weight.abs().sum(1) > 0).sum())
print("rows alive after row pruning", rows_alive, "of", model[2].weight.shape[0])
loss, acc = train(model, epochs=5)
print(f"after structured pruning: loss {loss:.5f} test acc {acc:.4f}")
for m, n in layers:
    prune.remove(m, n)
print("after remove:", [n for n, _ in model[0].named_parameters()], "pruned",
      prune.is_pruned(model), "sparsity", round(sparsity(), 4))
sd = model.state_dict()
print("state dict keys", list(sd.keys()))
