# Models: a word-embedding options walkthrough from an NLP course: nn.Embedding with
# padding_idx (zero row, no gradient), max_norm/norm_type renormalising looked-up rows in
# place, scale_grad_by_freq, from_pretrained with freeze on/off, EmbeddingBag in sum/mean/max
# modes with offsets, per_sample_weights, include_last_offset and padding_idx, and F.embedding
# on a custom weight, each with the gradients it produces.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=4)

emb = nn.Embedding(6, 3, padding_idx=0)
print(emb, emb.weight[0])
idx = torch.tensor([[0, 2, 2], [5, 0, 1]])
out = emb(idx)
out.sum().backward()
print("grad rows (padding row stays 0):", emb.weight.grad.sum(1))

norm = nn.Embedding(5, 4, max_norm=1.0)
print(norm)
before = norm.weight.detach().norm(dim=1)
norm(torch.tensor([1, 3]))
after = norm.weight.detach().norm(dim=1)
print("norms before", before)
print("norms after ", after)
l1 = nn.Embedding(5, 4, max_norm=0.5, norm_type=1.0)
l1(torch.tensor([0, 0, 4]))
print("L1 norms", l1.weight.detach().abs().sum(1))

freq = nn.Embedding(4, 2, scale_grad_by_freq=True)
freq(torch.tensor([1, 1, 1, 2])).sum().backward()
print("scale_grad_by_freq grad", freq.weight.grad)
plain = nn.Embedding(4, 2)
plain(torch.tensor([1, 1, 1, 2])).sum().backward()
print("plain grad", plain.weight.grad)

pre = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
frozen = nn.Embedding.from_pretrained(pre)
trainable = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=2)
print(frozen.weight.requires_grad, trainable.weight.requires_grad, trainable.padding_idx)
print(frozen(torch.tensor([2, 0])))
bag_pre = nn.EmbeddingBag.from_pretrained(pre, mode="max")
print(bag_pre, bag_pre(torch.tensor([[0, 2], [1, 1]])))

w = torch.randn(7, 3, requires_grad=True)
tokens = torch.tensor([1, 2, 4, 5, 4, 3, 2, 6])
offsets = torch.tensor([0, 3, 3, 6])
for mode in ["sum", "mean", "max"]:
    bag = F.embedding_bag(tokens, w, offsets, mode=mode)
    print(mode, tuple(bag.shape))
    print(bag)
bag = F.embedding_bag(tokens, w, offsets, mode="mean")
bag.sum().backward()
print("mean-bag grad row sums", w.grad.sum(1))
weights = torch.linspace(0.5, 2.0, len(tokens))
ws = F.embedding_bag(tokens, w, offsets, mode="sum", per_sample_weights=weights)
print("weighted", ws[0], (w[tokens[:3]] * weights[:3, None]).sum(0))
last = F.embedding_bag(tokens, w, torch.tensor([0, 3, 6, 8]), mode="sum", include_last_offset=True)
print("include_last_offset", tuple(last.shape))
padded = nn.EmbeddingBag(7, 3, mode="mean", padding_idx=0)
print(padded(torch.tensor([[0, 1, 0], [2, 0, 0]])) - padded.weight[[1, 2]])
try:
    F.embedding_bag(tokens, w, offsets, mode="max", per_sample_weights=weights)
except (NotImplementedError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    nn.Embedding(4, 2, padding_idx=4)
except AssertionError as e:
    print("AssertionError", e)
print(F.embedding(torch.tensor([[1, 0]]), torch.eye(3), padding_idx=0))
