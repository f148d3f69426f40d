# Models: a performance-tuning post on optimizer implementation flags: Adam/AdamW/SGD with
# foreach=False and foreach=True giving the same steps, a Tensor learning rate, maximize, the
# defaults dict printed, and the errors for incompatible flags.
import torch
import torch.nn as nn

torch.manual_seed(0)
X, Y = torch.randn(16, 4), torch.randn(16, 1)


def train(make_opt, steps=5):
    torch.manual_seed(1)
    m = nn.Linear(4, 1)
    opt = make_opt(m.parameters())
    for _ in range(steps):
        loss = nn.functional.mse_loss(m(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return torch.cat([p.detach().flatten() for p in m.parameters()]), opt


for name, cls, kw in [("Adam", torch.optim.Adam, dict(lr=0.01)),
                      ("AdamW", torch.optim.AdamW, dict(lr=0.01, weight_decay=0.1)),
                      ("SGD", torch.optim.SGD, dict(lr=0.05, momentum=0.9))]:
    ref, _ = train(lambda p, cls=cls, kw=kw: cls(p, foreach=False, **kw))
    fe, _ = train(lambda p, cls=cls, kw=kw: cls(p, foreach=True, **kw))
    _, opt = train(lambda p, cls=cls, kw=kw: cls(p, **kw))
    print(name, ref)
    print("  foreach same", torch.allclose(ref, fe, atol=1e-7), torch.equal(ref, fe))
    print("  defaults", {k: opt.defaults[k] for k in ("foreach", "fused", "maximize")})
tl, opt = train(lambda p: torch.optim.Adam(p, lr=torch.tensor(0.01)))
print("tensor lr", tl, type(opt.param_groups[0]["lr"]).__name__)
mx, _ = train(lambda p: torch.optim.Adam(p, lr=0.01, maximize=True))
print("maximize", mx)
for bad in [lambda p: torch.optim.Adam(p, fused=True, foreach=True),
            lambda p: torch.optim.Adam(p, lr=torch.tensor([0.1, 0.2])),
            lambda p: torch.optim.SGD(p, lr=0.1, fused=True, differentiable=True)]:
    try:
        bad(nn.Linear(2, 2).parameters())
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
