# Models: a transfer-learning tutorial's module handling: printing a model, freezing layers,
# replacing a head, parameter groups, state_dict surgery and partial loading.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d((1, 1)),
        )
        self.classifier = nn.Linear(16, 10)
        self.register_buffer("calls", torch.zeros((), dtype=torch.long), persistent=False)

    def forward(self, x):
        self.calls += 1
        return self.classifier(torch.flatten(self.features(x), 1))


model = Backbone()
print(model)
print(sum(p.numel() for p in model.parameters()), len(list(model.modules())))
print([n for n, _ in model.named_children()], list(model.state_dict().keys())[:6])
for p in model.features.parameters():
    p.requires_grad_(False)
model.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(16, 4))
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable)
opt = torch.optim.SGD(
    [
        {"params": model.classifier.parameters(), "lr": 0.1},
        {"params": [p for p in model.features.parameters()], "lr": 0.001},
    ],
    momentum=0.9,
    weight_decay=1e-4,
)
print(opt)
x = torch.randn(6, 3, 12, 12)
y = torch.tensor([0, 1, 2, 3, 0, 1])
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), model.calls.item())
sd = model.state_dict()
print(len(sd), sd["features.1.running_mean"][:3], sd["features.1.num_batches_tracked"])
fresh = Backbone()
fresh.classifier = nn.Linear(16, 4)
res = fresh.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    fresh.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
print(opt.state_dict()["param_groups"][0]["lr"], len(opt.state_dict()["state"]))
opt.add_param_group({"params": nn.Parameter(torch.ones(2)), "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["weight_decay"])
model.apply(lambda m: nn.init.zeros_(m.bias) if isinstance(m, nn.Linear) else None)
print(model.classifier[1].bias, model.double().classifier[1].weight.dtype)
model.eval()
with torch.inference_mode():
    out = model(x.double())
print(out.shape, out.requires_grad, torch.is_inference_mode_enabled())
print(nn.utils.parameters_to_vector(model.classifier.parameters()).shape)
half = nn.Linear(4, 2).half()
print(half.weight.dtype, half(torch.ones(1, 4, dtype=torch.half)).dtype)
