# Models: an LSTM shapes cheat sheet: num_layers, bidirectional, batch_first and proj_size
# combinations with output/h_n/c_n shapes, the weight names of a projected LSTM, inter-layer
# dropout warning with one layer, unbatched inputs, and the errors for wrong h0 shapes.
import warnings

import torch
import torch.nn as nn

torch.manual_seed(4)
x = torch.randn(5, 3, 4)
for layers, bi, proj in [(1, False, 0), (2, False, 0), (2, True, 0), (1, False, 2),
                         (2, True, 3)]:
    lstm = nn.LSTM(4, 6, num_layers=layers, bidirectional=bi, proj_size=proj)
    out, (h, c) = lstm(x)
    print(layers, bi, proj, "out", tuple(out.shape), "h", tuple(h.shape), "c", tuple(c.shape))
p = nn.LSTM(4, 6, proj_size=2)
print([n for n, _ in p.named_parameters()])
print("weight_hr", p.weight_hr_l0.shape)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    nn.LSTM(4, 6, num_layers=1, dropout=0.5)
    print([str(m.message)[:100] for m in w])
bf = nn.LSTM(4, 6, batch_first=True, bidirectional=True)
o, (h, c) = bf(torch.randn(3, 5, 4))
print("batch_first", o.shape, h.shape)
print("fwd last == h[0]", torch.allclose(o[:, -1, :6], h[0]),
      "bwd first == h[1]", torch.allclose(o[:, 0, 6:], h[1]))
u, (hu, cu) = nn.LSTM(4, 6)(torch.randn(5, 4))
print("unbatched", u.shape, hu.shape)
gru = nn.GRU(4, 6, num_layers=2)
print("gru h", gru(x)[1].shape)
try:
    p(x, (torch.zeros(1, 3, 6), torch.zeros(1, 3, 6)))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.LSTM(4, 6, proj_size=6)
except ValueError as e:
    print("ValueError:", e)
try:
    gru(x, torch.zeros(1, 3, 6))
except RuntimeError as e:
    print("RuntimeError:", e)
