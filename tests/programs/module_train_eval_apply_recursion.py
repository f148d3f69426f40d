# Models: an nn.Module mechanics lesson: train()/eval() propagating through children, the
# training flags per submodule, requires_grad_ on parts of a model, apply with an init
# function, children vs modules vs named_modules(remove_duplicate), zero_grad, and how dropout
# and batchnorm outputs change between modes.
import torch
import torch.nn as nn

torch.manual_seed(2)
shared = nn.Linear(4, 4)
model = nn.Sequential(shared, nn.BatchNorm1d(4), nn.Dropout(0.5),
                      nn.Sequential(shared, nn.ReLU()), nn.Linear(4, 2))
print([m.training for m in model.modules()])
model.eval()
print([m.training for m in model.modules()])
model[3].train()
print([type(m).__name__ + ":" + str(m.training) for m in model.modules()])
model.train()
print("children", [type(c).__name__ for c in model.children()])
print("modules", len(list(model.modules())),
      "named no-dedup", len(list(model.named_modules(remove_duplicate=False))))
print("params", len(list(model.parameters())),
      len(list(model.named_parameters(remove_duplicate=False))))


def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)


model.apply(init)
x = torch.randn(6, 4)
out_train = model(x)
model.eval()
out_eval = model(x)
print("train\n", out_train)
print("eval\n", out_eval)
print("running mean", model[1].running_mean, model[1].num_batches_tracked)
model.train()
model[0].requires_grad_(False)
model(x).sum().backward()
print("frozen grad", model[0].weight.grad, "head grad", model[4].weight.grad)
model.zero_grad()
print("after zero_grad", model[4].weight.grad)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
print(model.training, model[2].training, model.get_submodule("3.1"))
