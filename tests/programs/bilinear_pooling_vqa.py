# Models: visual question answering fusion modules: multimodal low-rank bilinear pooling
# (MLB/MFB with einsum and sum-pooling over factors, power + L2 normalisation), compact
# bilinear pooling via count sketch and FFT (torch.fft.rfft/irfft), nn.Bilinear, top-down
# attention over region features with a masked softmax, and soft-score BCE answer targets.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(19)
B, R, dv, dq, n_ans = 6, 5, 12, 10, 7
regions = torch.randn(B, R, dv)
n_regions = torch.tensor([5, 3, 4, 5, 2, 5])
region_mask = torch.arange(R)[None] < n_regions[:, None]
question = torch.randn(B, dq)
answers = torch.zeros(B, n_ans)
for i in range(B):
    votes = torch.randint(0, n_ans, (10,))
    answers[i] = torch.clamp(torch.bincount(votes, minlength=n_ans).float() * 0.3, max=1.0)
print(answers[:2])


class MFB(nn.Module):
    def __init__(self, dv, dq, out_dim, k):
        super().__init__()
        self.k, self.o = k, out_dim
        self.proj_v = nn.Linear(dv, out_dim * k)
        self.proj_q = nn.Linear(dq, out_dim * k)

    def forward(self, v, q):
        joint = self.proj_v(v) * self.proj_q(q)
        joint = joint.view(*joint.shape[:-1], self.o, self.k).sum(-1)
        joint = torch.sign(joint) * torch.sqrt(torch.abs(joint) + 1e-8)
        return F.normalize(joint, dim=-1)


class MLB(nn.Module):
    def __init__(self, dv, dq, rank, out_dim):
        super().__init__()
        self.U = nn.Parameter(torch.randn(dv, rank) * 0.1)
        self.V = nn.Parameter(torch.randn(dq, rank) * 0.1)
        self.P = nn.Parameter(torch.randn(rank, out_dim) * 0.1)

    def forward(self, v, q):
        return torch.einsum("br,br,ro->bo", torch.tanh(v @ self.U), torch.tanh(q @ self.V), self.P)


def count_sketch(x, h, s, d):
    out = torch.zeros(*x.shape[:-1], d)
    return out.index_add(-1, h, x * s)


def compact_bilinear(x, y, d=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    h1 = torch.randint(d, (x.shape[-1],), generator=g)
    h2 = torch.randint(d, (y.shape[-1],), generator=g)
    s1 = torch.randint(2, (x.shape[-1],), generator=g).float() * 2 - 1
    s2 = torch.randint(2, (y.shape[-1],), generator=g).float() * 2 - 1
    fx = torch.fft.rfft(count_sketch(x, h1, s1, d))
    fy = torch.fft.rfft(count_sketch(y, h2, s2, d))
    return torch.fft.irfft(fx * fy, n=d)


cbp = compact_bilinear(regions.mean(1), question)
print("compact bilinear:", cbp.shape, cbp[0, :4])
outer = torch.einsum("bi,bj->bij", regions.mean(1), question).flatten(1)
print("sketch approximates inner products:",
      round(torch.dot(cbp[0], cbp[1]).item(), 4), round(torch.dot(outer[0], outer[1]).item(), 4))


class VQA(nn.Module):
    def __init__(self):
        super().__init__()
        self.att = MFB(dv, dq, 8, 3)
        self.att_logit = nn.Linear(8, 1)
        self.fuse = MLB(dv, dq, 16, 12)
        self.bil = nn.Bilinear(dv, dq, 6)
        self.cls = nn.Linear(18, n_ans)

    def forward(self, v, q, mask):
        a = self.att_logit(self.att(v, q[:, None].expand(-1, v.shape[1], -1))).squeeze(-1)
        a = a.masked_fill(~mask, float("-inf")).softmax(-1)
        v_att = torch.einsum("br,brd->bd", a, v)
        z = torch.cat([self.fuse(v_att, q), self.bil(v_att, q)], -1)
        return self.cls(F.relu(z)), a


model = VQA()
print(model.bil)
opt = torch.optim.Adamax(model.parameters(), lr=0.01)
for step in range(25):
    opt.zero_grad()
    logits, att = model(regions, question, region_mask)
    loss = F.binary_cross_entropy_with_logits(logits, answers, reduction="mean") * n_ans
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    if step % 8 == 0:
        print(f"step {step}: loss {loss.item():.6f}")
with torch.no_grad():
    logits, att = model(regions, question, region_mask)
    pred = logits.argmax(1)
    score = answers.gather(1, pred[:, None]).squeeze(1)
print("attention:", att[4], "vqa score:", score.mean().item(), pred.tolist())
