"""MultiheadAttention and TransformerEncoderLayer, composed from ember ops.

Parameters, their registration and initialisation order are torch's (``in_proj_weight``
xavier-uniform after ``out_proj`` was built as a Linear; biases zeroed), so seeded
construction and ``state_dict`` keys match. The attention is torch's slow path,
:func:`ember.nn.functional.multi_head_attention_forward` (node names are torch's), except
where torch takes its native inference path (an eval-mode, batch-first self-attention with no
gradient recorded, under torch's conditions): ``ember.nn._native_attention``.
"""

from __future__ import annotations

import copy
import sys as _sys
import warnings

from ... import _factories as _Fac
from ..._tensor import Tensor
from ...amp.autocast_mode import is_autocast_enabled as _autocast_on
from ...autograd.grad_mode import is_grad_enabled as _grad_on
from ...backends import mha as _mha
from .. import _native_attention as _native
from .. import functional as F
from .. import init as _init
from ..parameter import Parameter as _Parameter
from .activation import GELU as _GELU
from .activation import ReLU as _ReLU
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .linear import NonDynamicallyQuantizableLinear as _NonDynamicallyQuantizableLinear
from .module import Module
from .normalization import LayerNorm


def _tracing() -> bool:
    """Whether an fx or export trace runs: torch's native paths refuse its traced tensors
    (they have ``__torch_function__``), so the Python path is what gets recorded."""
    trace = _sys.modules.get(__package__.split(".")[0] + ".fx._symbolic_trace")
    return trace is not None and trace.is_fx_tracing()


class MultiheadAttention(Module):
    """Multi-head attention (torch's slow path, ``F.multi_head_attention_forward``, or its
    native inference path where torch takes it).

    ``kdim``/``vdim`` different from ``embed_dim`` give separate ``q/k/v_proj_weight``;
    ``add_bias_kv`` adds ``bias_k``/``bias_v`` (xavier-normal), ``add_zero_attn`` a zero key
    and value; registration and initialisation order are torch's.

    >>> import ember
    >>> mha = ember.nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
    >>> [n for n, _ in mha.named_parameters()][:3]
    ['q_proj_weight', 'k_proj_weight', 'v_proj_weight']
    """

    __constants__ = ["batch_first"]

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = _Parameter(_Fac.empty((embed_dim, embed_dim),
                                                       device=device, dtype=dtype))
            self.k_proj_weight = _Parameter(_Fac.empty((embed_dim, self.kdim),
                                                       device=device, dtype=dtype))
            self.v_proj_weight = _Parameter(_Fac.empty((embed_dim, self.vdim),
                                                       device=device, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = _Parameter(_Fac.empty((3 * embed_dim, embed_dim),
                                                        device=device, dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = _Parameter(_Fac.empty(3 * embed_dim, device=device, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = _NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k = _Parameter(_Fac.empty((1, 1, embed_dim), device=device, dtype=dtype))
            self.bias_v = _Parameter(_Fac.empty((1, 1, embed_dim), device=device, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            _init.xavier_uniform_(self.in_proj_weight)
        else:
            _init.xavier_uniform_(self.q_proj_weight)
            _init.xavier_uniform_(self.k_proj_weight)
            _init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            _init.constant_(self.in_proj_bias, 0.0)
            _init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            _init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            _init.xavier_normal_(self.bias_v)

    def __setstate__(self, state):
        if "_qkv_same_embed_dim" not in state:
            state["_qkv_same_embed_dim"] = True
        super().__setstate__(state)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask=None,
                need_weights: bool = True, attn_mask=None, average_attn_weights: bool = True,
                is_causal: bool = False):
        """Attend ``query`` to ``key``/``value``; returns ``(output, weights or None)``."""
        is_batched = query.dim() == 3
        float_masks = ((attn_mask is not None and attn_mask.is_floating_point())
                       or (key_padding_mask is not None
                           and key_padding_mask.is_floating_point()))
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             F._none_or_dtype(attn_mask), "attn_mask",
                                             query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                      check_other=False)
        if not float_masks and is_batched and query is key and key is value \
                and self._fast_path_ok(query) and self.in_proj_bias is not None:
            merged, mask_type = self.merge_masks(attn_mask, key_padding_mask, query)
            return _native.native_multi_head_attention(
                query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
                self.in_proj_bias, self.out_proj.weight, self.out_proj.bias, merged,
                need_weights, average_attn_weights, mask_type)
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        extra = {}
        if not self._qkv_same_embed_dim:
            extra = {"use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
                     "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights, is_causal=is_causal, **extra)
        if self.batch_first and is_batched:
            out = out.transpose(1, 0)
        return out, weights

    def _fast_path_ok(self, query: Tensor) -> bool:
        """torch's conditions (beyond the masks and self-attention) for
        ``torch._native_multi_head_attention``."""
        w, b = self.in_proj_weight, self.in_proj_bias
        if not (_mha.get_fastpath_enabled() and not _tracing() and w is not None
                and query.dtype == w.dtype
                and (b is None or query.dtype == b.dtype) and not self.training
                and self.num_heads % 2 == 0 and self.batch_first and self.bias_k is None
                and self.bias_v is None and not self.add_zero_attn
                and self._qkv_same_embed_dim and not _autocast_on()):
            return False
        args = (query, w, b, self.out_proj.weight, self.out_proj.bias)
        return not (_grad_on() and any(a is not None and a.requires_grad for a in args))

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """The fast path's single mask and its type: the padding mask (type 1), or the
        attention mask expanded to (B, heads, L, L), plus the padding mask if both (type 2)."""
        mask_type = merged = None
        if key_padding_mask is not None:
            mask_type, merged = 1, key_padding_mask
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2
            if attn_mask.dim() == 3:
                expanded = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                expanded = attn_mask.view(1, 1, seq_len, seq_len).expand(
                    batch_size, self.num_heads, -1, -1)
            merged = expanded
            if key_padding_mask is not None:
                merged = expanded + key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1)
        return merged, mask_type


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block, each with residual and LayerNorm."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, device=device, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, device=device, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, device=device, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        if activation is F.relu or isinstance(activation, _ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, _GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)

    def forward(self, src: Tensor, src_mask=None, src_key_padding_mask=None,
                is_causal: bool = False) -> Tensor:
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask",
                                                 src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype,
                                     check_other=False)
        if self._fast_path_ok(src):
            merged, mask_type = self.self_attn.merge_masks(src_mask, src_key_padding_mask, src)
            return _native.transformer_encoder_layer_fwd(
                src, self.self_attn.embed_dim, self.self_attn.num_heads, self.self_attn, self,
                self.activation_relu_or_gelu == 2, self.norm_first, merged, mask_type)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x


    def _fast_path_ok(self, src: Tensor) -> bool:
        """torch's conditions for ``torch._transformer_encoder_layer_fwd`` (the layer's
        native inference path)."""
        attn = self.self_attn
        if not (_mha.get_fastpath_enabled() and not _tracing() and src.dim() == 3
                and not self.training
                and attn.batch_first and attn.in_proj_bias is not None
                and attn._qkv_same_embed_dim and self.activation_relu_or_gelu
                and self.norm1.eps == self.norm2.eps and attn.num_heads % 2 == 0
                and not _autocast_on()):
            return False
        if any(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in self.modules()):
            return False
        args = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight,
                attn.out_proj.bias, self.norm1.weight, self.norm1.bias, self.norm2.weight,
                self.norm2.bias, self.linear1.weight, self.linear1.bias, self.linear2.weight,
                self.linear2.bias)
        return not (_grad_on() and any(a is not None and a.requires_grad for a in args))


def _get_activation_fn(activation: str):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _get_clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
    """``-inf`` above the diagonal, 0 elsewhere: position i attends to positions <= i."""
    return _Fac.full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(1)


def _get_seq_len(src: Tensor, batch_first: bool) -> int:
    if src.dim() == 2:
        return src.size(0)
    return src.size(1 if batch_first else 0)


def _detect_is_causal_mask(mask, is_causal=None, size=None) -> bool:
    """Whether ``mask`` is the causal mask (when ``is_causal`` is not given)."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal = _generate_square_subsequent_mask(sz, dtype=mask.dtype)
        make_causal = mask.size() == causal.size() and bool((mask == causal).all())
    return make_causal


class TransformerEncoder(Module):
    """A stack of ``num_layers`` copies of ``encoder_layer`` (then ``norm``, if given)."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Module | None = None, enable_nested_tensor: bool = True,
                 mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_sparsity_fast_path(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn("enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask=None, src_key_padding_mask=None,
                is_causal: bool | None = None) -> Tensor:
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(mask), "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        batch_first = self.layers[0].self_attn.batch_first
        is_causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, batch_first))
        output = src
        nested = self._takes_nested_path(src, mask, src_key_padding_mask)
        if nested:
            from ...nested._nested import warn_prototype
            warn_prototype()     # (torch converts the batch to a nested tensor here)
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask)
        if nested:
            padded = (src_key_padding_mask != 0).unsqueeze(-1)
            output = output.masked_fill(padded if batch_first else padded.transpose(0, 1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _takes_nested_path(self, src, mask, key_padding_mask) -> bool:
        """torch's conditions for converting ``src`` to a nested tensor (CPU, no autocast)."""
        first = self.layers[0]
        if (not getattr(self, "use_nested_tensor", False) or first.training or src.dim() != 3
                or key_padding_mask is None or mask is not None):
            return False
        if self.mask_check:
            valid = (key_padding_mask == 0).to(dtype=src.dtype)
            if not bool((valid[:, 1:] <= valid[:, :-1]).all()):     # not left-aligned
                return False
        attn, n1, n2 = first.self_attn, first.norm1, first.norm2
        args = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight,
                attn.out_proj.bias, n1.weight, n1.bias, n2.weight, n2.bias,
                first.linear1.weight, first.linear1.bias, first.linear2.weight,
                first.linear2.bias)
        return not (_grad_on() and any(a is not None and a.requires_grad for a in args))


def _why_not_sparsity_fast_path(layer) -> str:
    """torch's reason (or ``""``) why an encoder stack cannot use nested tensors."""
    e = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{e} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{e}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (f"{e}.self_attn.batch_first was not True(use batch_first for better inference "
                "performance)")
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{e}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{e}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{e}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{e}.norm1.eps was not equal to {e}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{e}.self_attn.num_heads is odd"
    return ""


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's memory, then a feed-forward block; each
    with residual and LayerNorm (before, with ``norm_first``)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, bias=bias,
 device=device, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, bias=bias,
                                                 device=device, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, device=device, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, device=device, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) \
            else activation

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask=None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None,
                tgt_is_causal: bool = False, memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask,
                                    memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                               memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


class TransformerDecoder(Module):
    """A stack of ``num_layers`` copies of ``decoder_layer`` (then ``norm``, if given)."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask=None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        output = tgt
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """The encoder-decoder Transformer ("Attention Is All You Need"), initialised as torch
    does: every parameter of more than one dim xavier-uniform, in registration order."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                                    activation, layer_norm_eps, batch_first,
                                                    norm_first, bias, device=device, dtype=dtype)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                     device=device, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout,
                                                    activation, layer_norm_eps, batch_first,
                                                    norm_first, bias, device=device, dtype=dtype)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                     device=device, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal: bool | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """The causal mask: ``-inf`` above the diagonal, 0 elsewhere."""
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                _init.xavier_uniform_(p)


del annotations  # keep dir() to torch's names
