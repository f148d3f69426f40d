# Models: the CS231n assignment-3 "RNN captioning" layers written with tensor ops: rnn_step and
# rnn forward/backward over time by hand (tanh recurrences, backprop through time), word
# embedding forward/backward with index_put accumulation, temporal affine, and the masked
# temporal softmax loss, each checked against autograd; then a tiny captioning model overfit
# on a few fake feature/caption pairs with greedy sampling.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


def rel_error(x, y):
    return ((x - y).abs() / (x.abs() + y.abs()).clamp(min=1e-8)).max().item()


def rnn_step_forward(x, prev_h, Wx, Wh, b):
    next_h = torch.tanh(x @ Wx + prev_h @ Wh + b)
    return next_h, (x, prev_h, Wx, Wh, next_h)


def rnn_step_backward(dnext_h, cache):
    x, prev_h, Wx, Wh, next_h = cache
    dtanh = dnext_h * (1 - next_h ** 2)
    return dtanh @ Wx.T, dtanh @ Wh.T, x.T @ dtanh, prev_h.T @ dtanh, dtanh.sum(0)


def rnn_forward(x, h0, Wx, Wh, b):
    N, T, D = x.shape
    h, caches, prev = torch.zeros(N, T, h0.shape[1]), [], h0
    for t in range(T):
        prev, c = rnn_step_forward(x[:, t], prev, Wx, Wh, b)
        h[:, t] = prev
        caches.append(c)
    return h, caches


def rnn_backward(dh, caches):
    N, T, H = dh.shape
    D = caches[0][0].shape[1]
    dx, dprev = torch.zeros(N, T, D), torch.zeros(N, H)
    dWx, dWh, db = torch.zeros(D, H), torch.zeros(H, H), torch.zeros(H)
    for t in reversed(range(T)):
        dx_t, dprev, dWx_t, dWh_t, db_t = rnn_step_backward(dh[:, t] + dprev, caches[t])
        dx[:, t] = dx_t
        dWx += dWx_t
        dWh += dWh_t
        db += db_t
    return dx, dprev, dWx, dWh, db


N, T, D, H = 2, 4, 5, 6
x, h0 = torch.randn(N, T, D), torch.randn(N, H)
Wx, Wh, b = torch.randn(D, H) * 0.3, torch.randn(H, H) * 0.3, torch.randn(H)
h, caches = rnn_forward(x, h0, Wx, Wh, b)
dout = torch.randn(*h.shape)
grads = rnn_backward(dout, caches)
leaves = [t.clone().requires_grad_() for t in (x, h0, Wx, Wh, b)]
rnn_forward(*leaves)[0].backward(dout)
for name, g, leaf in zip(["dx", "dh0", "dWx", "dWh", "db"], grads, leaves):
    print(f"{name} error < 1e-10: {rel_error(g, leaf.grad) < 1e-10}")
print("h[0]", h[0])

V, W = 7, 3
word_to_vec = torch.randn(V, W)
captions = torch.tensor([[0, 3, 1, 2], [2, 2, 6, 0]])
out = word_to_vec[captions]
dout = torch.randn(*out.shape)
dW = torch.zeros_like(word_to_vec)
dW.index_put_((captions.reshape(-1),), dout.reshape(-1, W), accumulate=True)
wv = word_to_vec.clone().requires_grad_()
torch.nn.functional.embedding(captions, wv).backward(dout)
print("word embedding backward error < 1e-12:", rel_error(dW, wv.grad) < 1e-12)


def temporal_softmax_loss(x, y, mask):
    N, T, V = x.shape
    xf, yf, mf = x.reshape(N * T, V), y.reshape(N * T), mask.reshape(N * T)
    probs = torch.exp(xf - xf.max(1, keepdim=True).values)
    probs /= probs.sum(1, keepdim=True)
    loss = -(mf * torch.log(probs[torch.arange(N * T), yf])).sum() / N
    dx = probs.clone()
    dx[torch.arange(N * T), yf] -= 1
    dx = dx / N * mf[:, None]
    return loss, dx.reshape(N, T, V)


for N_, T_, V_, p in [(100, 1, 10, 1.0), (100, 10, 10, 1.0), (5000, 10, 10, 0.1)]:
    xs = 0.001 * torch.randn(N_, T_, V_)
    ys = torch.randint(V_, (N_, T_))
    mask = (torch.rand(N_, T_) <= p).double()
    print(f"loss for N={N_} T={T_} p={p}: {temporal_softmax_loss(xs, ys, mask)[0].item():.4f}")
xs = torch.randn(3, 5, 4)
ys = torch.randint(4, (3, 5))
mask = torch.rand(3, 5) > 0.4
loss, dx = temporal_softmax_loss(xs, ys, mask.double())
xa = xs.clone().requires_grad_()
ref = (torch.nn.functional.cross_entropy(xa.reshape(-1, 4), ys.reshape(-1), reduction="none")
       * mask.reshape(-1)).sum() / 3
ref.backward()
print(f"masked loss {loss.item():.8f} vs cross_entropy {ref.item():.8f}, dx error < 1e-10:",
      rel_error(dx, xa.grad) < 1e-10)

# tiny captioning model: image feature -> h0, then an RNN over words
torch.manual_seed(1)
vocab = ["<NULL>", "<START>", "<END>", "a", "cat", "dog", "on", "mat", "runs"]
caps = torch.tensor([[1, 3, 4, 6, 3, 7, 2], [1, 3, 5, 8, 2, 0, 0], [1, 3, 4, 8, 2, 0, 0]])
feats = torch.randn(3, 10)
F_, Wd, Hd = 10, 8, 16
params = {"W_proj": torch.randn(F_, Hd) / F_ ** 0.5, "b_proj": torch.zeros(Hd),
          "W_embed": torch.randn(len(vocab), Wd) / 10, "Wx": torch.randn(Wd, Hd) / Wd ** 0.5,
          "Wh": torch.randn(Hd, Hd) / Hd ** 0.5, "b": torch.zeros(Hd),
          "W_vocab": torch.randn(Hd, len(vocab)) / Hd ** 0.5, "b_vocab": torch.zeros(len(vocab))}
for p_ in params.values():
    p_.requires_grad_()
opt = torch.optim.Adam(params.values(), lr=5e-2)
for it in range(60):
    cin, cout = caps[:, :-1], caps[:, 1:]
    h0 = feats @ params["W_proj"] + params["b_proj"]
    hs, _ = rnn_forward(params["W_embed"][cin], h0, params["Wx"], params["Wh"], params["b"])
    scores = hs @ params["W_vocab"] + params["b_vocab"]
    loss = (torch.nn.functional.cross_entropy(scores.reshape(-1, len(vocab)), cout.reshape(-1),
                                              reduction="none") * (cout != 0).reshape(-1)).sum() / 3
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 20 == 0 or it == 59:
        print(f"iteration {it} loss {loss.item():.4f}")
with torch.no_grad():
    h = feats @ params["W_proj"] + params["b_proj"]
    word = torch.full((3,), 1)
    out = []
    for t in range(6):
        h, _ = rnn_step_forward(params["W_embed"][word], h, params["Wx"], params["Wh"], params["b"])
        word = (h @ params["W_vocab"] + params["b_vocab"]).argmax(1)
        out.append(word)
    for row in torch.stack(out, 1).tolist():
        print(" ".join(vocab[w] for w in row).split(" <END>")[0])
