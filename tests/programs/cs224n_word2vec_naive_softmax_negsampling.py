# Models: the CS224n assignment-2 word2vec exercise: naiveSoftmaxLossAndGradient and
# negSamplingLossAndGradient with hand-derived gradients for the centre vector and the outside
# vectors, checked against autograd, the skip-gram loop over a context window, and SGD training
# of tiny embeddings on a toy corpus, printing the nearest neighbours by cosine similarity.
import torch

torch.manual_seed(31415)
torch.set_default_dtype(torch.float64)


def sigmoid(x):
    return 1 / (1 + torch.exp(-x))


def naive_softmax_loss_and_gradient(center, outside_idx, outside_vectors):
    scores = outside_vectors @ center
    y_hat = torch.softmax(scores, dim=0)
    loss = -torch.log(y_hat[outside_idx])
    y = torch.zeros_like(y_hat)
    y[outside_idx] = 1
    grad_center = outside_vectors.T @ (y_hat - y)
    grad_outside = torch.outer(y_hat - y, center)
    return loss, grad_center, grad_outside


def neg_sampling_loss_and_gradient(center, outside_idx, outside_vectors, neg_idx):
    u_o = outside_vectors[outside_idx]
    u_k = outside_vectors[neg_idx]
    s_o = sigmoid(u_o @ center)
    s_k = sigmoid(-(u_k @ center))
    loss = -torch.log(s_o) - torch.log(s_k).sum()
    grad_center = (s_o - 1) * u_o + ((1 - s_k).unsqueeze(1) * u_k).sum(0)
    grad_outside = torch.zeros_like(outside_vectors)
    grad_outside[outside_idx] += (s_o - 1) * center
    grad_outside.index_add_(0, neg_idx, (1 - s_k).unsqueeze(1) * center)
    return loss, grad_center, grad_outside


V, d = 6, 4
center = torch.randn(d)
U = torch.randn(V, d)
for name, fn, extra in [("naive softmax", naive_softmax_loss_and_gradient, ()),
                        ("neg sampling", neg_sampling_loss_and_gradient,
                         (torch.tensor([1, 4, 4, 5]),))]:
    loss, gc, go = fn(center, 2, U, *extra)
    c, u = center.clone().requires_grad_(), U.clone().requires_grad_()
    fn(c, 2, u, *extra)[0].backward()
    print(f"{name}: loss {loss.item():.8f}")
    print(f"  grad center matches autograd: {torch.allclose(gc, c.grad)}")
    print(f"  grad outside matches autograd: {torch.allclose(go, u.grad)}")
    print("  grad center", gc)

corpus = ("the king rules the land the queen rules the land the king and queen wed "
          "a dog runs a cat runs the dog and the cat play").split()
vocab = sorted(set(corpus))
w2i = {w: i for i, w in enumerate(vocab)}
ids = torch.tensor([w2i[w] for w in corpus])
counts = torch.bincount(ids, minlength=len(vocab)).double()
noise = counts ** 0.75
noise /= noise.sum()
print("vocab size", len(vocab), "noise dist top:", [vocab[i] for i in noise.topk(3).indices])

dim, window, K, lr = 8, 2, 5, 0.05
C = (torch.rand(len(vocab), dim) - 0.5) / dim
O = torch.zeros(len(vocab), dim)
for epoch in range(30):
    total = 0.0
    for pos in range(len(corpus)):
        ci = ids[pos].item()
        for off in range(-window, window + 1):
            if off == 0 or not 0 <= pos + off < len(corpus):
                continue
            oi = ids[pos + off].item()
            negs = torch.multinomial(noise, K, replacement=True)
            loss, gc, go = neg_sampling_loss_and_gradient(C[ci], oi, O, negs)
            C[ci] -= lr * gc
            O -= lr * go
            total += loss.item()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1} mean loss {total / (len(corpus) * 2 * window):.4f}")

E = torch.nn.functional.normalize(C + O, dim=1)
sims = E @ E.T
for w in ("king", "dog", "rules"):
    top = sims[w2i[w]].topk(3).indices[1:]
    print(w, "->", [vocab[i] for i in top], [round(sims[w2i[w], i].item(), 3) for i in top])
