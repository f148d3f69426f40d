# Models: the d2l.ai "Sequence-to-Sequence Learning" chapter -- vocabulary with <pad>/<bos>/<eos>,
# truncate_pad, a GRU Seq2SeqEncoder/Decoder with the context concatenated to every input,
# sequence_mask and MaskedSoftmaxCELoss, teacher-forced training with clipping, greedy
# prediction and BLEU.
import collections
import math

import torch
from torch import nn

torch.manual_seed(0)
pairs = [
    ("go .", "va !"), ("hi .", "salut !"), ("run !", "cours !"), ("i lost .", "j'ai perdu ."),
    ("he's calm .", "il est calme ."), ("i'm home .", "je suis chez moi ."),
    ("we won .", "nous avons gagné ."), ("i'm ok .", "je vais bien ."),
]  # fmt: skip
source = [s.split(" ") for s, _ in pairs]
target = [t.split(" ") for _, t in pairs]


class Vocab:
    def __init__(self, tokens, reserved_tokens=()):
        counter = collections.Counter(tok for line in tokens for tok in line)
        self.token_freqs = sorted(counter.items(), key=lambda x: (-x[1], x[0]))
        self.idx_to_token = ["<unk>", *reserved_tokens]
        self.idx_to_token += [t for t, _ in self.token_freqs if t not in self.idx_to_token]
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, 0)
        return [self[t] for t in tokens]

    def to_tokens(self, indices):
        return [self.idx_to_token[int(i)] for i in indices]


src_vocab = Vocab(source, ["<pad>", "<bos>", "<eos>"])
tgt_vocab = Vocab(target, ["<pad>", "<bos>", "<eos>"])
print(len(src_vocab), len(tgt_vocab), src_vocab.idx_to_token[:8])


def truncate_pad(line, num_steps, padding_token):
    if len(line) > num_steps:
        return line[:num_steps]
    return line + [padding_token] * (num_steps - len(line))


def build_array(lines, vocab, num_steps):
    lines = [vocab[l] + [vocab["<eos>"]] for l in lines]
    array = torch.tensor([truncate_pad(l, num_steps, vocab["<pad>"]) for l in lines])
    valid_len = (array != vocab["<pad>"]).type(torch.int32).sum(1)
    return array, valid_len


num_steps = 7
src_array, src_valid_len = build_array(source, src_vocab, num_steps)
tgt_array, tgt_valid_len = build_array(target, tgt_vocab, num_steps)
print(src_array[:3], src_valid_len, tgt_valid_len.dtype)


class Seq2SeqEncoder(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)

    def forward(self, X, *args):
        X = self.embedding(X)
        X = X.permute(1, 0, 2)
        output, state = self.rnn(X)
        return output, state


class Seq2SeqDecoder(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers, dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, *args):
        return enc_outputs[1]

    def forward(self, X, state):
        X = self.embedding(X).permute(1, 0, 2)
        context = state[-1].repeat(X.shape[0], 1, 1)
        X_and_context = torch.cat((X, context), 2)
        output, state = self.rnn(X_and_context, state)
        output = self.dense(output).permute(1, 0, 2)
        return output, state


class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)


encoder = Seq2SeqEncoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
encoder.eval()
X = torch.zeros((4, 7), dtype=torch.long)
output, state = encoder(X)
print(output.shape, state.shape)
decoder = Seq2SeqDecoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
decoder.eval()
state = decoder.init_state(encoder(X))
output, state = decoder(X, state)
print(output.shape, state.shape)


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = (
        torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    )
    X[~mask] = value
    return X


X = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(sequence_mask(X, torch.tensor([1, 2])))
X = torch.ones(2, 3, 4)
print(sequence_mask(X, torch.tensor([1, 2]), value=-1))


class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
    def forward(self, pred, label, valid_len):
        weights = torch.ones_like(label)
        weights = sequence_mask(weights, valid_len)
        self.reduction = "none"
        unweighted_loss = super().forward(pred.permute(0, 2, 1), label)
        weighted_loss = (unweighted_loss * weights).mean(dim=1)
        return weighted_loss


loss = MaskedSoftmaxCELoss()
print(loss(torch.ones(3, 4, 10), torch.ones((3, 4), dtype=torch.long), torch.tensor([4, 2, 0])))
print(loss)


def xavier_init_weights(m):
    if type(m) is nn.Linear:
        nn.init.xavier_uniform_(m.weight)
    if type(m) is nn.GRU:
        for param in m._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(m._parameters[param])


embed_size, num_hiddens, num_layers, dropout = 16, 32, 2, 0.1
encoder = Seq2SeqEncoder(len(src_vocab), embed_size, num_hiddens, num_layers, dropout)
decoder = Seq2SeqDecoder(len(tgt_vocab), embed_size, num_hiddens, num_layers, dropout)
net = EncoderDecoder(encoder, decoder)
net.apply(xavier_init_weights)
print(net.encoder.rnn._flat_weights_names)
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
net.train()
for epoch in range(60):
    perm = torch.randperm(len(pairs))
    total, tokens = 0.0, 0
    for i in range(0, len(pairs), 4):
        idx = perm[i : i + 4]
        X, X_valid_len, Y, Y_valid_len = (
            src_array[idx], src_valid_len[idx], tgt_array[idx], tgt_valid_len[idx]
        )  # fmt: skip
        optimizer.zero_grad()
        bos = torch.tensor([tgt_vocab["<bos>"]] * Y.shape[0]).reshape(-1, 1)
        dec_input = torch.cat([bos, Y[:, :-1]], 1)
        Y_hat, _ = net(X, dec_input, X_valid_len)
        l = loss(Y_hat, Y, Y_valid_len)
        l.sum().backward()
        norm = nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        num_tokens = Y_valid_len.sum()
        optimizer.step()
        with torch.no_grad():
            total += l.sum().item()
            tokens += num_tokens.item()
    if (epoch + 1) % 15 == 0:
        print(f"epoch {epoch + 1} loss {total / tokens:.4f} last grad norm {norm:.4f}")


def predict_seq2seq(net, src_sentence, num_steps):
    net.eval()
    src_tokens = src_vocab[src_sentence.lower().split(" ")] + [src_vocab["<eos>"]]
    enc_valid_len = torch.tensor([len(src_tokens)])
    src_tokens = truncate_pad(src_tokens, num_steps, src_vocab["<pad>"])
    enc_X = torch.unsqueeze(torch.tensor(src_tokens, dtype=torch.long), dim=0)
    enc_outputs = net.encoder(enc_X, enc_valid_len)
    dec_state = net.decoder.init_state(enc_outputs, enc_valid_len)
    dec_X = torch.unsqueeze(torch.tensor([tgt_vocab["<bos>"]], dtype=torch.long), dim=0)
    output_seq = []
    for _ in range(num_steps):
        Y, dec_state = net.decoder(dec_X, dec_state)
        dec_X = Y.argmax(dim=2)
        pred = dec_X.squeeze(dim=0).type(torch.int32).item()
        if pred == tgt_vocab["<eos>"]:
            break
        output_seq.append(pred)
    return " ".join(tgt_vocab.to_tokens(output_seq))


def bleu(pred_seq, label_seq, k):
    pred_tokens, label_tokens = pred_seq.split(" "), label_seq.split(" ")
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, min(k, len_pred) + 1):
        num_matches, label_subs = 0, collections.defaultdict(int)
        for i in range(len_label - n + 1):
            label_subs[" ".join(label_tokens[i : i + n])] += 1
        for i in range(len_pred - n + 1):
            if label_subs[" ".join(pred_tokens[i : i + n])] > 0:
                num_matches += 1
                label_subs[" ".join(pred_tokens[i : i + n])] -= 1
        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
    return score


with torch.no_grad():
    for eng, fra in pairs[:5]:
        translation = predict_seq2seq(net, eng, num_steps)
        print(f"{eng} => {translation}, bleu {bleu(translation, fra, k=2):.3f}")
print(bleu("je suis chez moi .", "je suis chez moi .", 2), bleu("il est", "il est calme .", 2))
