# Models: CLIP's training objective as written in the paper's pseudocode and open_clip: an image
# and a text encoder projected into a shared space, L2-normalised embeddings, a learnable
# temperature stored as logit_scale = log(1/0.07) and clamped to 100, the symmetric
# cross-entropy over the similarity matrix, and zero-shot classification with prompt ensembles.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n_cls, img_dim, vocab, seq = 5, 48, 30, 6
class_protos = torch.randn(n_cls, img_dim)
class_tokens = torch.randint(1, vocab, (n_cls, 3))
prompt_templates = torch.randint(1, vocab, (4, seq - 3))


def make_batch(b):
    y = torch.randint(0, n_cls, (b,))
    images = class_protos[y] + 0.7 * torch.randn(b, img_dim)
    t = torch.randint(0, 4, (b,))
    text = torch.cat([prompt_templates[t], class_tokens[y]], dim=1)
    return images, text, y


class TextEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(seq, dim))
        nn.init.normal_(self.pos, std=0.01)
        layer = nn.TransformerEncoderLayer(
            dim, 4, dim * 2, dropout=0.0, batch_first=True, norm_first=True
        )
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(dim)

    def forward(self, text):
        x = self.enc(self.tok(text) + self.pos)
        return self.ln(x[:, -1])


class CLIP(nn.Module):
    def __init__(self, embed_dim=16, width=32):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(img_dim, width), nn.GELU(), nn.Linear(width, width))
        self.text = TextEncoder(width)
        self.image_projection = nn.Parameter(torch.randn(width, embed_dim) * width**-0.5)
        self.text_projection = nn.Parameter(torch.randn(width, embed_dim) * width**-0.5)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def encode_image(self, x):
        return self.visual(x) @ self.image_projection

    def encode_text(self, t):
        return self.text(t) @ self.text_projection

    def forward(self, images, text):
        img = F.normalize(self.encode_image(images), dim=-1)
        txt = F.normalize(self.encode_text(text), dim=-1)
        scale = self.logit_scale.exp()
        logits_per_image = scale * img @ txt.t()
        return logits_per_image, logits_per_image.t()


model = CLIP()
print(sum(p.numel() for p in model.parameters()), "parameters")
print("initial logit scale", model.logit_scale.item(), model.logit_scale.exp().item())
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
for step in range(40):
    images, text, _ = make_batch(24)
    li, lt = model(images, text)
    labels = torch.arange(len(images))
    loss = (F.cross_entropy(li, labels) + F.cross_entropy(lt, labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        model.logit_scale.clamp_(0, math.log(100))
    if step % 10 == 0 or step == 39:
        acc_i = (li.argmax(1) == labels).float().mean().item()
        print(
            f"step {step:2d} loss {loss.item():.4f} i2t acc {acc_i:.3f} "
            f"scale {model.logit_scale.exp().item():.3f}"
        )

model.eval()
with torch.no_grad():
    prompts = torch.cat(
        [prompt_templates.repeat_interleave(n_cls, 0), class_tokens.repeat(4, 1)], dim=1
    )
    emb = F.normalize(model.encode_text(prompts), dim=-1).view(4, n_cls, -1)
    classifier = F.normalize(emb.mean(0), dim=-1)
    print("zero-shot classifier", classifier.shape)
    images, _, y = make_batch(60)
    feats = F.normalize(model.encode_image(images), dim=-1)
    probs = (100.0 * feats @ classifier.T).softmax(dim=-1)
    top_probs, top_labels = probs.topk(2, dim=-1)
    print("zero-shot accuracy", (top_labels[:, 0] == y).float().mean().item())
    print("top-2 accuracy", (top_labels == y[:, None]).any(1).float().mean().item())
    print(top_probs[:4], top_labels[:4])
    sims = classifier @ classifier.T
    print("class similarity\n", sims)
