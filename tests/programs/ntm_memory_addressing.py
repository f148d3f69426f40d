# Models: the addressing mechanism of a Neural Turing Machine as in public PyTorch NTM
# implementations: content addressing by cosine similarity with a key strength, interpolation
# with the previous weighting, circular convolutional shift via roll, sharpening with a power,
# erase/add memory writes, an LSTM controller, and training on the copy task with BCE.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, M = 16, 8  # memory slots, slot width


def address(memory, key, beta, g, shift, gamma, w_prev):
    sim = F.cosine_similarity(memory + 1e-16, key.unsqueeze(1) + 1e-16, dim=-1)
    w_c = F.softmax(beta * sim, dim=1)
    w_g = g * w_c + (1 - g) * w_prev
    w_s = sum(shift[:, i : i + 1] * torch.roll(w_g, i - 1, dims=1) for i in range(3))
    w = w_s**gamma
    return w / (w.sum(1, keepdim=True) + 1e-16)


mem = torch.eye(N, M).unsqueeze(0).repeat(2, 1, 1) + 0.01
key = mem[:, 3] * 5
w0 = torch.zeros(2, N)
w0[:, 0] = 1
shift = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
w = address(
    mem, key, torch.tensor([[10.0], [10.0]]), torch.ones(2, 1), shift, torch.ones(2, 1) * 2, w0
)
print("content + shift focus:", w.argmax(1).tolist(), w.max(1).values)
w_loc = address(mem, key, torch.ones(2, 1), torch.zeros(2, 1), shift, torch.ones(2, 1), w0)
print("location-only step from slot 0:", w_loc.argmax(1).tolist())


class NTM(nn.Module):
    def __init__(self, in_size, out_size, hidden=32):
        super().__init__()
        self.controller = nn.LSTMCell(in_size + M, hidden)
        n_head = M + 1 + 1 + 3 + 1
        self.read_head = nn.Linear(hidden, n_head)
        self.write_head = nn.Linear(hidden, n_head + 2 * M)
        self.out = nn.Linear(hidden + M, out_size)
        self.register_buffer("mem_bias", torch.full((N, M), 1e-6))

    def _split(self, p):
        k, b, g, s, y = torch.split(p[:, : M + 6], [M, 1, 1, 3, 1], dim=1)
        return k, F.softplus(b), torch.sigmoid(g), F.softmax(s, 1), 1 + F.softplus(y)

    def forward(self, xs):
        B = xs.shape[1]
        memory = self.mem_bias.expand(B, N, M).clone()
        h = c = torch.zeros(B, self.controller.hidden_size)
        r = torch.zeros(B, M)
        w_r = w_w = torch.zeros(B, N)
        w_r = w_r.index_fill(1, torch.tensor([0]), 1.0)
        w_w = w_w.index_fill(1, torch.tensor([0]), 1.0)
        outs = []
        for x in xs:
            h, c = self.controller(torch.cat([x, r], 1), (h, c))
            wp = self.write_head(h)
            w_w = address(memory, *self._split(wp), w_w)
            erase = torch.sigmoid(wp[:, M + 6 : 2 * M + 6])
            add = torch.tanh(wp[:, 2 * M + 6 :])
            memory = memory * (1 - w_w.unsqueeze(2) * erase.unsqueeze(1)) + w_w.unsqueeze(
                2
            ) * add.unsqueeze(1)
            w_r = address(memory, *self._split(self.read_head(h)), w_r)
            r = torch.bmm(w_r.unsqueeze(1), memory).squeeze(1)
            outs.append(self.out(torch.cat([h, r], 1)))
        return torch.stack(outs), memory, w_r


def copy_batch(batch=4, length=3, width=6):
    seq = torch.bernoulli(torch.full((length, batch, width), 0.5))
    inp = torch.zeros(2 * length + 1, batch, width + 1)
    inp[:length, :, :width] = seq
    inp[length, :, width] = 1.0  # delimiter
    return inp, seq


model = NTM(7, 6)
print("parameters:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.RMSprop(model.parameters(), lr=3e-3, momentum=0.9)
for step in range(24):
    inp, seq = copy_batch()
    out, memory, w_r = model(inp)
    loss = F.binary_cross_entropy_with_logits(out[-3:], seq)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 10.0)
    opt.step()
    if step % 8 == 7:
        bits = ((out[-3:] > 0).float() != seq).float().sum(-1).mean()
        print(f"step {step + 1} bce {loss.item():.4f} bit errors/seq {bits.item():.3f}")
print(
    "memory:",
    tuple(memory.shape),
    "read weights sum to one:",
    torch.allclose(w_r.sum(1), torch.ones(4)),
)
print("memory row norms:", memory[0].norm(dim=1)[:6])
