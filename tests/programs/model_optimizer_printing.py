# Models: the "inspect your model and optimizer" cells of course notebooks: print(model) for
# many layer types and their options, print(optimizer), optimizer.state_dict() after a step
# (per-parameter state and step counts), add_param_group, and a scheduler's state_dict.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=(3, 5), stride=2, padding=(1, 2), bias=False),
    nn.BatchNorm2d(8, eps=1e-3, momentum=0.05),
    nn.LeakyReLU(0.2, inplace=True),
    nn.MaxPool2d(2, ceil_mode=True),
    nn.Dropout2d(0.25),
    nn.Flatten(),
    nn.Linear(32, 10),
    nn.LogSoftmax(dim=1),
)
print(model)
extras = nn.ModuleDict({
    "emb": nn.Embedding(100, 16, padding_idx=0, max_norm=1.0),
    "lstm": nn.LSTM(16, 32, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True),
    "gru": nn.GRU(8, 8),
    "norm": nn.LayerNorm([4, 4], elementwise_affine=False),
    "gn": nn.GroupNorm(2, 8),
    "up": nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
    "deconv": nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1, output_padding=0),
    "pool": nn.AdaptiveAvgPool2d((1, 1)),
    "act": nn.ModuleList([nn.GELU(approximate="tanh"), nn.Softmax(dim=-1), nn.PReLU(3),
                          nn.Hardtanh(-2, 2), nn.ELU(alpha=0.5), nn.Identity()]),
    "enc": nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, batch_first=True),
    "bag": nn.EmbeddingBag(10, 3, mode="sum"),
    "bil": nn.Bilinear(2, 3, 4),
    "pad": nn.ZeroPad2d((1, 0, 2, 0)),
    "loss": nn.CrossEntropyLoss(label_smoothing=0.1),
})
print(extras)

x = torch.randn(2, 3, 8, 8)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4, amsgrad=True)
print(opt)
loss = -model(x)[:, 0].mean()
loss.backward()
opt.step()
sd = opt.state_dict()
print(sd["param_groups"])
print(sorted(sd["state"].keys()), sorted(sd["state"][0].keys()), sd["state"][0]["step"])
print(sd["state"][4]["exp_avg"], sd["state"][4]["max_exp_avg_sq"])
opt.add_param_group({"params": extras["bil"].parameters(), "lr": 0.1})
print(len(opt.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["betas"])
sgd = torch.optim.SGD([{"params": model[0].parameters()},
                       {"params": model[6].parameters(), "lr": 0.01, "momentum": 0.9}], lr=0.1)
print(sgd)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(sgd, T_max=10, eta_min=1e-4)
for _ in range(3):
    sgd.step()
    sched.step()
print(sched.state_dict(), sched.get_last_lr())
rop = torch.optim.lr_scheduler.ReduceLROnPlateau(sgd, factor=0.5, patience=0)
rop.step(1.0)
rop.step(2.0)
print([g["lr"] for g in sgd.param_groups], rop.num_bad_epochs)
print(torch.optim.RMSprop([torch.zeros(1, requires_grad=True)], lr=0.01, centered=True))
print(nn.Linear(3, 2).state_dict())
