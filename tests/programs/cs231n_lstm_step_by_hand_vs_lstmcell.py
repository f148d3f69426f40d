# Models: CS231n assignment 3 "LSTM captioning": lstm_step_forward written with the stacked
# gate matrix (i, f, o, g), a full sequence forward, gradients by autograd, and agreement with
# nn.LSTMCell once its weights are copied in (torch's gate order i, f, g, o).
import torch

torch.manual_seed(231)
N, D, H, T = 3, 4, 5, 6
x = torch.randn(N, T, D, dtype=torch.float64)
h0 = torch.randn(N, H, dtype=torch.float64)
Wx = (torch.randn(D, 4 * H, dtype=torch.float64) * 0.3).requires_grad_()
Wh = (torch.randn(H, 4 * H, dtype=torch.float64) * 0.3).requires_grad_()
b = torch.zeros(4 * H, dtype=torch.float64, requires_grad=True)


def lstm_step_forward(x, prev_h, prev_c, Wx, Wh, b):
    a = x @ Wx + prev_h @ Wh + b
    ai, af, ao, ag = a.chunk(4, dim=1)
    i, f, o, g = ai.sigmoid(), af.sigmoid(), ao.sigmoid(), ag.tanh()
    next_c = f * prev_c + i * g
    next_h = o * next_c.tanh()
    return next_h, next_c


def lstm_forward(x, h0, Wx, Wh, b):
    h, c = h0, torch.zeros_like(h0)
    hs = []
    for t in range(x.shape[1]):
        h, c = lstm_step_forward(x[:, t], h, c, Wx, Wh, b)
        hs.append(h)
    return torch.stack(hs, 1)


h = lstm_forward(x, h0, Wx, Wh, b)
print("h shape", h.shape)
print("h[0]\n", h[0])
dh = torch.randn_like(h)
h.backward(dh)
print("dWx norm", Wx.grad.norm().item())
print("dWh norm", Wh.grad.norm().item())
print("db", b.grad)
cell = torch.nn.LSTMCell(D, H).double()
with torch.no_grad():
    perm = torch.cat([torch.arange(0, H), torch.arange(H, 2 * H), torch.arange(3 * H, 4 * H),
                      torch.arange(2 * H, 3 * H)])
    cell.weight_ih.copy_(Wx.T[perm])
    cell.weight_hh.copy_(Wh.T[perm])
    cell.bias_ih.zero_()
    cell.bias_hh.copy_(b[perm])
hc, cc = h0, torch.zeros_like(h0)
outs = []
for t in range(T):
    hc, cc = cell(x[:, t], (hc, cc))
    outs.append(hc)
hcell = torch.stack(outs, 1)
print("match", torch.allclose(hcell, h), (hcell - h).abs().max().item() < 1e-12)
print(hcell.grad_fn.name(), hc.grad_fn.name())
