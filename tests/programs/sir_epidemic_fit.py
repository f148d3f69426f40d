# Models: fitting a compartmental epidemic model (SIR / SEIR) to case counts with autograd,
# as in the differentiable-epidemiology tutorials: parameters kept positive through softplus
# and in (0, 1) through sigmoid, an unrolled forward-Euler integration of the ODE, a Poisson
# negative log-likelihood on new daily cases (F.poisson_nll_loss with log_input=False), Adam,
# the basic reproduction number R0 = beta / gamma, and a forecast of the peak.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
N_POP = 10000.0


def simulate(beta, gamma, sigma=None, days=60, i0=5.0, dt=0.25):
    s, e, i, r = N_POP - i0, torch.zeros(()), torch.tensor(i0), torch.zeros(())
    new_cases = []
    steps = int(1 / dt)
    for _ in range(days):
        daily = torch.zeros(())
        for _ in range(steps):
            infection = beta * s * i / N_POP
            if sigma is None:
                s, i, r = s - dt * infection, i + dt * (infection - gamma * i), r + dt * gamma * i
                daily = daily + dt * infection
            else:
                onset = sigma * e
                s, e = s - dt * infection, e + dt * (infection - onset)
                i, r = i + dt * (onset - gamma * i), r + dt * gamma * i
                daily = daily + dt * onset
        new_cases.append(daily)
    return torch.stack(new_cases), s


true_beta, true_gamma = 0.35, 0.1
with torch.no_grad():
    expected, _ = simulate(torch.tensor(true_beta), torch.tensor(true_gamma))
cases = torch.poisson(expected)
print("observed cases first week", cases[:7].tolist(), "total", cases.sum().item())
print("true R0", true_beta / true_gamma, "true peak day", int(expected.argmax()))

raw_beta = torch.tensor(-1.0, requires_grad=True)
raw_gamma = torch.tensor(-2.0, requires_grad=True)
opt = torch.optim.Adam([raw_beta, raw_gamma], lr=0.05)
for step in range(40):
    beta, gamma = F.softplus(raw_beta), torch.sigmoid(raw_gamma)
    pred, _ = simulate(beta, gamma, days=40)
    loss = F.poisson_nll_loss(pred, cases[:40], log_input=False, full=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 39:
        print(f"step {step:2d} nll {loss.item():.4f} beta {beta.item():.5f} "
              f"gamma {gamma.item():.5f} R0 {(beta / gamma).item():.4f}")

with torch.no_grad():
    beta, gamma = F.softplus(raw_beta), torch.sigmoid(raw_gamma)
    forecast, s_end = simulate(beta, gamma, days=60)
    print("forecast peak day", int(forecast.argmax()), "peak cases",
          round(forecast.max().item(), 3))
    print("final susceptible fraction", (s_end / N_POP).item())
    seir, _ = simulate(beta, gamma, sigma=torch.tensor(0.5), days=60)
    print("SEIR with the same beta/gamma: peak day", int(seir.argmax()),
          "attack rate", (seir.sum() / N_POP).item())
