# Models: a numerical-stability blog post: naive softmax overflowing for large logits, the
# max-subtraction trick, torch.logsumexp with -inf entries, log_softmax vs log(softmax), float16
# softmax, softmax over an all -inf row, and logaddexp / logcumsumexp.
import torch

big = torch.tensor([1000.0, 1001.0, 1002.0])
naive = big.exp() / big.exp().sum()
print("naive", naive)
stable = (big - big.max()).exp() / (big - big.max()).exp().sum()
print("stable", stable, "torch", big.softmax(0))
print("logsumexp", torch.logsumexp(big, 0), big.max() + (big - big.max()).exp().sum().log())
print("with -inf", torch.logsumexp(torch.tensor([float("-inf"), 0.0, 1.0]), 0))
print("all -inf", torch.logsumexp(torch.full((3,), float("-inf")), 0))
small = torch.tensor([-1000.0, 0.0, 5.0])
print("log(softmax)", small.softmax(0).log())
print("log_softmax", small.log_softmax(0))
h = torch.tensor([10.0, 11.0, 12.0], dtype=torch.float16)
print("half softmax", h.softmax(0), h.softmax(0, dtype=torch.float32))
row = torch.tensor([[float("-inf")] * 3, [0.0, float("-inf"), 1.0]])
print("softmax -inf row", row.softmax(-1))
print("logaddexp", torch.logaddexp(torch.tensor(-1000.0), torch.tensor(-1001.0)))
print("logaddexp2", torch.logaddexp2(torch.tensor(3.0), torch.tensor(3.0)))
print("logcumsumexp", torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0, 1000.0]), 0))
x = torch.tensor([1000.0, 0.0], requires_grad=True)
torch.logsumexp(x, 0).backward()
print("lse grad", x.grad)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print("lse dims", torch.logsumexp(m, dim=(0, 1)), torch.logsumexp(m, 1, keepdim=True))
print("special.logsumexp", torch.special.logsumexp(m, 0), torch.special.log_softmax(m, 1))
