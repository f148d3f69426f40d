# Models: gradient-based hyperparameter optimisation as in public "hypergradient" notebooks
# (Maclaurin et al., "Gradient-based hyperparameter optimization through reversible learning",
# and the torchopt/higher-free versions): an inner loop of functional SGD steps with
# create_graph=True, the validation loss differentiated through the unrolled steps with
# respect to the log learning rate and a per-feature log weight decay, a finite-difference
# check, truncated unrolling with detach, and hypergradient descent on the online lr.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
D = 5
w_true = torch.tensor([2.0, -1.0, 0.0, 0.0, 0.5])
X_tr = torch.randn(30, D)
y_tr = X_tr @ w_true + 0.5 * torch.randn(30)
X_va = torch.randn(50, D)
y_va = X_va @ w_true + 0.5 * torch.randn(50)
W0 = torch.zeros(D)


def inner_train(log_lr, log_wd, steps=15, truncate=None):
    w = W0.clone().requires_grad_(True)
    lr, wd = log_lr.exp(), log_wd.exp()
    for t in range(steps):
        if truncate is not None and t == steps - truncate:
            w = w.detach().requires_grad_(True)
        loss = F.mse_loss(X_tr @ w, y_tr) + (wd * w**2).sum()
        (g,) = torch.autograd.grad(loss, w, create_graph=True)
        w = w - lr * g
    return w


def val_loss(w):
    return F.mse_loss(X_va @ w, y_va)


log_lr = torch.tensor(-2.0, requires_grad=True)
log_wd = torch.full((D,), -3.0, requires_grad=True)
w = inner_train(log_lr, log_wd)
v = val_loss(w)
g_lr, g_wd = torch.autograd.grad(v, [log_lr, log_wd])
print("validation loss:", v.item())
print("d val / d log_lr:", g_lr, "d val / d log_wd:", g_wd)
print("w grad_fn chain:", w.grad_fn.name(), w.grad_fn.next_functions[0][0].name())

eps = 1e-3
v_plus = val_loss(inner_train(log_lr.detach() + eps, log_wd.detach())).detach()
v_minus = val_loss(inner_train(log_lr.detach() - eps, log_wd.detach())).detach()
fd = (v_plus - v_minus) / (2 * eps)
print(
    "finite difference:",
    fd,
    "relative error < 1e-2:",
    bool(((fd - g_lr).abs() / g_lr.abs()) < 1e-2),
)
for k in [1, 5, 15]:
    wk = inner_train(log_lr, log_wd, truncate=k)
    (gk,) = torch.autograd.grad(val_loss(wk), log_lr)
    print(f"truncated to {k:2d} steps: d/dlog_lr = {gk.item():.6f}")

hyper_opt = torch.optim.Adam([log_lr, log_wd], lr=0.1)
for outer in range(25):
    v = val_loss(inner_train(log_lr, log_wd))
    hyper_opt.zero_grad()
    v.backward()
    hyper_opt.step()
    if outer % 5 == 4:
        print(
            f"outer {outer + 1} val {v.item():.4f} lr {log_lr.exp().item():.4f} "
            f"wd {log_wd.exp().detach()}"
        )
w_final = inner_train(log_lr, log_wd).detach()
print("final weights:", w_final, "true:", w_true)

# hypergradient descent (Baydin et al.): adapt the lr online with the dot of successive grads
w = torch.zeros(D, requires_grad=True)
lr, beta, prev_g = torch.tensor(0.01), 0.001, torch.zeros(D)
for t in range(30):
    loss = F.mse_loss(X_tr @ w, y_tr)
    (g,) = torch.autograd.grad(loss, w)
    lr = lr + beta * torch.dot(g, prev_g)
    with torch.no_grad():
        w -= lr * g
    prev_g = g
    if t % 10 == 9:
        print(f"HD-SGD step {t + 1} loss {loss.item():.4f} lr {lr.item():.5f}")
