# Models: weight tying in language models (Press & Wolf; as in the PyTorch word_language_model
# example and GPT-2): decoder.weight = encoder.weight, how parameters() deduplicates it,
# named_parameters(remove_duplicate=False), state_dict keeping both keys, gradients summing
# from both uses, optimizer param groups, and a shared-layer (ALBERT-style) block reused N times.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(10)


class TiedLM(nn.Module):
    def __init__(self, vocab=12, d=8):
        super().__init__()
        self.encoder = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.decoder = nn.Linear(d, vocab)
        self.decoder.weight = self.encoder.weight

    def forward(self, x):
        h, _ = self.rnn(self.encoder(x))
        return self.decoder(h)


m = TiedLM()
print(m.decoder.weight is m.encoder.weight)
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print(sum(p.numel() for p in m.parameters()), len(list(m.parameters())))
print(list(m.state_dict().keys()))
sd = m.state_dict()
print(sd["encoder.weight"].data_ptr() == sd["decoder.weight"].data_ptr())
x = torch.randint(0, 12, (4, 6))
logits = m(x[:, :-1])
loss = F.cross_entropy(logits.reshape(-1, 12), x[:, 1:].reshape(-1))
loss.backward()
print(loss, m.encoder.weight.grad.abs().sum(), m.decoder.bias.grad)
g_total = m.encoder.weight.grad.clone()
m.zero_grad()
emb_only = m.encoder(x[:, :-1])
h, _ = m.rnn(emb_only)
F.cross_entropy(F.linear(h, m.encoder.weight.detach(), m.decoder.bias).reshape(-1, 12),
                x[:, 1:].reshape(-1)).backward()
g_embed = m.encoder.weight.grad.clone()
print("decoder share of the tied grad", (g_total - g_embed).abs().sum())
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
print([len(g["params"]) for g in opt.param_groups])
for step in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(m(x[:, :-1]).reshape(-1, 12), x[:, 1:].reshape(-1))
    loss.backward()
    opt.step()
print(f"loss after 20 steps {loss.item():.5f}", m.decoder.weight is m.encoder.weight)
m2 = TiedLM()
m2.load_state_dict(m.state_dict())
print(torch.equal(m2.decoder.weight, m.encoder.weight), m2.decoder.weight is m2.encoder.weight)
try:
    nn.Linear(8, 12).weight = torch.zeros(12, 8)
except TypeError as e:
    print("TypeError:", e)


class SharedBlock(nn.Module):
    def __init__(self, d=8, n=3):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(d, d), nn.Tanh())
        self.layers = nn.ModuleList([self.block] * n)

    def forward(self, x):
        outs = []
        for layer in self.layers:
            x = layer(x) + x
            outs.append(x.norm().item())
        return x, outs


sb = SharedBlock()
print(len(list(sb.parameters())), len(list(sb.modules())), [n for n, _ in sb.named_modules()])
print([n for n, _ in sb.named_modules(remove_duplicate=False)])
out, norms = sb(torch.randn(2, 8))
out.sum().backward()
print([round(v, 5) for v in norms], sb.block[0].weight.grad.norm())
print(sb)
