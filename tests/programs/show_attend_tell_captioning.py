# Models: "Show, Attend and Tell" image captioning as the popular sgrvinod tutorial writes it:
# a small CNN encoder giving a grid of features, captions sorted by length, an LSTMCell decoder
# with soft (Bahdanau) attention and a sigmoid gate, teacher forcing over the shrinking batch,
# pack_padded_sequence for the loss, doubly stochastic attention regularisation and
# clip_grad_value_; then greedy captioning.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence

torch.manual_seed(9)
vocab = ["<pad>", "<start>", "<end>", "red", "blue", "square", "circle", "left", "right", "a"]
V = len(vocab)


class Encoder(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, d, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d((4, 4))

    def forward(self, images):
        out = self.pool(self.conv(images))
        return out.permute(0, 2, 3, 1)


class Attention(nn.Module):
    def __init__(self, enc_dim, dec_dim, att_dim):
        super().__init__()
        self.enc_att = nn.Linear(enc_dim, att_dim)
        self.dec_att = nn.Linear(dec_dim, att_dim)
        self.full_att = nn.Linear(att_dim, 1)

    def forward(self, enc, h):
        att = self.full_att(F.relu(self.enc_att(enc) + self.dec_att(h).unsqueeze(1))).squeeze(2)
        alpha = F.softmax(att, dim=1)
        return (enc * alpha.unsqueeze(2)).sum(dim=1), alpha


class Decoder(nn.Module):
    def __init__(self, enc_dim=16, dec_dim=24, emb=12, att_dim=20):
        super().__init__()
        self.attention = Attention(enc_dim, dec_dim, att_dim)
        self.embedding = nn.Embedding(V, emb)
        self.decode_step = nn.LSTMCell(emb + enc_dim, dec_dim, bias=True)
        self.init_h, self.init_c = nn.Linear(enc_dim, dec_dim), nn.Linear(enc_dim, dec_dim)
        self.f_beta = nn.Linear(dec_dim, enc_dim)
        self.fc = nn.Linear(dec_dim, V)
        self.dropout = nn.Dropout(0.2)
        self.embedding.weight.data.uniform_(-0.1, 0.1)
        self.fc.bias.data.fill_(0)

    def init_state(self, enc):
        mean = enc.mean(dim=1)
        return self.init_h(mean), self.init_c(mean)

    def forward(self, enc, caps, lengths):
        bs = enc.size(0)
        enc = enc.view(bs, -1, enc.size(-1))
        lengths, order = lengths.sort(dim=0, descending=True)
        enc, caps = enc[order], caps[order]
        emb = self.embedding(caps)
        h, c = self.init_state(enc)
        dec_lengths = (lengths - 1).tolist()
        T = max(dec_lengths)
        preds = torch.zeros(bs, T, V)
        alphas = torch.zeros(bs, T, enc.size(1))
        for t in range(T):
            bt = sum(ln > t for ln in dec_lengths)
            awe, alpha = self.attention(enc[:bt], h[:bt])
            gate = torch.sigmoid(self.f_beta(h[:bt]))
            h, c = self.decode_step(torch.cat([emb[:bt, t], gate * awe], dim=1), (h[:bt], c[:bt]))
            preds[:bt, t] = self.fc(self.dropout(h))
            alphas[:bt, t] = alpha
        return preds, caps, dec_lengths, alphas, order


def make_example():
    color = torch.randint(0, 2, (1,)).item()
    shape = torch.randint(0, 2, (1,)).item()
    side = torch.randint(0, 2, (1,)).item()
    img = torch.zeros(3, 12, 12)
    ch = 0 if color == 0 else 2
    x0 = 1 if side == 0 else 7
    if shape == 0:
        img[ch, 3:8, x0:x0 + 4] = 1
    else:
        yy, xx = torch.meshgrid(torch.arange(12), torch.arange(12), indexing="ij")
        img[ch][((yy - 6) ** 2 + (xx - x0 - 2) ** 2) <= 5] = 1
    words = ["a", ["red", "blue"][color], ["square", "circle"][shape]]
    if torch.rand(1).item() < 0.5:
        words.append(["left", "right"][side])
    ids = [1] + [vocab.index(w) for w in words] + [2]
    return img + 0.05 * torch.randn_like(img), ids


data = [make_example() for _ in range(48)]
encoder, decoder = Encoder(), Decoder()
params = list(encoder.parameters()) + list(decoder.parameters())
opt = torch.optim.Adam(params, lr=4e-3)
for epoch in range(6):
    tot = 0.0
    for i in range(0, len(data), 12):
        batch = data[i:i + 12]
        imgs = torch.stack([b[0] for b in batch])
        lens = torch.tensor([len(b[1]) for b in batch])
        caps = torch.zeros(len(batch), int(lens.max()), dtype=torch.long)
        for j, b in enumerate(batch):
            caps[j, :len(b[1])] = torch.tensor(b[1])
        preds, caps_sorted, dec_lengths, alphas, _ = decoder(encoder(imgs), caps, lens)
        targets = caps_sorted[:, 1:]
        scores = pack_padded_sequence(preds, dec_lengths, batch_first=True).data
        targets = pack_padded_sequence(targets, dec_lengths, batch_first=True).data
        loss = F.cross_entropy(scores, targets)
        loss = loss + 1.0 * ((1.0 - alphas.sum(dim=1)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_value_(params, 5.0)
        opt.step()
        tot += loss.item()
    print(f"epoch {epoch} loss {tot / 4:.5f} packed {tuple(scores.shape)}")
encoder.eval()
decoder.eval()
with torch.no_grad():
    for img, ids in data[:4]:
        enc = encoder(img[None]).view(1, -1, 16)
        h, c = decoder.init_state(enc)
        word, out = 1, []
        for _ in range(6):
            awe, alpha = decoder.attention(enc, h)
            gate = torch.sigmoid(decoder.f_beta(h))
            x = torch.cat([decoder.embedding(torch.tensor([word])), gate * awe], 1)
            h, c = decoder.decode_step(x, (h, c))
            word = decoder.fc(h).argmax(1).item()
            if word == 2:
                break
            out.append(vocab[word])
        print(" ".join(vocab[i] for i in ids[1:-1]), "->", " ".join(out),
              f"{alpha.max().item():.4f}")
