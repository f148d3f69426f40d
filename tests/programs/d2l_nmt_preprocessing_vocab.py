# Models: the d2l "machine translation and the dataset" section on an inline English-French
# snippet: text normalisation (non-breaking spaces, space before punctuation), word-level
# tokenisation into source/target pairs, a Vocab class with min_freq and reserved tokens sorted
# by frequency, truncate_pad to num_steps, build_array with <eos> and valid lengths, a
# TensorDataset/DataLoader over the arrays, and length statistics with torch.bincount.
import collections

import torch
from torch.utils.data import DataLoader, TensorDataset

raw_text = """Go.\tVa !
Hi.\tSalut !
Run!\tCours\u202f!
Run!\tCourez\u202f!
Who?\tQui ?
Wow!\tÇa alors\u202f!
Fire!\tAu feu !
Help!\tÀ l'aide\u202f!
Jump.\tSaute.
Stop!\tÇa suffit\u202f!
Stop!\tStop\u202f!
Wait!\tAttends !
Wait!\tAttendez !
Go on.\tPoursuis.
Go on.\tContinuez.
Hello!\tBonjour !
I see.\tJe comprends.
I try.\tJ'essaye.
I won!\tJ'ai gagné !
I won!\tJe l'ai emporté !
Oh no!\tOh non !
Attack!\tAttaque !
Cheers!\tSanté !
Get up.\tLève-toi.
Go now.\tVas-y maintenant.
Got it!\tCompris !
Hop in.\tMonte.
Hug me.\tSerre-moi dans tes bras !
I fell.\tJe suis tombée.
I know.\tJe sais."""


def preprocess(text):
    def no_space(char, prev_char):
        return char in set(",.!?") and prev_char != " "
    text = text.replace("\u202f", " ").replace("\xa0", " ").lower()
    out = [" " + char if i > 0 and no_space(char, text[i - 1]) else char
           for i, char in enumerate(text)]
    return "".join(out)


text = preprocess(raw_text)
print(text[:80])


def tokenize(text, num_examples=None):
    source, target = [], []
    for i, line in enumerate(text.split("\n")):
        if num_examples and i > num_examples:
            break
        parts = line.split("\t")
        if len(parts) == 2:
            source.append(parts[0].split(" "))
            target.append(parts[1].split(" "))
    return source, target


source, target = tokenize(text)
print(source[:6], target[:6])


class Vocab:
    def __init__(self, tokens=None, min_freq=0, reserved_tokens=None):
        tokens = tokens or []
        if tokens and isinstance(tokens[0], list):
            tokens = [t for line in tokens for t in line]
        counter = collections.Counter(tokens)
        self.token_freqs = sorted(counter.items(), key=lambda x: x[1], reverse=True)
        self.idx_to_token = list(sorted(set(["<unk>"] + (reserved_tokens or []) + [
            token for token, freq in self.token_freqs if freq >= min_freq])))
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, self.unk)
        return [self.__getitem__(t) for t in tokens]

    def to_tokens(self, indices):
        if hasattr(indices, "__len__") and len(indices) > 1:
            return [self.idx_to_token[int(i)] for i in indices]
        return self.idx_to_token[indices]

    @property
    def unk(self):
        return self.token_to_idx["<unk>"]


src_vocab = Vocab(source, min_freq=2, reserved_tokens=["<pad>", "<bos>", "<eos>"])
tgt_vocab = Vocab(target, min_freq=1, reserved_tokens=["<pad>", "<bos>", "<eos>"])
print("src vocab", len(src_vocab), src_vocab.idx_to_token)
print("tgt vocab size", len(tgt_vocab), "most frequent", tgt_vocab.token_freqs[:5])


def truncate_pad(line, num_steps, padding_token):
    if len(line) > num_steps:
        return line[:num_steps]
    return line + [padding_token] * (num_steps - len(line))


print(truncate_pad(src_vocab[source[0]], 6, src_vocab["<pad>"]))


def build_array(lines, vocab, num_steps):
    lines = [vocab[l] + [vocab["<eos>"]] for l in lines]
    array = torch.tensor([truncate_pad(l, num_steps, vocab["<pad>"]) for l in lines])
    valid_len = (array != vocab["<pad>"]).type(torch.int32).sum(1)
    return array, valid_len


num_steps = 5
src_array, src_valid_len = build_array(source, src_vocab, num_steps)
tgt_array, tgt_valid_len = build_array(target, tgt_vocab, num_steps)
print(src_array[:4], src_valid_len[:4])
print("valid length histogram src", torch.bincount(src_valid_len).tolist(),
      "tgt", torch.bincount(tgt_valid_len).tolist())
print("unk fraction in source", (src_array == src_vocab.unk).float().mean().item())
print("truncated targets", (torch.tensor([len(t) + 1 for t in target]) > num_steps).sum().item())

ds = TensorDataset(src_array, src_valid_len, tgt_array, tgt_valid_len)
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
X, X_valid_len, Y, Y_valid_len = next(iter(loader))
print("X:", X.type(torch.int32))
print("valid lengths for X:", X_valid_len)
print("Y:", Y.type(torch.int32))
print("valid lengths for Y:", Y_valid_len)
print("decoded:", [" ".join(tgt_vocab.to_tokens(row[:n]))
                   for row, n in zip(Y.tolist(), Y_valid_len.tolist())])
print("batches per epoch", len(loader))
