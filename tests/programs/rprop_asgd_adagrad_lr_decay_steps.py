# Models: a study of less common optimizers on the Rosenbrock valley: Rprop with etas and step
# sizes, ASGD's averaged iterate (ax) and eta/mu state, Adagrad with lr_decay and
# initial_accumulator_value, Adadelta with rho, printing positions, losses and state entries.
import torch


def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


configs = [
    ("Rprop", lambda p: torch.optim.Rprop([p], lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-6, 1))),
    ("ASGD", lambda p: torch.optim.ASGD([p], lr=1e-3, t0=5)),
    ("Adagrad", lambda p: torch.optim.Adagrad([p], lr=0.5, lr_decay=0.01,
                                              initial_accumulator_value=0.1)),
    ("Adadelta", lambda p: torch.optim.Adadelta([p], lr=1.0, rho=0.95)),
]
for name, make in configs:
    p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = make(p)
    for step in range(30):
        loss = rosen(p)
        opt.zero_grad()
        loss.backward()
        opt.step()
    st = opt.state[p]
    print(f"{name:8s} p {p.detach().tolist()} loss {rosen(p).item():.6f}")
    shown = {k: (v.tolist() if torch.is_tensor(v) and v.numel() < 4 else
                 (round(v, 6) if isinstance(v, float) else v)) for k, v in sorted(st.items())}
    print("   state", shown)
