# Models: FiLM, feature-wise linear modulation (Perez et al. 2018), as in CLEVR-style visual
# reasoning code: a GRU encodes a "question" (packed with pack_padded_sequence), a linear
# layer predicts per-channel gamma and beta for each residual block, conv features are
# modulated as gamma * BatchNorm(x) + beta, with coordinate channels appended (CoordConv);
# the question asks whether a colour is present in a given half of the image.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence


def coords(x):
    b, _, h, w = x.shape
    ys = torch.linspace(-1, 1, h).view(1, 1, h, 1).expand(b, 1, h, w)
    xs = torch.linspace(-1, 1, w).view(1, 1, 1, w).expand(b, 1, h, w)
    return torch.cat([x, ys, xs], 1)


class FiLMBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c + 2, c, 1)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c, affine=False)

    def forward(self, x, gamma, beta):
        h = F.relu(self.conv1(coords(x)))
        out = self.bn(self.conv2(h))
        out = gamma[:, :, None, None] * out + beta[:, :, None, None]
        return h + F.relu(out)


class FiLMNet(nn.Module):
    def __init__(self, vocab=8, c=12, blocks=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, 16, padding_idx=0)
        self.gru = nn.GRU(16, 32, batch_first=True)
        self.film = nn.Linear(32, blocks * 2 * c)
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.blocks = nn.ModuleList(FiLMBlock(c) for _ in range(blocks))
        self.head = nn.Sequential(nn.Conv2d(c, 16, 1), nn.ReLU(), nn.AdaptiveMaxPool2d(1),
                                  nn.Flatten(), nn.Linear(16, 2))
        self.c = c

    def forward(self, img, q, lengths):
        packed = pack_padded_sequence(self.embed(q), lengths, batch_first=True,
                                      enforce_sorted=False)
        _, h = self.gru(packed)
        params = self.film(h[-1]).view(len(img), len(self.blocks), 2, self.c)
        x = self.stem(img)
        for i, blk in enumerate(self.blocks):
            x = blk(x, 1 + params[:, i, 0], params[:, i, 1])
        return self.head(x), params


torch.manual_seed(0)
N = 96
imgs = 0.1 * torch.randn(N, 3, 8, 8)
for n in range(N):
    colour = int(torch.randint(0, 3, ()))
    half = int(torch.randint(0, 2, ()))
    r, c = int(torch.randint(0, 8, ())), int(torch.randint(0, 4, ())) + 4 * half
    imgs[n, colour, r, c] += 2.0
# question tokens: 1-3 colour, 4-5 half, 6 "is there", 7 "please"; variable length
q_colour = torch.randint(0, 3, (N,))
q_half = torch.randint(0, 2, (N,))
questions = torch.zeros(N, 4, dtype=torch.long)
lengths = torch.randint(3, 5, (N,))
questions[:, 0] = 6
questions[:, 1] = q_colour + 1
questions[:, 2] = q_half + 4
questions[lengths == 4, 3] = 7
halves = imgs.view(N, 3, 8, 2, 4)
present = halves[torch.arange(N), q_colour][:, :, :, :].amax((1, 3)) > 1.0
answers = present[torch.arange(N), q_half].long()
print("answer balance", answers.float().mean().item(), "lengths", torch.bincount(lengths).tolist())

model = FiLMNet()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    model.train()
    perm = torch.randperm(N)
    for i in range(0, N, 24):
        idx = perm[i:i + 24]
        logits, params = model(imgs[idx], questions[idx], lengths[idx])
        loss = F.cross_entropy(logits, answers[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 2 == 1:
        model.eval()
        with torch.no_grad():
            logits, params = model(imgs, questions, lengths)
            acc = (logits.argmax(1) == answers).float().mean()
        print(f"epoch {epoch} loss {loss.item():.5f} acc {acc.item():.4f} "
              f"gamma std {params[:, :, 0].std().item():.4f} beta mean "
              f"{params[:, :, 1].mean().item():.4f}")
with torch.no_grad():
    _, p_a = model(imgs[:1], torch.tensor([[6, 1, 4, 0]]), torch.tensor([3]))
    _, p_b = model(imgs[:1], torch.tensor([[6, 3, 5, 0]]), torch.tensor([3]))
print("FiLM parameters differ by question", (p_a - p_b).abs().mean().item())
print("GRU grad norm", model.gru.weight_hh_l0.grad.norm().item())
