# Models: older GAN/WaveNet code using torch.nn.utils.weight_norm and spectral_norm (the hook
# versions): the g/v parameters, power-iteration buffers, eval-mode behaviour,
# remove_weight_norm, and the largest singular value after normalisation.
import warnings

import torch
import torch.nn as nn
from torch.nn.utils import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm

torch.manual_seed(4)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    lin = weight_norm(nn.Linear(5, 3), name="weight", dim=0)
    print("warnings", len(w), [type(x.message).__name__ for x in w])
print(sorted(n for n, _ in lin.named_parameters()))
print("g", lin.weight_g.shape, lin.weight_v.shape)
print("norm check", torch.allclose(lin.weight.norm(dim=1, keepdim=True), lin.weight_g))
x = torch.randn(4, 5)
y = lin(x)
y.sum().backward()
print("grad g", lin.weight_g.grad.flatten())
print("grad v\n", lin.weight_v.grad)
remove_weight_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()))
conv = weight_norm(nn.Conv1d(2, 4, 3), dim=None)
print("dim None g", conv.weight_g.shape, conv.weight_g)
sn = spectral_norm(nn.Linear(6, 4), n_power_iterations=3)
print(sorted(n for n, _ in sn.named_parameters()), sorted(n for n, _ in sn.named_buffers()))
for _ in range(5):
    sn(torch.randn(2, 6))
sigma = torch.linalg.matrix_norm(sn.weight.detach(), ord=2)
print("sigma after", sigma)
sn.eval()
w1 = sn.weight.clone()
sn(torch.randn(2, 6))
print("eval unchanged", torch.equal(w1, sn.weight))
remove_spectral_norm(sn)
print(sorted(n for n, _ in sn.named_parameters()), sorted(n for n, _ in sn.named_buffers()))
try:
    weight_norm(weight_norm(nn.Linear(2, 2)))
except RuntimeError as e:
    print("RuntimeError:", e)
