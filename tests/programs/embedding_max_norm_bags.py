# Models: recommendation-style embedding code: nn.Embedding with max_norm (renormalised rows
# in place), padding_idx and scale_grad_by_freq, EmbeddingBag with offsets in sum/mean/max
# modes, include_last_offset and per_sample_weights, F.embedding on a raw weight, and a tiny
# two-tower model trained with a sampled-softmax style loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(10, 4, max_norm=1.0, norm_type=2.0)
print(emb.weight.norm(dim=1))
idx = torch.tensor([[1, 2, 2], [5, 9, 1]])
out = emb(idx)
print(out.norm(dim=-1))
print(emb.weight.norm(dim=1))
emb_pad = nn.Embedding(6, 3, padding_idx=0, scale_grad_by_freq=True)
tokens = torch.tensor([[0, 2, 2, 3], [4, 2, 0, 0]])
emb_pad(tokens).sum().backward()
print(emb_pad.weight.grad)
print(emb_pad.weight[0])
w = torch.randn(7, 3)
print(F.embedding(torch.tensor([6, 0, 3]), w, max_norm=0.5))
print(w.norm(dim=1))

bag_in = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 2, 2, 5])
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag(10, 3, mode=mode)
    print(mode, bag(bag_in, offsets))
bag = nn.EmbeddingBag(10, 3, mode="sum", include_last_offset=True)
print(bag(bag_in, torch.tensor([0, 2, 5, 8])))
psw = torch.linspace(0.5, 2.0, 8)
print(bag(bag_in, torch.tensor([0, 2, 5, 8]), per_sample_weights=psw))
bag2d = nn.EmbeddingBag(10, 2, mode="mean", padding_idx=2)
print(bag2d(torch.tensor([[1, 2, 3], [2, 2, 2], [4, 5, 2]])))
pre = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(4, 3), mode="max")
print(pre(torch.tensor([[0, 3], [1, 2]])), pre.weight.requires_grad)


class TwoTower(nn.Module):
    def __init__(self, n_users=20, n_items=30, dim=8):
        super().__init__()
        self.user = nn.Embedding(n_users, dim, max_norm=2.0)
        self.item_bag = nn.EmbeddingBag(n_items, dim, mode="mean")
        self.item = nn.Embedding(n_items, dim)

    def forward(self, users, hist, hist_off, cands):
        u = self.user(users) + self.item_bag(hist, hist_off)
        return u @ self.item(cands).T


torch.manual_seed(1)
model = TwoTower()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
users = torch.randint(0, 20, (6,))
hist = torch.randint(0, 30, (15,))
hist_off = torch.tensor([0, 3, 5, 9, 10, 12])
pos = torch.randint(0, 30, (6,))
for step in range(10):
    logits = model(users, hist, hist_off, pos)
    loss = F.cross_entropy(logits, torch.arange(6))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 9:
        print(f"step {step} loss {loss.item():.5f}")
print(model.user.weight.norm(dim=1)[:6])
