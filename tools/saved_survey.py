"""Survey of what each node saves for backward, Ember against torch.

For each case (a differentiable op or module of common use) the forward runs under
``saved_tensors_hooks`` in both libraries; compared are the packed tensors (count, shapes and
dtypes in order), the ``_saved_*`` / ``_raw_saved_*`` attribute names, the values of the names
torch's node has, and ``dir(grad_fn)`` without dunders. Prints one line per difference and
the total::

    PYTHONPATH=src python tools/saved_survey.py [-v] [case-substring ...]
"""

from __future__ import annotations

import sys

import numpy as np
import torch

import ember

# name, code: ``out`` from the library ``T`` (``F`` its functional) and the inputs
# x (4,5), y (4,5), v (5,), m (5,3), i4 (4,5) in (1,2), img (2,3,6,6), seq (3,2,4), p (4,5) > 0,
# w (4,3,3,3), wt (3,2,2,2), k (2,2,2)
CASES = [
    ("add", "x + y"), ("sub", "x - y"), ("mul", "x * y"), ("div", "x / y"),
    ("mul_scalar", "x * 2"), ("add_scalar", "x + 2"), ("div_scalar", "x / 2"),
    ("rsub", "1 - x"), ("rdiv", "1 / p"), ("neg", "-x"), ("pow_scalar", "x ** 2"),
    ("pow_tensor", "p ** y"), ("rpow", "2 ** x"), ("exp", "x.exp()"), ("log", "p.log()"),
    ("log2", "p.log2()"), ("log10", "p.log10()"), ("log1p", "p.log1p()"),
    ("expm1", "x.expm1()"), ("sqrt", "p.sqrt()"), ("rsqrt", "p.rsqrt()"),
    ("sin", "x.sin()"), ("cos", "x.cos()"), ("tan", "x.tan()"), ("tanh", "x.tanh()"),
    ("sigmoid", "x.sigmoid()"), ("asin", "(x / 4).asin()"), ("acos", "(x / 4).acos()"),
    ("atan", "x.atan()"), ("sinh", "x.sinh()"), ("cosh", "x.cosh()"), ("abs", "x.abs()"),
    ("sign", "x.sign()"), ("reciprocal", "p.reciprocal()"), ("square", "x.square()"),
    ("erf", "x.erf()"), ("atan2", "T.atan2(x, y)"), ("clamp", "x.clamp(-0.5, 0.5)"),
    ("clamp_min", "x.clamp(min=0)"), ("clamp_tensor", "x.clamp(min=y)"),
    ("maximum", "T.maximum(x, y)"), ("minimum", "T.minimum(x, y)"),
    ("where", "T.where(x > 0, x, y)"), ("lerp", "T.lerp(x, y, 0.3)"),
    ("addcmul", "T.addcmul(x, y, p, value=0.5)"), ("addcdiv", "T.addcdiv(x, y, p)"),
    ("floor", "x.floor()"), ("round", "x.round()"), ("frac", "x.frac()"),
    ("fmod", "T.fmod(x, 0.7)"), ("remainder", "T.remainder(x, 0.7)"),
    ("sum", "x.sum()"), ("sum_dim", "x.sum(1)"), ("mean", "x.mean()"),
    ("mean_dim", "x.mean(0, keepdim=True)"), ("prod", "p.prod()"), ("prod_dim", "p.prod(1)"),
    ("var", "x.var()"), ("var_dim", "x.var(1)"), ("std", "x.std()"), ("std_dim", "x.std(0)"),
    ("norm", "x.norm()"), ("norm_dim", "x.norm(dim=1)"), ("norm_p1", "x.norm(p=1)"),
    ("logsumexp", "x.logsumexp(1)"), ("amax", "x.amax(1)"), ("amin", "x.amin(1)"),
    ("max_all", "x.max()"), ("min_all", "x.min()"), ("max_dim", "x.max(1)[0]"),
    ("min_dim", "x.min(1)[0]"), ("max_keepdim", "x.max(1, keepdim=True)[0]"),
    ("sort", "x.sort(1)[0]"), ("sort_desc", "x.sort(0, descending=True)[0]"),
    ("sort_stable", "x.sort(dim=1, stable=True)[0]"), ("topk", "x.topk(2)[0]"),
    ("kthvalue", "x.kthvalue(2, 1)[0]"), ("median_dim", "x.median(1)[0]"),
    ("median_all", "x.median()"), ("mode", "i4.mode(1)[0]"), ("cummax", "x.cummax(1)[0]"),
    ("cummin", "x.cummin(1)[0]"), ("cumsum", "x.cumsum(1)"), ("cumprod", "p.cumprod(1)"),
    ("matmul", "x @ m"), ("mm", "x.mm(m)"), ("mv", "x.mv(v)"), ("dot", "v.dot(v)"),
    ("bmm", "T.bmm(seq, seq.transpose(1, 2))"), ("addmm", "T.addmm(v[:3], x, m)"),
    ("einsum", "T.einsum('ij,jk->ik', x, m)"), ("outer", "T.outer(v, v)"),
    ("t", "x.t()"), ("transpose", "x.transpose(0, 1)"), ("permute", "seq.permute(2, 0, 1)"),
    ("view", "x.view(20)"), ("reshape", "x.reshape(5, 4)"), ("flatten", "img.flatten(1)"),
    ("unsqueeze", "x.unsqueeze(0)"), ("squeeze", "x.unsqueeze(0).squeeze(0)"),
    ("expand", "v.expand(4, 5)"), ("repeat", "x.repeat(2, 1)"),
    ("repeat_interleave", "x.repeat_interleave(2, dim=0)"), ("index_int", "x[1]"),
    ("slice", "x[1:3, ::2]"), ("index_tensor", "x[T.tensor([0, 2, 2])]"),
    ("index_mask", "x[x > 0]"), ("gather", "x.gather(1, T.tensor([[0, 1]] * 4))"),
    ("index_select", "x.index_select(0, T.tensor([0, 3]))"),
    ("masked_fill", "x.masked_fill(x > 0, 0.0)"), ("cat", "T.cat([x, y], 0)"),
    ("stack", "T.stack([x, y])"), ("split", "x.split(2)[1]"), ("chunk", "x.chunk(2, 1)[0]"),
    ("narrow", "x.narrow(1, 1, 2)"), ("select", "x.select(1, 2)"), ("tril", "x.tril()"),
    ("triu", "x.triu(1)"), ("flip", "x.flip(0)"), ("roll", "x.roll(1, 1)"),
    ("clone", "x.clone()"), ("contiguous", "x.t().contiguous()"), ("to_double", "x.double()"),
    ("diag", "v.diag()"), ("trace", "x[:4, :4].trace()"),
    ("scatter", "x.scatter(1, T.tensor([[0], [1], [2], [3]]), y)"),
    ("scatter_add", "x.scatter_add(1, T.tensor([[0], [1], [2], [3]]), y)"),
    ("relu", "F.relu(x)"), ("relu6", "F.relu6(x)"), ("leaky_relu", "F.leaky_relu(x, 0.1)"),
    ("elu", "F.elu(x)"), ("selu", "F.selu(x)"), ("celu", "F.celu(x)"), ("gelu", "F.gelu(x)"),
    ("gelu_tanh", "F.gelu(x, approximate='tanh')"), ("silu", "F.silu(x)"),
    ("mish", "F.mish(x)"), ("softplus", "F.softplus(x)"), ("hardtanh", "F.hardtanh(x)"),
    ("hardswish", "F.hardswish(x)"), ("hardsigmoid", "F.hardsigmoid(x)"),
    ("logsigmoid", "F.logsigmoid(x)"), ("softsign", "F.softsign(x)"),
    ("prelu", "F.prelu(x, v[:1])"), ("glu", "F.glu(x[:, :4])"),
    ("softmax", "F.softmax(x, 1)"), ("log_softmax", "F.log_softmax(x, 1)"),
    ("softmin", "F.softmin(x, 1)"), ("normalize", "F.normalize(x)"),
    ("dropout_eval", "F.dropout(x, 0.5, training=False)"),
    ("linear", "F.linear(x, m.t(), v[:3])"), ("linear_nobias", "F.linear(x, m.t())"),
    ("mse_loss", "F.mse_loss(x, y)"), ("l1_loss", "F.l1_loss(x, y)"),
    ("smooth_l1_loss", "F.smooth_l1_loss(x, y)"), ("huber_loss", "F.huber_loss(x, y)"),
    ("cross_entropy", "F.cross_entropy(x, T.tensor([0, 1, 4, 2]))"),
    ("nll_loss", "F.nll_loss(F.log_softmax(x, 1), T.tensor([0, 1, 4, 2]))"),
    ("bce", "F.binary_cross_entropy(x.sigmoid(), (y > 0).float())"),
    ("bce_logits", "F.binary_cross_entropy_with_logits(x, (y > 0).float())"),
    ("kl_div", "F.kl_div(F.log_softmax(x, 1), F.softmax(y, 1), reduction='batchmean')"),
    ("cosine_similarity", "F.cosine_similarity(x, y)"),
    ("pairwise_distance", "F.pairwise_distance(x, y)"), ("cdist", "T.cdist(x, y)"),
    ("embedding", "F.embedding(T.tensor([1, 0, 4]), m)"),
    ("one_hot_mm", "F.one_hot(T.tensor([1, 2]), 4).float() @ x"),
    ("conv1d", "F.conv1d(seq, k)"), ("conv2d", "F.conv2d(img, w)"),
    ("conv2d_pad", "F.conv2d(img, w, v[:4], padding=1)"),
    ("conv_transpose2d", "F.conv_transpose2d(img, wt, stride=2)"),
    ("max_pool2d", "F.max_pool2d(img, 2)"), ("max_pool1d", "F.max_pool1d(seq, 2)"),
    ("avg_pool2d", "F.avg_pool2d(img, 2)"), ("avg_pool1d", "F.avg_pool1d(seq, 2)"),
    ("adaptive_avg_pool2d", "F.adaptive_avg_pool2d(img, 1)"),
    ("adaptive_max_pool2d", "F.adaptive_max_pool2d(img, 2)"),
    ("interpolate_nearest", "F.interpolate(img, scale_factor=2)"),
    ("interpolate_bilinear", "F.interpolate(img, scale_factor=2, mode='bilinear')"),
    ("pad", "F.pad(img, (1, 1, 2, 0))"),
    ("pad_reflect", "F.pad(img, (1, 1, 1, 1), mode='reflect')"),
    ("pixel_shuffle", "F.pixel_shuffle(img[:, :, :4, :4].repeat(1, 4, 1, 1)[:, :4], 2)"),
    ("unfold", "F.unfold(img, 2)"),
    ("layer_norm", "F.layer_norm(x, (5,), v, v)"), ("layer_norm_noaffine", "F.layer_norm(x, (5,))"),
    ("group_norm", "F.group_norm(img, 3, img[0, :, 0, 0], img[1, :, 0, 0])"),
    ("batch_norm_train", "F.batch_norm(img, T.zeros(3), T.ones(3), img[0, :, 0, 0], "
                         "img[1, :, 0, 0], training=True)"),
    ("batch_norm_eval", "F.batch_norm(img, T.zeros(3), T.ones(3), img[0, :, 0, 0], "
                        "img[1, :, 0, 0], training=False)"),
    ("instance_norm", "F.instance_norm(img)"),
    ("sdpa", "F.scaled_dot_product_attention(seq, seq, seq)"),
]
# modules: name, constructor, input; weights copied from torch's module
MODULES = [
    ("Linear", "nn.Linear(5, 3)", "x"), ("Conv2d", "nn.Conv2d(3, 4, 3)", "img"),
    ("LayerNorm", "nn.LayerNorm(5)", "x"), ("BatchNorm1d", "nn.BatchNorm1d(5)", "x"),
    ("BatchNorm2d", "nn.BatchNorm2d(3)", "img"), ("GroupNorm", "nn.GroupNorm(3, 3)", "img"),
    ("Embedding", "nn.Embedding(6, 3)", "idx"), ("MaxPool2d", "nn.MaxPool2d(2)", "img"),
    ("LSTM", "nn.LSTM(4, 3)", "seq"), ("GRU", "nn.GRU(4, 3)", "seq"),
    ("RNN", "nn.RNN(4, 3)", "seq"),
    ("LSTMCell", "nn.LSTMCell(5, 3)", "x"), ("GRUCell", "nn.GRUCell(5, 3)", "x"),
    ("MultiheadAttention", "nn.MultiheadAttention(4, 2)", "seq"), ("PReLU", "nn.PReLU()", "x"),
]


def _inputs(T):
    rng = np.random.default_rng(0)
    arrs = {"x": rng.standard_normal((4, 5)), "y": rng.standard_normal((4, 5)),
            "v": rng.standard_normal(5), "m": rng.standard_normal((5, 3)),
            "i4": rng.integers(1, 3, (4, 5)).astype(float),
            "img": rng.standard_normal((2, 3, 6, 6)), "seq": rng.standard_normal((3, 2, 4)),
            "p": rng.uniform(0.5, 2.0, (4, 5)), "w": rng.standard_normal((4, 3, 3, 3)),
            "wt": rng.standard_normal((3, 2, 2, 2)), "k": rng.standard_normal((2, 2, 2))}
    env = {k: T.tensor(a.astype(np.float32), requires_grad=True) for k, a in arrs.items()}
    env["idx"] = T.tensor([1, 0, 5])
    return env


def _summary(value):
    """A comparable summary of a saved attribute's value."""
    if hasattr(value, "shape") and hasattr(value, "dtype") and hasattr(value, "detach"):
        a = value.detach().numpy() if not value.is_sparse else None
        return ("tensor", tuple(value.shape), str(value.dtype).split(".")[-1],
                None if a is None else np.round(a.astype(np.float64), 5).tolist())
    if isinstance(value, np.ndarray):
        return ("ndarray", value.shape, str(value.dtype))
    if isinstance(value, (tuple, list)):
        return tuple(_summary(v) for v in value)
    if type(value).__name__ == "dtype" or type(value).__name__ == "device":
        return str(value).split(".")[-1]
    if type(value).__name__.startswith("SavedTensor") or type(value).__name__ == "_FreedSaved":
        return "SavedTensor"
    if isinstance(value, float):
        return round(value, 6)
    return value


def _root(out):
    if isinstance(out, (tuple, list)):
        out = out[0]
    return out


def run_case(T, code, module=None):
    """``(packs, node, names)`` of one case in library ``T``."""
    env = _inputs(T)
    env.update(T=T, F=T.nn.functional, nn=T.nn)
    packs = []

    def pack(t):
        packs.append((tuple(t.shape), str(t.dtype).split(".")[-1]))
        return t
    if module is not None:
        mod = module
        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            a = env[code]
            out = _root(mod(a, a, a) if isinstance(mod, T.nn.MultiheadAttention) else mod(a))
    else:
        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            out = _root(eval(code, env))
    node = out.grad_fn
    return packs, node


def _module_pair(ctor):
    torch.manual_seed(0)
    tm = eval(ctor, {"nn": torch.nn})
    em = eval(ctor, {"nn": ember.nn})
    state = {k: ember.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()}
    em.load_state_dict(state)
    return tm, em


def compare(name, code, ctor=None):
    """The differences of one case: a list of ``(kind, torch's, ember's)``."""
    tm = em = None
    if ctor is not None:
        tm, em = _module_pair(ctor)
    tp, tn = run_case(torch, code, tm)
    try:
        ep, en = run_case(ember, code, em)
    except Exception as e:          # noqa: BLE001 - reported as a difference
        return [("error", "", f"{type(e).__name__}: {e}")]
    diffs = []
    if tn is None or en is None:
        if (tn is None) != (en is None):
            diffs.append(("grad_fn", tn is None, en is None))
        return diffs
    if tn.name() != en.name():
        diffs.append(("node", tn.name(), en.name()))
    if tp != ep:
        diffs.append(("packs", tp, ep))
    tdir = [n for n in dir(tn) if not n.startswith("__")]
    edir = [n for n in dir(en) if not n.startswith("__")]
    tsaved = [n for n in tdir if n.startswith(("_saved_", "_raw_saved_"))]
    esaved = [n for n in edir if n.startswith(("_saved_", "_raw_saved_"))]
    if tsaved != esaved:
        diffs.append(("names", sorted(set(tsaved) - set(esaved)),
                      sorted(set(esaved) - set(tsaved))))
    rest_t = [n for n in tdir if n not in tsaved]
    rest_e = [n for n in edir if n not in esaved]
    if rest_t != rest_e:
        diffs.append(("dir", sorted(set(rest_t) - set(rest_e)),
                      sorted(set(rest_e) - set(rest_t))))
    for n in tsaved:
        if not n.startswith("_saved_"):
            continue
        tv = _summary(getattr(tn, n))
        try:
            ev = _summary(getattr(en, n))
        except Exception as e:      # noqa: BLE001
            ev = f"{type(e).__name__}"
        if repr(tv) != repr(ev):
            diffs.append(("value " + n, _short(tv), _short(ev)))
    return diffs


def _short(v, n=120):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."


def main(argv) -> int:
    verbose = "-v" in argv
    wanted = [a for a in argv if not a.startswith("-")]
    cases = [(n, c, None) for n, c in CASES] + [(n, i, c) for n, c, i in MODULES]
    total = 0
    bad_cases = 0
    for name, code, ctor in cases:
        if wanted and not any(w in name for w in wanted):
            continue
        diffs = compare(name, code, ctor)
        total += len(diffs)
        bad_cases += bool(diffs)
        for kind, t, e in diffs:
            print(f"{name}: {kind}: torch {t if verbose else _short(t, 80)} | "
                  f"ember {e if verbose else _short(e, 80)}")
    print(f"{len(cases)} cases, {bad_cases} with differences, {total} differences")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
