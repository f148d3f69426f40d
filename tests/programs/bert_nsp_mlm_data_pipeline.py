# Models: the d2l "dataset for pretraining BERT" pipeline with torch's RNG: tokens and segment
# ids for sentence pairs (<cls> A <sep> B <sep>), next-sentence-prediction pairs with 50% random
# replacement, the 80/10/10 masked-language-model replacement, padding with valid lengths and
# MLM weights, a Dataset/DataLoader over the result, and a tiny BERT-style forward for losses.
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
paragraphs = [
    ["the cat sat on the mat", "it was a sunny day", "the dog barked loudly"],
    ["we went to the market", "we bought apples and pears", "then we went home"],
    ["a storm hit the town", "trees fell on the road", "schools were closed", "people stayed in"],
]
paragraphs = [[s.split() for s in p] for p in paragraphs]
tokens = sorted({t for p in paragraphs for s in p for t in s})
idx_to_token = ["<pad>", "<mask>", "<cls>", "<sep>", "<unk>"] + tokens
token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
print("vocab size", len(idx_to_token))


def get_tokens_and_segments(tokens_a, tokens_b=None):
    tokens = ["<cls>"] + tokens_a + ["<sep>"]
    segments = [0] * (len(tokens_a) + 2)
    if tokens_b is not None:
        tokens += tokens_b + ["<sep>"]
        segments += [1] * (len(tokens_b) + 1)
    return tokens, segments


def randint(n):
    return torch.randint(0, n, (1,)).item()


def get_next_sentence(sentence, next_sentence, paragraphs):
    if torch.rand(1).item() < 0.5:
        is_next = True
    else:
        p = paragraphs[randint(len(paragraphs))]
        next_sentence = p[randint(len(p))]
        is_next = False
    return sentence, next_sentence, is_next


def replace_mlm_tokens(tokens, candidate_pred_positions, num_mlm_preds):
    mlm_input_tokens = list(tokens)
    pred_positions_and_labels = []
    order = torch.randperm(len(candidate_pred_positions)).tolist()
    for k in order:
        mlm_pred_position = candidate_pred_positions[k]
        if len(pred_positions_and_labels) >= num_mlm_preds:
            break
        r = torch.rand(1).item()
        if r < 0.8:
            masked_token = "<mask>"
        elif r < 0.9:
            masked_token = tokens[mlm_pred_position]
        else:
            masked_token = idx_to_token[5 + randint(len(tokens_list))]
        mlm_input_tokens[mlm_pred_position] = masked_token
        pred_positions_and_labels.append((mlm_pred_position, tokens[mlm_pred_position]))
    return mlm_input_tokens, pred_positions_and_labels


tokens_list = tokens
examples = []
for paragraph in paragraphs:
    for i in range(len(paragraph) - 1):
        a, b, is_next = get_next_sentence(paragraph[i], paragraph[i + 1], paragraphs)
        toks, segs = get_tokens_and_segments(a, b)
        candidates = [j for j, t in enumerate(toks) if t not in ("<cls>", "<sep>")]
        num_preds = max(1, round(len(toks) * 0.15))
        mlm_toks, pos_labels = replace_mlm_tokens(toks, candidates, num_preds)
        pos_labels = sorted(pos_labels, key=lambda x: x[0])
        examples.append(([token_to_idx[t] for t in mlm_toks], [p for p, _ in pos_labels],
                         [token_to_idx[lab] for _, lab in pos_labels], segs, is_next))
        print(" ".join(mlm_toks), "| is_next", is_next, "| preds", pos_labels)

max_len = 20
max_num_mlm_preds = round(max_len * 0.15)


class BERTPretrainDataset(Dataset):
    def __init__(self, examples):
        self.all_token_ids, self.all_segments, self.valid_lens = [], [], []
        self.all_pred_positions, self.all_mlm_weights, self.all_mlm_labels = [], [], []
        self.nsp_labels = []
        for token_ids, pred_positions, mlm_pred_label_ids, segments, is_next in examples:
            self.all_token_ids.append(torch.tensor(
                token_ids + [token_to_idx["<pad>"]] * (max_len - len(token_ids)), dtype=torch.long))
            self.all_segments.append(torch.tensor(segments + [0] * (max_len - len(segments)),
                                                  dtype=torch.long))
            self.valid_lens.append(torch.tensor(len(token_ids), dtype=torch.float32))
            pad = max_num_mlm_preds - len(pred_positions)
            self.all_pred_positions.append(torch.tensor(pred_positions + [0] * pad))
            self.all_mlm_weights.append(torch.tensor([1.0] * len(mlm_pred_label_ids) + [0.0] * pad))
            self.all_mlm_labels.append(torch.tensor(mlm_pred_label_ids + [0] * pad))
            self.nsp_labels.append(torch.tensor(is_next, dtype=torch.long))

    def __getitem__(self, idx):
        return (self.all_token_ids[idx], self.all_segments[idx], self.valid_lens[idx],
                self.all_pred_positions[idx], self.all_mlm_weights[idx],
                self.all_mlm_labels[idx], self.nsp_labels[idx])

    def __len__(self):
        return len(self.all_token_ids)


ds = BERTPretrainDataset(examples)
print("dataset size", len(ds))
loader = DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(1))
tokens_X, segments_X, valid_lens_x, pred_positions_X, mlm_weights_X, mlm_Y, nsp_y = \
    next(iter(loader))
print(tokens_X.shape, segments_X.shape, valid_lens_x, pred_positions_X.shape, mlm_weights_X,
      mlm_Y.shape, nsp_y)
print(segments_X[0])


class TinyBERT(nn.Module):
    def __init__(self, vocab_size, num_hiddens):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, num_hiddens)
        self.segment_embedding = nn.Embedding(2, num_hiddens)
        self.pos_embedding = nn.Parameter(torch.randn(1, max_len, num_hiddens) * 0.02)
        layer = nn.TransformerEncoderLayer(num_hiddens, 2, 32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.mlm = nn.Sequential(nn.Linear(num_hiddens, num_hiddens), nn.ReLU(),
                                 nn.LayerNorm(num_hiddens), nn.Linear(num_hiddens, vocab_size))
        self.nsp = nn.Linear(num_hiddens, 2)

    def forward(self, tokens, segments, valid_lens, pred_positions):
        X = self.token_embedding(tokens) + self.segment_embedding(segments) + self.pos_embedding
        pad_mask = torch.arange(max_len)[None, :] >= valid_lens[:, None]
        X = self.encoder(X, src_key_padding_mask=pad_mask)
        batch_idx = torch.arange(X.shape[0]).repeat_interleave(pred_positions.shape[1])
        masked_X = X[batch_idx, pred_positions.reshape(-1)].reshape(X.shape[0], -1, X.shape[-1])
        return self.mlm(masked_X), self.nsp(X[:, 0, :])


net = TinyBERT(len(idx_to_token), 16)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss(reduction="none")
for epoch in range(10):
    for batch in loader:
        tokens_X, segments_X, valid_lens_x, pred_positions_X, mlm_weights_X, mlm_Y, nsp_y = batch
        mlm_Y_hat, nsp_Y_hat = net(tokens_X, segments_X, valid_lens_x, pred_positions_X)
        mlm_l = loss_fn(mlm_Y_hat.reshape(-1, len(idx_to_token)), mlm_Y.reshape(-1)) * \
            mlm_weights_X.reshape(-1)
        mlm_l = mlm_l.sum() / (mlm_weights_X.sum() + 1e-8)
        nsp_l = loss_fn(nsp_Y_hat, nsp_y).mean()
        loss = mlm_l + nsp_l
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 0:
        print(f"epoch {epoch} mlm loss {mlm_l.item():.4f} nsp loss {nsp_l.item():.4f}")
