# Models: the PyTorch "Advanced: Making Dynamic Decisions and the Bi-LSTM CRF" tutorial,
# batched and vectorised as in public CRF layers -- transition scores with START/STOP tags, the
# forward algorithm with logsumexp, the gold path score via gather, negative log-likelihood
# training of a BiLSTM emitter, and Viterbi decoding with max over dims and backpointers.
import torch
import torch.nn as nn

torch.manual_seed(1)
tag_to_ix = {"B": 0, "I": 1, "O": 2, "<START>": 3, "<STOP>": 4}
START, STOP = tag_to_ix["<START>"], tag_to_ix["<STOP>"]
num_tags = len(tag_to_ix)
training_data = [
    ("the wall street journal reported today that apple corporation made money".split(),
     "B I I I O O O B I O O".split()),
    ("georgia tech is a university in georgia".split(), "B I O O O O B".split()),
]
word_to_ix = {}
for sentence, _ in training_data:
    for word in sentence:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)


class BiLSTM_CRF(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_dim):
        super().__init__()
        self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, num_layers=1, bidirectional=True,
                            batch_first=True)
        self.hidden2tag = nn.Linear(hidden_dim, num_tags)
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags))
        self.transitions.data[START, :] = -10000
        self.transitions.data[:, STOP] = -10000

    def emissions(self, sentences):
        lstm_out, _ = self.lstm(self.word_embeds(sentences))
        return self.hidden2tag(lstm_out)

    def log_partition(self, feats, mask):
        # feats (B, T, K); transitions[i, j] = score of moving from j to i
        alpha = torch.full((feats.size(0), num_tags), -10000.0)
        alpha[:, START] = 0.0
        for t in range(feats.size(1)):
            scores = alpha.unsqueeze(1) + self.transitions.unsqueeze(0) + feats[:, t, :, None]
            new_alpha = torch.logsumexp(scores, dim=2)
            m = mask[:, t, None]
            alpha = torch.where(m, new_alpha, alpha)
        return torch.logsumexp(alpha + self.transitions[STOP], dim=1)

    def gold_score(self, feats, tags, mask):
        b = feats.size(0)
        start = torch.full((b, 1), START, dtype=torch.long)
        tags_ext = torch.cat([start, tags], dim=1)
        emit = feats.gather(2, tags.unsqueeze(2)).squeeze(2)
        trans = self.transitions[tags_ext[:, 1:], tags_ext[:, :-1]]
        score = ((emit + trans) * mask).sum(1)
        last = tags.gather(1, (mask.sum(1, keepdim=True) - 1).long()).squeeze(1)
        return score + self.transitions[STOP, last]

    def neg_log_likelihood(self, sentences, tags, mask):
        feats = self.emissions(sentences)
        return (self.log_partition(feats, mask) - self.gold_score(feats, tags, mask)).mean()

    def viterbi_decode(self, feats):
        backpointers = []
        score = torch.full((num_tags,), -10000.0)
        score[START] = 0
        for feat in feats:
            next_scores = score.unsqueeze(0) + self.transitions
            best, best_ids = next_scores.max(dim=1)
            backpointers.append(best_ids)
            score = best + feat
        terminal = score + self.transitions[STOP]
        best_score, best_last = terminal.max(0)
        path = [best_last.item()]
        for bptrs in reversed(backpointers):
            path.append(bptrs[path[-1]].item())
        assert path.pop() == START
        path.reverse()
        return best_score, path


def pad_batch(pairs):
    lens = [len(s) for s, _ in pairs]
    T = max(lens)
    words = torch.zeros(len(pairs), T, dtype=torch.long)
    tags = torch.zeros(len(pairs), T, dtype=torch.long)
    for i, (s, t) in enumerate(pairs):
        words[i, :len(s)] = torch.tensor([word_to_ix[w] for w in s])
        tags[i, :len(t)] = torch.tensor([tag_to_ix[x] for x in t])
    mask = torch.arange(T)[None, :] < torch.tensor(lens)[:, None]
    return words, tags, mask


model = BiLSTM_CRF(len(word_to_ix), 5, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)
words, tags, mask = pad_batch(training_data)
print(mask.sum(1), words.shape)
with torch.no_grad():
    feats = model.emissions(words)
    print("before", model.viterbi_decode(feats[0, :mask[0].sum()]))
    print("nll", model.neg_log_likelihood(words, tags, mask))
for epoch in range(60):
    model.zero_grad()
    loss = model.neg_log_likelihood(words, tags, mask)
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print(f"epoch {epoch} nll {loss.item():.4f}")
with torch.no_grad():
    feats = model.emissions(words)
    for i in range(2):
        score, path = model.viterbi_decode(feats[i, :mask[i].sum()])
        print(f"{score.item():.4f}", path, tags[i, :mask[i].sum()].tolist())
    print("transitions", model.transitions[:3, :3])
