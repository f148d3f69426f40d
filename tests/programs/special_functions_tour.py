# Models: a walk through torch.special as in the "torch.special" documentation examples and
# numerics notebooks: logit/expit round trips, erf/erfc/erfinv, xlogy/xlog1py/entr, log_ndtr
# and ndtri, gammaln/digamma/multigammaln, i0/i0e/i1/i1e, sinc, logsumexp and log_softmax,
# plus gradients of a few of them through autograd.
import torch
import torch.special as sp

torch.set_printoptions(precision=5)
torch.manual_seed(0)

p = torch.tensor([0.01, 0.2, 0.5, 0.8, 0.99])
z = sp.logit(p)
print("logit", z)
print("expit(logit(p))", sp.expit(z))
print("logit eps", sp.logit(torch.tensor([0.0, 1.0, 0.5]), eps=1e-6))

x = torch.linspace(-2, 2, 5)
print("erf", sp.erf(x))
print("erfc", sp.erfc(x))
print("erfcx", sp.erfcx(x))
print("erfinv(erf(x))", sp.erfinv(sp.erf(x * 0.5)))
print("ndtr", sp.ndtr(x))
print("ndtri", sp.ndtri(torch.tensor([0.025, 0.5, 0.975])))
print("log_ndtr", sp.log_ndtr(torch.tensor([-10.0, -1.0, 0.0, 3.0])))

a = torch.tensor([0.0, 0.0, 1.0, 2.0])
b = torch.tensor([0.0, 3.0, 0.5, 4.0])
print("xlogy", sp.xlogy(a, b))
print("xlog1py", sp.xlog1py(a, b))
print("entr", sp.entr(torch.tensor([-1.0, 0.0, 0.25, 0.5, 1.0])))
probs = torch.softmax(torch.randn(3, 4), dim=1)
print("entropy per row", sp.entr(probs).sum(1))

g = torch.tensor([0.5, 1.0, 2.5, 10.0])
print("gammaln", sp.gammaln(g))
print("digamma", sp.digamma(g))
print("polygamma(1)", sp.polygamma(1, g))
print("multigammaln", sp.multigammaln(torch.tensor([2.5, 3.0]), 2))
print("gammainc", sp.gammainc(g, torch.tensor([1.0, 1.0, 2.0, 5.0])))
print("gammaincc", sp.gammaincc(g, torch.tensor([1.0, 1.0, 2.0, 5.0])))

v = torch.tensor([0.0, 0.5, 1.0, 5.0])
print("i0", sp.i0(v))
print("i0e", sp.i0e(v))
print("i1", sp.i1(v))
print("i1e", sp.i1e(v))
print("sinc", sp.sinc(torch.tensor([0.0, 0.5, 1.0, 1.5])))
print("expm1", sp.expm1(torch.tensor([1e-8, 1.0])))
print("log1p", sp.log1p(torch.tensor([1e-8, 1.0])))
print("exp2", sp.exp2(torch.tensor([0.0, 3.0, -1.0])))
print("round", sp.round(torch.tensor([0.5, 1.5, 2.5, -0.5])))

m = torch.randn(2, 5)
print("logsumexp", sp.logsumexp(m, dim=1))
print("log_softmax", sp.log_softmax(m, dim=1))
print("softmax sums", sp.softmax(m, dim=1).sum(1))
print("log_softmax float64", sp.log_softmax(m, dim=0, dtype=torch.float64).dtype)

t = torch.tensor([0.3, 0.7, 1.5], requires_grad=True)
y = (sp.erf(t) + sp.gammaln(t + 1) + sp.xlogy(t, t + 1) + sp.i0(t) + sp.expit(t)).sum()
y.backward()
print("value", round(y.item(), 5))
print("grad", t.grad)
t2 = torch.tensor([0.25, 0.5], dtype=torch.float64, requires_grad=True)
print("gradcheck logit", torch.autograd.gradcheck(sp.logit, (t2,)))
print("gradcheck erfinv", torch.autograd.gradcheck(sp.erfinv, (t2,)))
print("gradcheck entr", torch.autograd.gradcheck(sp.entr, (t2,)))
print("int input erf dtype", sp.erf(torch.tensor([0, 1])).dtype)
try:
    sp.polygamma(-1, g)
except RuntimeError as e:
    print("RuntimeError:", e)
