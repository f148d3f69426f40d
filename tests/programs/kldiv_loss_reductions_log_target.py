# Models: a knowledge-distillation forum answer on nn.KLDivLoss: input as log-probabilities,
# reduction "mean" (with its warning) versus "batchmean" versus "sum", log_target=True, the
# temperature-scaled distillation loss, and the equivalence with cross-entropy minus entropy.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
student = torch.randn(4, 5, requires_grad=True)
teacher = torch.randn(4, 5)
log_p = F.log_softmax(student, dim=1)
q = F.softmax(teacher, dim=1)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    mean = nn.KLDivLoss(reduction="mean")(log_p, q)
    print("warnings", [str(x.message)[:80] for x in w])
print("mean", mean)
print("batchmean", nn.KLDivLoss(reduction="batchmean")(log_p, q))
print("sum", nn.KLDivLoss(reduction="sum")(log_p, q))
print("none\n", nn.KLDivLoss(reduction="none")(log_p, q))
print("log_target", F.kl_div(log_p, q.log(), reduction="batchmean", log_target=True))
ce = -(q * log_p).sum(1).mean()
ent = -(q * q.log()).sum(1).mean()
print("ce - entropy", ce - ent)
T = 4.0
kd = F.kl_div(F.log_softmax(student / T, 1), F.softmax(teacher / T, 1),
              reduction="batchmean") * T * T
kd.backward()
print("kd loss", kd, kd.grad_fn.name())
print("student grad\n", student.grad)
zeros = torch.tensor([[0.0, 1.0]])
print("zero target", F.kl_div(torch.log(torch.tensor([[0.5, 0.5]])), zeros, reduction="sum"))
