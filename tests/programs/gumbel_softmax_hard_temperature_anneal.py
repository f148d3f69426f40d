# Models: a discrete-VAE tutorial fragment: F.gumbel_softmax soft and hard (straight-through)
# samples under a fixed seed, temperature annealing, gradients flowing through the hard one-hot,
# the Gumbel-max trick by hand, and RelaxedOneHotCategorical from torch.distributions.
import torch
import torch.nn.functional as F
from torch.distributions import RelaxedOneHotCategorical

torch.manual_seed(0)
logits = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.0, 0.0, 3.0, 0.0]], requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
print("soft\n", soft, soft.sum(-1))
hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
print("hard\n", hard)
(hard * torch.arange(4.0)).sum().backward()
print("ST grad\n", logits.grad)
print(hard.grad_fn.name())
for tau in [5.0, 1.0, 0.2, 0.05]:
    torch.manual_seed(1)
    s = F.gumbel_softmax(logits.detach(), tau=tau)
    print(f"tau {tau}: max prob {s.max(-1).values}")
torch.manual_seed(2)
u = torch.rand(10000, 4)
g = -torch.log(-torch.log(u))
choices = (logits.detach()[0] + g).argmax(-1)
print("gumbel-max freq", torch.bincount(choices, minlength=4).float() / 10000)
print("softmax probs ", logits.detach()[0].softmax(-1))
d = RelaxedOneHotCategorical(torch.tensor(0.7), logits=logits.detach())
torch.manual_seed(3)
x = d.rsample()
print("relaxed", x, d.log_prob(x))
print("dim arg", F.gumbel_softmax(torch.zeros(2, 3), dim=0).sum(0))
