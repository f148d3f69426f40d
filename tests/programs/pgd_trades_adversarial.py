# Models: adversarial-robustness training code (Madry et al. PGD, TRADES): an L-inf
# projected gradient descent attack with random start, sign steps and clamping to the epsilon
# ball and the valid input range, PGD adversarial training, the TRADES objective (natural
# cross-entropy + beta * KL(f(x) || f(x_adv))), and clean vs robust accuracy of each model on
# a synthetic two-class image task.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
EPS, ALPHA, STEPS = 0.15, 0.05, 5


def data(n, g):
    """8x8 images in [0, 1]: class 1 brighter in the upper half, class 0 in the lower."""
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.rand(n, 1, 8, 8, generator=g) * 0.5
    x[y == 1, :, :4] += 0.3
    x[y == 0, :, 4:] += 0.3
    return x.clamp(0, 1), y


def net():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(8 * 16, 16), nn.ReLU(), nn.Linear(16, 2))


def pgd(model, x, y, g, loss_fn=None):
    loss_fn = loss_fn or (lambda out: F.cross_entropy(out, y))
    delta = (torch.rand(x.shape, generator=g) * 2 - 1) * EPS
    x_adv = (x + delta).clamp(0, 1).detach()
    for _ in range(STEPS):
        x_adv.requires_grad_(True)
        loss = loss_fn(model(x_adv))
        (grad,) = torch.autograd.grad(loss, x_adv)
        x_adv = x_adv.detach() + ALPHA * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - EPS), x + EPS).clamp(0, 1)
    return x_adv.detach()


def evaluate(model, x, y, g):
    model.eval()
    with torch.no_grad():
        clean = (model(x).argmax(1) == y).float().mean().item()
    x_adv = pgd(model, x, y, g)
    with torch.no_grad():
        robust = (model(x_adv).argmax(1) == y).float().mean().item()
    model.train()
    return clean, robust, (x_adv - x).abs().max().item()


g = torch.Generator().manual_seed(4)
test_x, test_y = data(200, g)
results = {}
for mode in ["standard", "pgd", "trades"]:
    torch.manual_seed(1)
    model = net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(60):
        x, y = data(64, g)
        if mode == "standard":
            loss = F.cross_entropy(model(x), y)
        elif mode == "pgd":
            loss = F.cross_entropy(model(pgd(model, x, y, g)), y)
        else:
            p_nat = F.softmax(model(x), 1).detach()

            def kl(out, p_nat=p_nat):
                return F.kl_div(F.log_softmax(out, 1), p_nat, reduction="batchmean")
            x_adv = pgd(model, x, y, g, kl)
            logits = model(x)
            loss = F.cross_entropy(logits, y) + 6.0 * F.kl_div(
                F.log_softmax(model(x_adv), 1), F.softmax(logits, 1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
    clean, robust, linf = evaluate(model, test_x, test_y, g)
    results[mode] = (clean, robust)
    print(f"{mode:8s} final loss {loss.item():.5f} clean acc {clean:.4f} "
          f"robust acc {robust:.4f} max |delta| {linf:.4f}")
print("robustness gain of PGD training:", f"{results['pgd'][1] - results['standard'][1]:+.4f}")
x, y = test_x[:4], test_y[:4]
print("adv example pixel diffs:", (pgd(model, x, y, g) - x)[0, 0, 0])
