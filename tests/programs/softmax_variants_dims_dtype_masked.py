# Models: a softmax reference cell: softmax/log_softmax over each dim of a 3-d tensor, the dtype
# argument, Softmax2d, softmin, implicit-dim deprecation warning, masked softmax with -inf,
# temperature scaling, and the Jacobian of softmax by autograd against diag(p) - p p^T.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
x = torch.randn(2, 3, 4)
for d in range(3):
    print("dim", d, F.softmax(x, d)[0, 0], F.log_softmax(x, d).exp().sum(d).flatten()[:2])
print("dtype", F.softmax(x.half(), -1, dtype=torch.float32).dtype)
print("softmax2d", nn.Softmax2d()(x.unsqueeze(0)).sum(1)[0, 0])
print("softmin", F.softmin(x[0, 0], 0), F.softmax(-x[0, 0], 0))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    nn.Softmax()(x[0])
    F.softmax(x[0])
    print("implicit dim warnings", [str(m.message)[:60] for m in w])
logits = torch.tensor([2.0, 1.0, 0.5, -1.0])
mask = torch.tensor([True, False, True, True])
print("masked", logits.masked_fill(~mask, float("-inf")).softmax(0))
for T in [0.1, 1.0, 10.0]:
    print("T", T, (logits / T).softmax(0))
p = logits.softmax(0)
J = torch.autograd.functional.jacobian(lambda z: z.softmax(0), logits)
print("jacobian matches", torch.allclose(J, torch.diag(p) - torch.outer(p, p), atol=1e-6))
print(J)
