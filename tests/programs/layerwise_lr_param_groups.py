# Models: a fine-tuning recipe from public training scripts: parameter groups with no weight
# decay for biases/norms, layer-wise learning-rate decay, add_param_group when unfreezing the
# backbone, LambdaLR with one lambda per group, optimizer/scheduler state_dict round trips,
# step pre/post hooks, and printing the optimizer and its groups.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(
            [nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.GELU()) for _ in range(3)]
        )

    def forward(self, x):
        for layer in self.layers:
            x = x + layer(x)
        return x


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Classifier()
X = torch.randn(48, 8)
y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()

decay, no_decay = [], []
for name, p in model.head.named_parameters():
    (no_decay if name.endswith("bias") else decay).append(p)
opt = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-2
)
for p in model.backbone.parameters():
    p.requires_grad_(False)
print(opt)

hook_log = []
pre = opt.register_step_pre_hook(lambda o, args, kwargs: hook_log.append("pre"))
post = opt.register_step_post_hook(lambda o, args, kwargs: hook_log.append("post"))
for _ in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
print(f"head-only loss {loss.item():.4f}", hook_log[:4], len(hook_log))
pre.remove()
post.remove()

# unfreeze with layer-wise lr decay: deeper layers (closer to the head) get larger lr
base_lr, decay_rate = 1e-2, 0.5
for depth, layer in enumerate(reversed(model.backbone.layers)):
    lr = base_lr * decay_rate ** (depth + 1)
    params = list(layer.parameters())
    for p in params:
        p.requires_grad_(True)
    matrices = [p for p in params if p.ndim > 1]
    vectors = [p for p in params if p.ndim <= 1]
    opt.add_param_group(
        {"params": matrices, "lr": lr, "weight_decay": 0.05, "name": f"layer{2 - depth}.w"}
    )
    opt.add_param_group(
        {"params": vectors, "lr": lr, "weight_decay": 0.0, "name": f"layer{2 - depth}.b"}
    )
print(
    [
        (g.get("name", "head"), g["lr"], g["weight_decay"], len(g["params"]))
        for g in opt.param_groups
    ]
)
print(sorted(opt.param_groups[2].keys()))

warm = 3
lambdas = [lambda s: 1.0] * 2 + [lambda s, w=warm: min(1.0, (s + 1) / w)] * (
    len(opt.param_groups) - 2
)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambdas)
for epoch in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    sched.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lrs", [round(lr, 5) for lr in sched.get_last_lr()])

sd = opt.state_dict()
print(
    "state keys",
    len(sd["state"]),
    "groups",
    len(sd["param_groups"]),
    sd["param_groups"][3]["params"],
)
print(sorted(sd["state"][0].keys()), sd["state"][0]["step"])
sched_sd = sched.state_dict()
print(
    sorted(k for k in sched_sd if k != "lr_lambdas"),
    sched_sd["last_epoch"],
    sched_sd["_last_lr"][:3],
)

clone = Classifier()
clone.load_state_dict(model.state_dict())
opt2 = torch.optim.AdamW(
    [
        {"params": [clone.head.weight], "weight_decay": 0.05},
        {"params": [clone.head.bias], "weight_decay": 0.0},
    ],
    lr=1e-2,
)
for layer in reversed(clone.backbone.layers):
    ps = list(layer.parameters())
    opt2.add_param_group({"params": [p for p in ps if p.ndim > 1]})
    opt2.add_param_group({"params": [p for p in ps if p.ndim <= 1]})
opt2.load_state_dict(sd)
print("restored lrs", [round(g["lr"], 5) for g in opt2.param_groups], opt2.param_groups[2]["name"])
for o, m in [(opt, model), (opt2, clone)]:
    o.zero_grad()
    F.cross_entropy(m(X), y).backward()
    o.step()
print(
    "same after one more step",
    torch.allclose(model.head.weight, clone.head.weight),
    torch.equal(model.backbone.layers[0][0].weight, clone.backbone.layers[0][0].weight),
)
try:
    opt.add_param_group({"params": [model.head.weight]})
except ValueError as e:
    print("ValueError:", e)
try:
    opt2.load_state_dict({"state": {}, "param_groups": sd["param_groups"][:2]})
except ValueError as e:
    print("ValueError:", e)
