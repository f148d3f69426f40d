# Models: the d2l.ai "Gated Recurrent Units" and "Long Short-Term Memory" chapters -- GRU and
# LSTM cells from scratch, checked against nn.GRU / nn.LSTM / nn.GRUCell / nn.LSTMCell with
# copied weights, plus a deep bidirectional LSTM's shapes and gradients.
import torch
from torch import nn

torch.manual_seed(3)
num_inputs, num_hiddens, T, B = 5, 4, 6, 3


def three():
    return (
        nn.Parameter(torch.randn(num_inputs, num_hiddens) * 0.1),
        nn.Parameter(torch.randn(num_hiddens, num_hiddens) * 0.1),
        nn.Parameter(torch.zeros(num_hiddens)),
    )


W_xz, W_hz, b_z = three()
W_xr, W_hr, b_r = three()
W_xh, W_hh, b_h = three()
gru_params = [W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h]


def gru(inputs, H):
    outputs = []
    for X in inputs:
        Z = torch.sigmoid((X @ W_xz) + (H @ W_hz) + b_z)
        R = torch.sigmoid((X @ W_xr) + (H @ W_hr) + b_r)
        # PyTorch's form: the reset gate multiplies (H @ W_hh), not H (d2l's variant)
        H_tilde = torch.tanh((X @ W_xh) + R * (H @ W_hh) + b_h)
        H = Z * H + (1 - Z) * H_tilde
        outputs.append(H)
    return torch.stack(outputs), H


inputs = torch.randn(T, B, num_inputs)
H0 = torch.zeros(B, num_hiddens)
out, H = gru(inputs, H0)
print(out.shape, H)

ref = nn.GRU(num_inputs, num_hiddens)
print(ref, [(n, tuple(p.shape)) for n, p in ref.named_parameters()])
with torch.no_grad():
    # PyTorch stacks the gates as (reset, update, new) and puts the reset gate on W_hn h + b_hn
    ref.weight_ih_l0.copy_(torch.cat([W_xr, W_xz, W_xh], dim=1).T)
    ref.weight_hh_l0.copy_(torch.cat([W_hr, W_hz, W_hh], dim=1).T)
    ref.bias_ih_l0.zero_()
    ref.bias_hh_l0.zero_()
out_ref, h_ref = ref(inputs, H0.unsqueeze(0))
print(torch.allclose(out, out_ref, atol=1e-6), (out - out_ref).abs().max() < 1e-6)
print(h_ref.shape, out_ref[-1])

out.sum().backward()
out_ref.sum().backward()
print(W_xz.grad.T)
print(ref.weight_ih_l0.grad[num_hiddens : 2 * num_hiddens])
print(torch.allclose(W_hh.grad.T, ref.weight_hh_l0.grad[2 * num_hiddens :], atol=1e-6))

cell = nn.GRUCell(num_inputs, num_hiddens)
cell.load_state_dict({k[:-3]: v for k, v in ref.state_dict().items()})
h = H0
for x in inputs:
    h = cell(x, h)
print(cell, torch.allclose(h, h_ref[0], atol=1e-6))


def lstm_params():
    return [three() for _ in range(4)] + [
        (nn.Parameter(torch.randn(num_hiddens, num_inputs) * 0.1),)
    ]


(W_xi, W_hi, b_i), (W_xf, W_hf, b_f), (W_xo, W_ho, b_o), (W_xc, W_hc, b_c), _ = lstm_params()
with torch.no_grad():
    b_f += 1.0


def lstm(inputs, state):
    H, C = state
    outputs = []
    for X in inputs:
        I = torch.sigmoid((X @ W_xi) + (H @ W_hi) + b_i)  # noqa: E741
        F = torch.sigmoid((X @ W_xf) + (H @ W_hf) + b_f)
        O = torch.sigmoid((X @ W_xo) + (H @ W_ho) + b_o)  # noqa: E741
        C_tilde = torch.tanh((X @ W_xc) + (H @ W_hc) + b_c)
        C = F * C + I * C_tilde
        H = O * torch.tanh(C)
        outputs.append(H)
    return torch.cat(outputs, dim=0), (H, C)


out, (H, C) = lstm(inputs, (H0, H0.clone()))
print(out.shape, H.shape, C)
ref = nn.LSTM(num_inputs, num_hiddens, bias=True)
with torch.no_grad():
    # gate order (input, forget, cell, output)
    ref.weight_ih_l0.copy_(torch.cat([W_xi, W_xf, W_xc, W_xo], 1).T)
    ref.weight_hh_l0.copy_(torch.cat([W_hi, W_hf, W_hc, W_ho], 1).T)
    ref.bias_ih_l0.copy_(torch.cat([b_i, b_f, b_c, b_o]))
    ref.bias_hh_l0.fill_(0)
out_ref, (h_ref, c_ref) = ref(inputs)
print(torch.allclose(out.view(T, B, -1), out_ref, atol=1e-6), c_ref)
cell = nn.LSTMCell(num_inputs, num_hiddens)
cell.weight_ih, cell.weight_hh = ref.weight_ih_l0, ref.weight_hh_l0
cell.bias_ih, cell.bias_hh = ref.bias_ih_l0, ref.bias_hh_l0
hx, cx = cell(inputs[0])
print(hx, cx)
loss = (out_ref**2).mean()
loss.backward()
print(loss, ref.bias_ih_l0.grad, ref.bias_hh_l0.grad)

deep = nn.LSTM(num_inputs, 6, num_layers=2, bidirectional=True, batch_first=True, dropout=0.0)
print(deep)
print([k for k in deep.state_dict()])
xb = torch.randn(B, T, num_inputs)
y, (hn, cn) = deep(xb)
print(y.shape, hn.shape, cn.shape)
print(torch.allclose(y[:, -1, :6], hn[2]), torch.allclose(y[:, 0, 6:], hn[3]))
y.pow(2).sum().backward()
print(deep.weight_hh_l1_reverse.grad.norm(), deep.bias_ih_l0.grad[:4])
gru2 = nn.GRU(num_inputs, 3, num_layers=2)
h0 = torch.randn(2, B, 3)
y2, hn2 = gru2(inputs, h0)
print(y2[-1], hn2)
print(sum(p.numel() for p in deep.parameters()), sum(p.numel() for p in gru2.parameters()))
