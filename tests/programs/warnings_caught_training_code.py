# Models: a notebook that turns warnings into printed lines (warnings.catch_warnings with
# record=True) while running ordinary training code: implicit softmax dim, size-broadcasting in
# mse_loss / l1_loss, the lr_scheduler.step() before optimizer.step() order warning, .grad of a
# non-leaf, torch.tensor(tensor) copy construction, deprecated reduce/size_average arguments,
# nn.init on zero-element tensors, and dropout with p outside [0, 1] raising instead.
import warnings

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def run(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            result = "ok" if not isinstance(out, torch.Tensor) else f"shape {tuple(out.shape)}"
        except Exception as e:   # noqa: BLE001
            result = f"{type(e).__name__}: {e}"
    print(f"{label}: {result}")
    for w in caught:
        print(f"   {w.category.__name__}: {str(w.message).splitlines()[0]}")


x = torch.randn(4, 3)
run("F.softmax without dim", lambda: F.softmax(x))
run("F.log_softmax without dim (3-d)", lambda: F.log_softmax(torch.randn(2, 3, 4)))
run("nn.Softmax() module", lambda: nn.Softmax()(x))
run("mse_loss (4,1) vs (4,)", lambda: F.mse_loss(torch.randn(4, 1), torch.randn(4)))
run("l1_loss (4,) vs (4,1)", lambda: F.l1_loss(torch.randn(4), torch.randn(4, 1)))
run("smooth_l1 broadcast", lambda: F.smooth_l1_loss(torch.randn(3, 1), torch.randn(3)))
run("mse_loss same shape", lambda: F.mse_loss(torch.randn(4), torch.randn(4)))
run("size_average=False", lambda: nn.MSELoss(size_average=False))
run("reduce=False", lambda: F.l1_loss(torch.randn(2), torch.randn(2), reduce=False))

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
run("scheduler.step() before optimizer.step()", lambda: sched.step())

w = torch.randn(3, requires_grad=True)
h = w * 2
h.sum().backward()
run("non-leaf .grad", lambda: h.grad)
run("torch.tensor(tensor)", lambda: torch.tensor(x))
run("torch.tensor(tensor with grad)", lambda: torch.tensor(w))
run("init on empty tensor", lambda: nn.init.kaiming_uniform_(torch.empty(0, 3)))
run("xavier on 1-d", lambda: nn.init.xavier_uniform_(torch.empty(3)))
run("dropout p=1.5", lambda: F.dropout(x, p=1.5))
run("nn.Dropout p=-0.1", lambda: nn.Dropout(-0.1))
run("F.upsample", lambda: F.upsample(torch.randn(1, 1, 2, 2), scale_factor=2))
run("F.sigmoid", lambda: F.sigmoid(x))
run("F.tanh", lambda: F.tanh(x))
run("torch.range", lambda: torch.range(0, 3))
run("interpolate bilinear no align_corners", lambda: F.interpolate(torch.randn(1, 1, 2, 2),
                                                                  scale_factor=2, mode="bilinear"))
run("cross_entropy ok", lambda: F.cross_entropy(x, torch.tensor([0, 1, 2, 0])))
run("rnn dropout with 1 layer", lambda: nn.LSTM(3, 4, num_layers=1, dropout=0.5))
run("transformer nested tensor check", lambda: nn.TransformerEncoder(
    nn.TransformerEncoderLayer(8, 2, 16, batch_first=False), 1))

# a training loop that records the warnings once per kind
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("default")
    net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
    o = torch.optim.Adam(net.parameters(), lr=0.01)
    target = torch.randn(16)
    for epoch in range(3):
        inp = torch.randn(16, 3)
        loss = F.mse_loss(net(inp), target)
        o.zero_grad()
        loss.backward()
        o.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
print("warnings recorded in the loop:", len(caught))
print(sorted({w.category.__name__ for w in caught}))
