# Models: LLaMA's rotary position embedding as written in its reference code: precomputed
# frequencies with torch.polar, view_as_complex on pairs of features, reshape_for_broadcast,
# view_as_real back, the relative-position property of the rotated dot products, and the
# equivalent real-valued rotate_half formulation.
import torch


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


torch.manual_seed(0)
bsz, seqlen, heads, hd = 2, 6, 2, 8
freqs = precompute_freqs_cis(hd, 16)
print(freqs.shape, freqs.dtype)
print(freqs[1])
xq = torch.randn(bsz, seqlen, heads, hd)
xk = torch.randn(bsz, seqlen, heads, hd)
q, k = apply_rotary_emb(xq, xk, freqs[:seqlen])
print(q.shape, q.dtype)
print("norm preserved", torch.allclose(q.norm(dim=-1), xq.norm(dim=-1), atol=1e-5))
v = torch.randn(hd)
w = torch.randn(hd)
rep = lambda t, n: t.expand(1, n, 1, hd).clone()  # noqa: E731
qa, ka = apply_rotary_emb(rep(v, 16), rep(w, 16), freqs)
s1 = (qa[0, 3, 0] * ka[0, 1, 0]).sum()
s2 = (qa[0, 9, 0] * ka[0, 7, 0]).sum()
print("relative", s1.item(), s2.item(), torch.allclose(s1, s2, atol=1e-5))
xr = xq.clone().requires_grad_()
qq, _ = apply_rotary_emb(xr, xk, freqs[:seqlen])
qq.pow(2).sum().backward()
print("grad equals 2x", torch.allclose(xr.grad, 2 * xq, atol=1e-5))
print(qq.grad_fn.name())
