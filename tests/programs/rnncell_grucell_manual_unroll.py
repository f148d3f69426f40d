# Models: an RNN-from-cells lecture: nn.RNNCell with tanh and relu, nn.GRUCell and
# nn.LSTMCell unrolled by hand over a sequence, checking against nn.RNN / nn.GRU with copied
# weights, unbatched inputs, and the hidden-size errors.
import torch
import torch.nn as nn

torch.manual_seed(10)
T, B, I, H = 5, 3, 4, 6
x = torch.randn(T, B, I)
for nonlin in ["tanh", "relu"]:
    cell = nn.RNNCell(I, H, nonlinearity=nonlin)
    rnn = nn.RNN(I, H, nonlinearity=nonlin)
    with torch.no_grad():
        for n in ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]:
            getattr(rnn, n + "_l0").copy_(getattr(cell, n))
    h = torch.zeros(B, H)
    outs = []
    for t in range(T):
        h = cell(x[t], h)
        outs.append(h)
    ref, hn = rnn(x)
    print(nonlin, torch.allclose(torch.stack(outs), ref, atol=1e-6), h.grad_fn.name())
gcell = nn.GRUCell(I, H)
gru = nn.GRU(I, H)
with torch.no_grad():
    for n in ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]:
        getattr(gru, n + "_l0").copy_(getattr(gcell, n))
h = torch.zeros(B, H)
for t in range(T):
    h = gcell(x[t], h)
print("gru", torch.allclose(h, gru(x)[1][0], atol=1e-6))
print(h)
lcell = nn.LSTMCell(I, H)
hc = None
for t in range(T):
    hc = lcell(x[t], hc)
print("lstm h", hc[0][0], "\nc", hc[1][0])
print("unbatched", gcell(torch.randn(I)).shape, lcell(torch.randn(I))[1].shape)
loss = hc[0].pow(2).sum() + h.sum()
loss.backward()
print("grad norms", lcell.weight_ih.grad.norm().item(), gcell.weight_hh.grad.norm().item())
for bad in [lambda: gcell(torch.randn(B, I), torch.zeros(B, H + 1)),
            lambda: nn.RNNCell(I, H, nonlinearity="gelu"),
            lambda: gcell(torch.randn(B, I + 1))]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
