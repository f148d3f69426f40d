# Models: a normalizing-flows reference notebook on structural transforms: StickBreaking and
# Softmax onto the simplex, CorrCholeskyTransform, ReshapeTransform, IndependentTransform,
# CatTransform and StackTransform over slices, CumulativeDistributionTransform, their inverses
# and log-det-Jacobians.
import torch
from torch.distributions import Normal
from torch.distributions import transforms as T

torch.manual_seed(4)
x = torch.randn(2, 3)
sb = T.StickBreakingTransform()
y = sb(x)
print("stick breaking", y, y.sum(-1))
print("inverse", sb.inv(y))
print("ladj", sb.log_abs_det_jacobian(x, y))
sm = T.SoftmaxTransform()
print("softmax", sm(x), sm.inv(sm(x)))
cc = T.CorrCholeskyTransform()
v = torch.randn(3)
L = cc(v)
print("corr cholesky\n", L, "\ncorr\n", L @ L.T)
print("ladj", cc.log_abs_det_jacobian(v, L))
rs = T.ReshapeTransform((6,), (2, 3))
print("reshape", rs(torch.arange(6.0)), rs.inv(rs(torch.arange(6.0))).shape)
ind = T.IndependentTransform(T.ExpTransform(), 1)
print("independent ladj", ind.log_abs_det_jacobian(x, ind(x)))
cat = T.CatTransform([T.ExpTransform(), T.AffineTransform(0.0, 2.0)], dim=1, lengths=[1, 2])
print("cat", cat(x), cat.log_abs_det_jacobian(x, cat(x)))
st = T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0)
print("stack", st(x), st.inv(st(x)))
cdf = T.CumulativeDistributionTransform(Normal(0.0, 1.0))
u = cdf(torch.tensor([-1.0, 0.0, 2.0]))
print("cdf transform", u, cdf.inv(u), cdf.log_abs_det_jacobian(torch.tensor([0.0]), u[1:2]))
print(sb.domain, sb.codomain, cc.codomain, rs.domain.event_dim, rs.codomain.event_dim)
print("bijective", sb.bijective, T.AbsTransform().bijective, T.AbsTransform()(torch.tensor([-2.0])))
