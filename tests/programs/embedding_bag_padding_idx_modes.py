# Models: a recommendation-model detail: nn.EmbeddingBag with padding_idx skipped in sum/mean/
# max, empty bags giving zeros, per_sample_weights with sum only, 2-d inputs with padding,
# include_last_offset, and gradients that leave the padding row untouched.
import torch
import torch.nn as nn

torch.manual_seed(1)
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag(6, 3, mode=mode, padding_idx=0)
    with torch.no_grad():
        bag.weight.copy_(torch.arange(18.0).reshape(6, 3))
    inp = torch.tensor([1, 0, 2, 0, 0, 5, 3])
    offsets = torch.tensor([0, 3, 5, 5])
    print(mode, bag(inp, offsets))
bag = nn.EmbeddingBag(6, 2, mode="sum", padding_idx=2)
out = bag(torch.tensor([[1, 2, 2], [2, 2, 2], [3, 4, 2]]))
print("2d with padding", out)
out.sum().backward()
print("padding row grad", bag.weight.grad[2], "row 1", bag.weight.grad[1])
w = torch.tensor([0.5, 2.0, 1.0, -1.0])
sb = nn.EmbeddingBag(6, 2, mode="sum")
print("weighted", sb(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 2]), per_sample_weights=w))
print("last offset", nn.EmbeddingBag(6, 2, mode="mean", include_last_offset=True)(
    torch.tensor([1, 2, 3]), torch.tensor([0, 1, 3])).shape)
try:
    nn.EmbeddingBag(6, 2, mode="mean")(torch.tensor([1, 2]), torch.tensor([0]),
                                       per_sample_weights=torch.ones(2))
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    nn.EmbeddingBag(6, 2)(torch.tensor([1, 2]), torch.tensor([1]))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__ + ":", e)
try:
    nn.EmbeddingBag(6, 2)(torch.tensor([[1, 2]]), torch.tensor([0]))
except ValueError as e:
    print("ValueError:", e)
