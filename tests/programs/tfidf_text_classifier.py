# Models: the classic "bag of words / TF-IDF + logistic regression" baseline of NLP courses
# written in tensors: a vocabulary from torch.unique(return_inverse, return_counts), document
# term counts with index_put_(accumulate=True), smoothed IDF as scikit-learn computes it,
# L2-normalised rows, multinomial logistic regression fitted with LBFGS (strong Wolfe), and
# the most indicative words per class from the weight matrix.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
docs = [
    ("the match ended with a late goal and the crowd cheered", 0),
    ("the striker scored twice in the second half", 0),
    ("a penalty decided the final of the cup", 0),
    ("the keeper saved the penalty in extra time", 0),
    ("the central bank raised interest rates again", 1),
    ("markets fell as inflation data surprised investors", 1),
    ("the bank cut its growth forecast for the year", 1),
    ("investors moved money into bonds as rates rose", 1),
    ("the new phone has a faster chip and a better camera", 2),
    ("the update fixes a bug in the camera app", 2),
    ("the chip maker announced a new processor", 2),
    ("a software update improves battery life on the phone", 2),
]
tokens = [d.split() for d, _ in docs]
labels = torch.tensor([c for _, c in docs])
words = sorted({w for doc in tokens for w in doc})
index = {w: i for i, w in enumerate(words)}
flat = torch.tensor([index[w] for doc in tokens for w in doc])
doc_id = torch.tensor([i for i, doc in enumerate(tokens) for _ in doc])
uniq, inverse, counts = torch.unique(flat, return_inverse=True, return_counts=True)
print("vocabulary", len(words), "tokens", flat.numel(), "most frequent",
      [words[i] for i in uniq[counts.argsort(descending=True)[:3]].tolist()])
print("inverse matches", torch.equal(uniq[inverse], flat))

tf = torch.zeros(len(docs), len(words))
tf.index_put_((doc_id, flat), torch.ones(flat.numel()), accumulate=True)
df = (tf > 0).sum(0).float()
idf = torch.log((1 + len(docs)) / (1 + df)) + 1
tfidf = F.normalize(tf * idf, p=2, dim=1)
print("tf row 0 nonzeros", tf[0].nonzero().squeeze(1).tolist())
print("idf of 'the' and 'penalty'", idf[index["the"]].item(), idf[index["penalty"]].item())
print("row norms", tfidf.norm(dim=1)[:4])
sim = tfidf @ tfidf.T
print("cosine similarity block\n", sim[:6, :6])

W = torch.zeros(len(words), 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([W, b], lr=1, max_iter=100, history_size=10,
                        line_search_fn="strong_wolfe", tolerance_grad=1e-9)
evals = []


def closure():
    opt.zero_grad()
    loss = F.cross_entropy(tfidf @ W + b, labels) + 1e-2 * W.pow(2).sum()
    loss.backward()
    evals.append(loss.item())
    return loss


opt.step(closure)
state = opt.state[W]
print(f"LBFGS evaluations {len(evals)} iterations {state['n_iter']} first {evals[0]:.6f} "
      f"last {evals[-1]:.6f}")
probs = F.softmax(tfidf @ W + b, dim=1).detach()
print("train accuracy", (probs.argmax(1) == labels).float().mean().item())
for c, name in enumerate(["sport", "finance", "tech"]):
    top = W[:, c].detach().topk(3).indices.tolist()
    print(name, [words[i] for i in top])

test = ["the bank raised rates", "the phone camera update", "a late goal in the cup"]
vec = torch.zeros(len(test), len(words))
for i, s in enumerate(test):
    for w in s.split():
        if w in index:
            vec[i, index[w]] += 1
vec = F.normalize(vec * idf, dim=1)
print("test predictions", (vec @ W + b).argmax(1).tolist(), F.softmax(vec @ W + b, 1).detach())
