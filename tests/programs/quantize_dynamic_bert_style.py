# Models: the "dynamic quantization of BERT" recipe on a small BERT-style encoder written out
# by hand (token + position embeddings, multi-head self-attention from four nn.Linear layers,
# LayerNorm, a GELU feed-forward block, a tanh pooler and a classifier), trained a few Adam
# steps in float32, then torch.quantization.quantize_dynamic({nn.Linear}, dtype=torch.qint8):
# the converted model's print, its quantized weights and state_dict, the logits before and
# after, the accuracy, the SQNR of weights and outputs (numeric suite) and the model sizes.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.quantization._numeric_suite as ns

torch.manual_seed(0)
VOCAB, SEQ, HIDDEN, HEADS, FFN, CLASSES = 50, 12, 32, 4, 64, 3


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.query = nn.Linear(HIDDEN, HIDDEN)
        self.key = nn.Linear(HIDDEN, HIDDEN)
        self.value = nn.Linear(HIDDEN, HIDDEN)
        self.output = nn.Linear(HIDDEN, HIDDEN)
        self.norm = nn.LayerNorm(HIDDEN)

    def forward(self, x, mask):
        b, s, _ = x.shape
        d = HIDDEN // HEADS

        def split(t):
            return t.view(b, s, HEADS, d).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d)
        scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        ctx = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, HIDDEN)
        return self.norm(x + self.output(ctx))


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = SelfAttention()
        self.intermediate = nn.Linear(HIDDEN, FFN)
        self.out = nn.Linear(FFN, HIDDEN)
        self.norm = nn.LayerNorm(HIDDEN)

    def forward(self, x, mask):
        x = self.attention(x, mask)
        return self.norm(x + self.out(F.gelu(self.intermediate(x))))


class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(VOCAB, HIDDEN)
        self.positions = nn.Embedding(SEQ, HIDDEN)
        self.layers = nn.ModuleList([Layer(), Layer()])
        self.pooler = nn.Linear(HIDDEN, HIDDEN)
        self.classifier = nn.Linear(HIDDEN, CLASSES)

    def forward(self, ids, mask):
        x = self.tokens(ids) + self.positions(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x, mask)
        return self.classifier(torch.tanh(self.pooler(x[:, 0])))


def batch(n, gen):
    ids = torch.randint(1, VOCAB, (n, SEQ), generator=gen)
    lengths = torch.randint(4, SEQ + 1, (n,), generator=gen)
    mask = torch.arange(SEQ)[None, :] < lengths[:, None]
    ids = ids.masked_fill(~mask, 0)
    labels = (ids[:, 1:4].sum(1) % CLASSES)
    return ids, mask, labels


gen = torch.Generator().manual_seed(1)
model = TinyBert()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(30):
    ids, mask, labels = batch(32, gen)
    loss = F.cross_entropy(model(ids, mask), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1}: loss {loss.item():.4f}")

model.eval()
qmodel = torch.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
print(qmodel)
print(qmodel.layers[0].attention.query.weight()[:2, :6])
print(qmodel.classifier.bias())
print([k for k in qmodel.state_dict() if k.startswith("layers.0.attention.query")])


def linear_bytes(m):
    """Bytes of the linear layers' weights and biases (int8 weights when quantized)."""
    total = 0
    for mod in m.modules():
        if isinstance(mod, nn.Linear):
            total += mod.weight.numel() * mod.weight.element_size()
            total += mod.bias.numel() * mod.bias.element_size()
        elif hasattr(mod, "_packed_params") and callable(getattr(mod, "weight", None)):
            w = mod.weight()
            total += w.numel() * w.element_size() + mod.bias().numel() * 4
    return total


print("linear weight bytes: float", linear_bytes(model), "quantized", linear_bytes(qmodel))

ids, mask, labels = batch(64, gen)
with torch.no_grad():
    logits = model(ids, mask)
    qlogits = qmodel(ids, mask)
print("float logits:", logits[:3])
print("quantized logits:", qlogits[:3])
print("max abs diff:", (logits - qlogits).abs().max().item())
print("same predictions:", (logits.argmax(1) == qlogits.argmax(1)).sum().item(), "of", 64)
print("accuracy float", (logits.argmax(1) == labels).float().mean().item(),
      "quantized", (qlogits.argmax(1) == labels).float().mean().item())


def sqnr(x, y):
    return (20 * torch.log10(torch.norm(x) / torch.norm(x - y))).item()


weights = ns.compare_weights(model.state_dict(), qmodel.state_dict())
for key in list(weights)[:4]:
    w = weights[key]
    print(key, f"{sqnr(w['float'], w['quantized'].dequantize()):.3f} dB")
acts = ns.compare_model_outputs(model, qmodel, ids, mask)
for key in list(acts)[-3:]:
    a = acts[key]
    print(key, f"{sqnr(a['float'][0], a['quantized'][0]):.3f} dB")
