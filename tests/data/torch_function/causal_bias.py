"""torch.nn.attention.bias: a CausalBias takes over scaled_dot_product_attention through
__torch_function__ (the upper-left variant as is_causal, the lower-right one materialised)."""
import warnings

import torch
import torch.nn.functional as F
from torch.backends import cuda
from torch.nn.attention.bias import CausalVariant, causal_lower_right, causal_upper_left

torch.manual_seed(0)
q = torch.randn(2, 2, 3, 8)
k = torch.randn(2, 2, 5, 8)
v = torch.randn(2, 2, 5, 8)
b = causal_lower_right(3, 5)
print(type(b).__name__, b.variant, b.seq_len_q, b.shape, b.dtype)
print(repr(b))
print(b)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=b)
print(out.sum(), out.shape)
print(F.scaled_dot_product_attention(q, k, v, attn_mask=causal_upper_left(3, 5)).sum())
print(F.scaled_dot_product_attention(q, k, v, attn_mask=causal_upper_left(3, 5), scale=0.3).sum())
q.requires_grad_()
out = F.scaled_dot_product_attention(q, k, v, b)
print(out.grad_fn.name())
out.sum().backward()
print(q.grad.sum())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    causal_lower_right(5, 3)
print([str(x.message) for x in w])
for call in (lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=b, is_causal=True),
             lambda: causal_lower_right(5, 3, 1)):
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
print(isinstance(b, torch.Tensor), int(CausalVariant.LOWER_RIGHT))
p = cuda.SDPAParams(q, k, v, None, 0.0, False, False)
print(cuda.can_use_flash_attention(p), cuda.can_use_efficient_attention(p, True),
      cuda.can_use_cudnn_attention(p), cuda.is_flash_attention_available(), p.dropout)
