# Models: the "my loss became nan" toolkit: creating nan/inf, isnan/isinf/isfinite masks,
# nan_to_num with defaults and explicit replacements, nansum/nanmean/nanmedian/nanquantile vs
# their plain versions, how max/min/argmax/sort/unique/topk treat nan, maximum vs fmax,
# clamp with nan, equal/allclose/isclose with equal_nan, log/div producing inf, softmax of -inf
# rows, and torch.autograd.set_detect_anomaly catching a nan gradient.
import torch

x = torch.tensor([1.0, float("nan"), -float("inf"), 3.0, float("inf"), -2.0, float("nan")])
print(x)
print("isnan", x.isnan(), "\nisinf", x.isinf(), "\nisfinite", x.isfinite())
print("isposinf", torch.isposinf(x), "isneginf", torch.isneginf(x))
print("nan_to_num", torch.nan_to_num(x))
print("nan_to_num explicit", torch.nan_to_num(x, nan=0.0, posinf=1e3, neginf=-1e3))
print("nan_to_num half", torch.nan_to_num(x.half()))
f = x[x.isfinite()]
print("finite only", f)
print("sum / nansum", x.sum(), x.nansum())
print("mean / nanmean", x.mean(), x.nanmean(), f.mean())
y = torch.tensor([[1.0, float("nan"), 3.0], [4.0, 5.0, float("nan")]])
print("nanmean dim 1", y.nanmean(1), "nansum dim 0", y.nansum(0))
print("median / nanmedian", y.median(), y.nanmedian(), y.nanmedian(dim=1))
print("nanquantile", torch.nanquantile(y, 0.5, dim=1), torch.quantile(y, 0.5, dim=1))
print("max / argmax with nan", y.max(), y.argmax(), y.max(dim=1))
print("min with nan", y.min(dim=0))
print("amax", y.amax(1), "nan-ignoring via nan_to_num", torch.nan_to_num(y,
      nan=-float("inf")).amax(1))
print("sort with nan", x.sort())
print("sort descending", x.sort(descending=True).values)
print("argsort", x.argsort())
print("topk with nan", x.topk(3))
print("unique with nan", torch.unique(x))
a = torch.tensor([1.0, float("nan"), 2.0])
b = torch.tensor([float("nan"), float("nan"), 1.0])
print("maximum", torch.maximum(a, b), "fmax", torch.fmax(a, b), "fmin", torch.fmin(a, b))
print("clamp nan", a.clamp(0, 1.5), "clamp with nan bound", a.clamp(min=torch.tensor(float("nan"))))
print("eq nan", a == a, "ne", a != a)
print("equal", torch.equal(a, a), "allclose", torch.allclose(a, a), torch.allclose(a, a,
      equal_nan=True))
print("isclose", torch.isclose(a, b, equal_nan=True))
print("log of 0, -1", torch.log(torch.tensor([0.0, -1.0, 1.0])))
print("div by zero", torch.tensor([1.0, -1.0, 0.0]) / 0, torch.tensor([1, 0]) / torch.tensor([0,
      0]))
print("int div by zero floor:", end=" ")
try:
    print(torch.tensor([1, 2]) // torch.tensor([0, 1]))
except RuntimeError as e:
    print("RuntimeError:", e)
print("inf - inf", torch.tensor(float("inf")) - torch.tensor(float("inf")), "0 * inf",
      0 * torch.tensor(float("inf")))
row = torch.tensor([[-float("inf"), -float("inf")], [0.0, -float("inf")]])
print("softmax of -inf rows", torch.softmax(row, dim=1))
print("log_softmax", torch.log_softmax(row, dim=1))
print("logsumexp", torch.logsumexp(row, dim=1))
print("exp overflow float32", torch.exp(torch.tensor([88.0, 89.0, 1000.0])))
print("float16 overflow", torch.tensor([60000.0, 70000.0]).half(), torch.tensor(1e-8).half())
print("sqrt(-1)", torch.sqrt(torch.tensor(-1.0)), "pow", torch.tensor(-8.0) ** (1 / 3))
print("nan comparisons", (a > 0), (a < 0), a.sign(), a.round())
print("count nans", x.isnan().sum().item(), "any", x.isnan().any().item())

w = torch.tensor([1.0, 0.0], requires_grad=True)
out = (w.sqrt() * 0).sum()
out.backward()
print("sqrt grad at 0 times 0:", w.grad)
with torch.autograd.set_detect_anomaly(True):
    w2 = torch.tensor([0.0], requires_grad=True)
    try:
        (w2.sqrt() * 0).sum().backward()
        print("no error, grad", w2.grad)
    except RuntimeError as e:
        print("RuntimeError:", str(e).splitlines()[0])
