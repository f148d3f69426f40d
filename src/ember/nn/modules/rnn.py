"""Recurrent layers: RNN, LSTM, GRU (multi-layer, bidirectional, batch_first).

Parameters are registered in torch's order (``weight_ih_l0, weight_hh_l0, bias_ih_l0,
bias_hh_l0``, then the reverse direction, then the next layer) and initialised
U(±1/√hidden) in that order, so seeded construction matches torch (an LSTM with
``proj_size`` adds ``weight_hr_l{k}`` after the biases, as torch). The time loop composes
ember ops (``addmm``, ``sigmoid``, ``tanh``, ``matmul`` for the projection), so gradients are
exact. The outputs carry torch's CPU node names: ``StackBackward0`` / ``CatBackward0`` for
the composed (native) path; a float32 LSTM without projections runs through oneDNN in torch,
so each of its layers and directions is one ``MkldnnRnnLayerBackward0`` node whose forward and
backward are oneDNN's (``_ops._onednn_rnn``); a batch-first RNN/GRU output is torch's in-place
``transpose_`` (``TransposeBackward1``).
"""

from __future__ import annotations

import math

import numpy as _np

from ... import _dtype as _D
from ... import _factories as _Fac
from ... import _ops
from ..._nn_functions import gru_cell as _gru_cell
from ..._nn_functions import gru_step as _gru_step
from ..._nn_functions import lstm_cell as _lstm_cell
from ..._nn_functions import lstm_step as _lstm_step
from ..._nn_functions import rnn_relu_cell as _rnn_relu_cell
from ..._nn_functions import rnn_step as _rnn_step
from ..._nn_functions import rnn_tanh_cell as _rnn_tanh_cell
from ..._ops import _onednn, _onednn_rnn
from ..._ops.registry import NONE as _NONE
from ..._ops.registry import joint as _joint
from ..._ops.registry import op as _op
from ..._tensor import Tensor
from ...autograd import grad_mode as _grad_mode
from ...backends import mkldnn as _mkldnn_backend
from .. import functional as _F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module


def _no_projection(kwargs) -> None:
    """torch's RNN and GRU refuse ``proj_size`` (any other keyword is a TypeError)."""
    if "proj_size" in kwargs:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
    if kwargs:
        raise TypeError(f"__init__() got an unexpected keyword argument '{next(iter(kwargs))}'")


class RNNBase(Module):
    """Shared machinery of RNN, LSTM and GRU."""

    _gates = 1

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            import warnings
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: "
                            f"{type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: "
                            f"{type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        num_directions = 2 if bidirectional else 1
        gate_size = self._gates * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden * num_directions
                suffix = "_reverse" if direction == 1 else ""
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden)]
                if bias:
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                    shapes += [(gate_size,), (gate_size,)]
                if proj_size > 0:
                    names.append(f"weight_hr_l{layer}{suffix}")
                    shapes.append((proj_size, hidden_size))
                for n, sh in zip(names, shapes):
                    setattr(self, n, Parameter(_Fac.empty(sh, device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every parameter U(±1/√hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _step(self, igates, state, w_hh, b_hh, w_hr=None):
        """One step from the input's gates (``x W_ih^T + b_ih``): torch's CPU layers
        compute those for the whole sequence at once, then run the cell on each step."""
        raise NotImplementedError

    def _layer(self, x, state, w, steps):
        """The cell over ``steps`` (time indices) of ``x``: the outputs, the final state."""
        w_ih, w_hh, b_ih, b_hh, *w_hr = w
        igates = _F.linear(x, w_ih, b_ih).unbind(0)
        ys = [None] * len(igates)
        for t in steps:
            state = self._step(igates[t], state, w_hh, b_hh, *w_hr)
            ys[t] = state[0] if isinstance(state, tuple) else state
        return ys, state

    def _onednn_layer(self, x, state, w, reverse: bool):
        """One direction of a float32 LSTM layer as torch runs it, on oneDNN: with AVX512
        the outputs, ``(h, c)`` and, through one ``MkldnnRnnLayerBackward0`` node, the
        gradients come from :mod:`_onednn_rnn`; without, the composed cell."""
        w_ih, w_hh, b_ih, b_hh = w
        if not _onednn.avx512():
            ys, state = self._layer(x, state, w, range(x.shape[0] - 1, -1, -1) if reverse
                                    else range(x.shape[0]))
            y, h, c = _mkldnn_rnn_layer(_ops.stack(ys, 0), state[0], state[1])
            return y, (h, c)
        bias = (b_ih._data + b_hh._data if b_ih is not None
                else _np.zeros(w_ih.shape[0], _np.float32))
        grad = _grad_mode.is_grad_enabled()
        exact = _onednn_rnn.lstm_layer(x._data, state[0]._data, state[1]._data, w_ih._data,
                                       w_hh._data, bias, reverse, not grad)
        if grad and any(t is not None and t.requires_grad for t in (x, *state, *w)):
            if b_ih is None:        # (torch's node keeps zeros of the weights' shapes)
                b_ih, b_hh = (Tensor._wrap(_np.zeros(w.shape, _np.float32))
                              for w in (w_ih, w_hh))
            y, h, c = _mkldnn_lstm_layer(
                x, w_ih, w_hh, b_ih, b_hh, state[0], state[1], reverse, (), 2,
                self.hidden_size, self.num_layers, bool(self.bias), self.bidirectional,
                self.batch_first, self.training, exact)
            return y, (h, c)
        y, h, c = (Tensor._wrap(a) for a in exact)
        return y, (h, c)

    def _check_forward_args(self, input, hx, batch_sizes=None):
        """torch's ``check_input`` and hidden-size checks."""
        w0 = getattr(self, self._flat_weights_names[0])
        if input.dtype != w0.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({w0.dtype}). Convert input: input.to({w0.dtype}), or convert "
                             f"model: model.to({input.dtype})")
        packed = batch_sizes is not None
        if input.dim() != (2 if packed else 3):
            raise RuntimeError(f"input must have {2 if packed else 3} dimensions, got "
                               f"{input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")
        if packed:
            mini_batch = batch_sizes[0]
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        nd = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        expected = (self.num_layers * nd, mini_batch, real_hidden)
        if isinstance(hx, tuple):
            if tuple(hx[0].size()) != expected:
                raise RuntimeError(f"Expected hidden[0] size {expected}, got "
                                   f"{list(hx[0].size())}")
            expected_c = (self.num_layers * nd, mini_batch, self.hidden_size)
            if tuple(hx[1].size()) != expected_c:
                raise RuntimeError(f"Expected hidden[1] size {expected_c}, got "
                                   f"{list(hx[1].size())}")
        elif tuple(hx.size()) != expected:
            raise RuntimeError(f"Expected hidden size {expected}, got {list(hx.size())}")

    def _layer_weights(self, layer: int, suffix: str) -> list:
        w = [getattr(self, f"weight_ih_l{layer}{suffix}"),
             getattr(self, f"weight_hh_l{layer}{suffix}")]
        if self.bias:
            w += [getattr(self, f"bias_ih_l{layer}{suffix}"),
                  getattr(self, f"bias_hh_l{layer}{suffix}")]
        else:
            w += [None, None]
        if self.proj_size > 0:
            w.append(getattr(self, f"weight_hr_l{layer}{suffix}"))
        return w

    def _forward_packed(self, packed: PackedSequence, hx):
        """torch's packed layers: each step runs the sequences still going; a forward
        direction sets aside the finished rows' states, a reverse one adds rows as they
        start."""
        lstm = self.mode == "LSTM"
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        bs = batch_sizes.tolist()
        nd = 2 if self.bidirectional else 1
        if hx is None:
            hx = self._init_state(self.num_layers * nd, bs[0], data.dtype, data.device)
        elif sorted_indices is not None:
            hx = _permute_hidden(hx, sorted_indices)
        self._check_forward_args(data, hx, bs)
        offs = [0]
        for b in bs:
            offs.append(offs[-1] + b)
        layer_input = data
        finals = []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(nd):
                idx = layer * nd + direction
                w_ih, w_hh, b_ih, b_hh, *w_hr = self._layer_weights(
                    layer, "_reverse" if direction else "")
                state = (hx[0][idx], hx[1][idx]) if lstm else hx[idx]
                y, final = self._packed_layer(_F.linear(layer_input, w_ih, b_ih), bs, offs,
                                              state, [w_hh, b_hh, *w_hr], direction == 1)
                outs.append(y)
                finals.append(final)
            layer_input = outs[0] if nd == 1 else _cat(outs, 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = _F.dropout(layer_input, self.dropout, True)
        if lstm:
            h_n = (_stack([f[0] for f in finals]), _stack([f[1] for f in finals]))
        else:
            h_n = _stack(finals)
        if unsorted_indices is not None:
            h_n = _permute_hidden(h_n, unsorted_indices)
        return PackedSequence(layer_input, batch_sizes, sorted_indices, unsorted_indices), h_n

    def _packed_layer(self, x, bs, offs, state, w, reverse: bool):
        """torch's ``PackedLayer``/``ReversedPackedLayer`` over the input's gates ``x``."""
        lstm = isinstance(state, tuple)

        def cut(s, a, b):
            return tuple(p[a:b] for p in s) if lstm else s[a:b]

        def join(parts):
            return tuple(_cat(list(p), 0) for p in zip(*parts)) if lstm else _cat(parts, 0)
        steps = len(bs)
        ys = []
        if not reverse:
            parts, cur, last = [], state, bs[0]
            for t in range(steps):
                b = bs[t]
                if b < last:
                    parts.append(cut(cur, b, last))
                    cur = cut(cur, 0, b)
                last = b
                cur = self._step(x[offs[t]:offs[t] + b], cur, *w)
                ys.append(cur[0] if lstm else cur)
            parts.append(cur)
            return _cat(ys, 0), join(parts[::-1])
        last = bs[-1]
        cur = cut(state, 0, last)
        for t in range(steps - 1, -1, -1):
            b = bs[t]
            if b > last:
                cur = join([cur, cut(state, last, b)])
            last = b
            cur = self._step(x[offs[t]:offs[t] + b], cur, *w)
            ys.append(cur[0] if lstm else cur)
        return _cat(ys[::-1], 0), cur

    def forward(self, input: Tensor, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        lstm = self.mode == "LSTM"
        if input.dim() not in (2, 3):
            what = {"LSTM": "LSTM: Expected input to be 2D or 3D, got {}D instead",
                    "GRU": "GRU: Expected input to be 2D or 3D, got {}D instead"}.get(
                self.mode, "RNN: Expected input to be 2D or 3D, got {}D tensor instead")
            raise ValueError(what.format(input.dim()))
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if lstm:
                    if hx[0].dim() != 2 or hx[1].dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx and cx should also be "
                                           f"2-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) "
                                           "tensors")
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
                else:
                    if hx.dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but "
                                           f"got {hx.dim()}-D tensor")
                    hx = hx.unsqueeze(1)
        elif hx is not None:
            if lstm and (hx[0].dim() != 3 or hx[1].dim() != 3):
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but "
                                   f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            if not lstm and hx.dim() != 3:
                raise RuntimeError("For batched 3-D input, hx should also be 3-D but got "
                                   f"{hx.dim()}-D tensor")
        nd = 2 if self.bidirectional else 1
        n = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            hx = self._init_state(self.num_layers * nd, n, input.dtype, input.device)
        self._check_forward_args(input, hx)
        if self.batch_first:
            input = input.transpose(0, 1)
        seq_len = input.shape[0]
        mkldnn = (lstm and input.dtype is _D.float32 and input.numel() != 0
                  and _mkldnn_backend.enabled)
        if mkldnn and self.proj_size:
            mkldnn = False
            _warn_projections_once()
        layer_input = input.contiguous() if mkldnn else input    # (torch's mkldnn_rnn)
        finals = []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(nd):
                idx = layer * nd + direction
                suffix = "_reverse" if direction == 1 else ""
                w = self._layer_weights(layer, suffix)
                state = (hx[0][idx], hx[1][idx]) if lstm else hx[idx]
                steps = range(seq_len - 1, -1, -1) if direction == 1 else range(seq_len)
                if mkldnn:
                    y, state = self._onednn_layer(layer_input, state, w, direction == 1)
                else:
                    ys, state = self._layer(layer_input, state, w, steps)
                    y = _ops.stack(ys, 0)
                outs.append(y)
                finals.append(state)
            layer_input = outs[0] if nd == 1 else _ops.cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = _F.dropout(layer_input, self.dropout, True)
        output = layer_input
        if lstm:
            h_n = (_ops.stack([f[0] for f in finals], 0), _ops.stack([f[1] for f in finals], 0))
        else:
            h_n = _ops.stack(finals, 0)
        if self.batch_first:
            output = output.transpose(0, 1) if lstm else _transpose_(output)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n = (h_n[0].squeeze(1), h_n[1].squeeze(1)) if lstm else h_n.squeeze(1)
        return output, h_n


@_op("MkldnnRnnLayerBackward0", name="_mkldnn_rnn_layer", method=False, function=False,
    promote=_NONE, outputs=3, tensors=("output", "hy", "cy"),
    output=lambda grads: grads[0], hy=lambda grads: grads[1], cy=lambda grads: grads[2])
def _mkldnn_rnn_layer(output, hy, cy):
    """Identity over one LSTM layer's (output, h, c) composed from the cell (no AVX512):
    torch's oneDNN layer node."""
    return output.copy(), hy.copy(), cy.copy()


def _lstm_layer_grads(grads, input, w_ih, w_hh, bias, hx, cx, reverse):
    """All the gradients of one oneDNN LSTM layer (input, w_ih, w_hh, bias, hx, cx), by
    oneDNN's backward primitive."""
    x = input._data
    zeros = _np.zeros(hx.shape, _np.float32)
    gy, gh, gc = (zeros if g is None else g._data for g in grads)
    if gy is zeros:
        gy = _np.zeros(x.shape[:2] + hx.shape[1:], _np.float32)
    out = _onednn_rnn.lstm_layer_backward(x, hx._data, cx._data, w_ih._data, w_hh._data,
                                          bias, reverse, gy, gh, gc)
    return [Tensor._wrap(_np.ascontiguousarray(a)) for a in out]


def _composed_grads(grads, input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse):
    """The layer's gradients as a graph (``create_graph``): the composed cell's, as torch's
    differentiable ``mkldnn_rnn_layer`` backward computes them from ATen ops."""
    from ... import autograd
    steps = range(input.shape[0] - 1, -1, -1) if reverse else range(input.shape[0])
    xg = _F.linear(input, w_ih, b_ih).unbind(0)
    state, ys = (hx, cx), [None] * input.shape[0]
    for t in steps:
        state = _lstm_step(xg[t], state, w_hh, b_hh)
        ys[t] = state[0]
    outs = [_ops.stack(ys, 0), state[0], state[1]]
    pairs = [(o, g) for o, g in zip(outs, grads) if g is not None]
    ins = (input, w_ih, w_hh, b_ih, b_hh, hx, cx)
    got = iter(autograd.grad([o for o, _ in pairs], [t for t in ins if t.requires_grad],
                             [g for _, g in pairs], create_graph=True, allow_unused=True))
    out = [next(got) if t.requires_grad else None for t in ins]
    return out[0], out[1], out[2], out[3], out[5], out[6]


def _lstm_grads(grads, input, weight0, weight1, weight2, weight3, hx_, cx_, reverse,
                batch_sizes, mode, hidden_size, num_layers, has_biases, bidirectional,
                batch_first, train, result0, result1, result2):
    """``mkldnn_rnn_layer_backward``: the gradients of the input, the four weights, hx and
    cx in one computation (each bias's is the gates' gradient); differentiable ones under
    ``create_graph``. (The node keeps what torch's keeps; the results and the sizes are
    not read: the gradients recompute the layer.)"""
    if _grad_mode.is_grad_enabled():
        if not has_biases:
            weight2 = weight3 = None
        gi, gw_ih, gw_hh, gb, ghx, gcx = _composed_grads(grads, input, weight0, weight1,
                                                         weight2, weight3, hx_, cx_, reverse)
    else:
        bias = weight2._data + weight3._data if has_biases else \
            _np.zeros(weight0.shape[0], _np.float32)
        gi, gw_ih, gw_hh, gb, ghx, gcx = _lstm_layer_grads(grads, input, weight0, weight1,
                                                           bias, hx_, cx_, reverse)
    return gi, gw_ih, gw_hh, gb, gb, ghx, gcx


@_op("MkldnnRnnLayerBackward0", name="_mkldnn_lstm_layer", method=False, function=False,
    promote=_NONE, outputs=3,
    tensors=("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
    saved_results={"result0": 0, "result1": 1, "result2": 2},
    pack_order=("hx_", "cx_", "input", "weight0", "weight1", "weight2", "weight3"),
    **_joint(_lstm_grads, "input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"))
def _mkldnn_lstm_layer(input, weight0, weight1, weight2, weight3, hx_, cx_, reverse,
                       batch_sizes, mode, hidden_size, num_layers, has_biases, bidirectional,
                       batch_first, train, exact):
    """torch's ``mkldnn_rnn_layer`` for an LSTM in training (its arguments: the weights
    ``w_ih, w_hh, b_ih, b_hh``, zeros for the biases without them): the outputs ``exact``
    (the forward's arrays), the gradients oneDNN's backward primitive's
    (:func:`_onednn_rnn.lstm_layer_backward`)."""
    return tuple(a.copy() for a in exact)


@_op("TransposeBackward1", name="_rnn_transpose_", method=False, function=False,
    promote=_NONE, self=lambda grad: grad.transpose(0, 1))
def _transpose_(self):
    """torch's ``output.transpose_(0, 1)`` of a batch-first RNN/GRU result."""
    return _np.swapaxes(self, 0, 1)


class RNN(RNNBase):
    """Elman RNN: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or ReLU)."""

    _gates = 1

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None, **kwargs) -> None:
        _no_projection(kwargs)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype)

    def _init_state(self, layers, n, dtype, device):
        return _Fac.zeros((layers, n, self.hidden_size), dtype=dtype, device=device)

    def _step(self, igates, h, w_hh, b_hh):
        return _rnn_step(igates, h, w_hh, b_hh, relu=self.nonlinearity == "relu")


class LSTM(RNNBase):
    """Long short-term memory; gates in torch's order (input, forget, cell, output)."""

    _gates = 4

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)

    def _init_state(self, layers, n, dtype, device):
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (_Fac.zeros((layers, n, real_hidden), dtype=dtype, device=device),
                _Fac.zeros((layers, n, self.hidden_size), dtype=dtype, device=device))

    def _step(self, igates, state, w_hh, b_hh, w_hr=None):
        return _lstm_step(igates, state, w_hh, b_hh, w_hr)


class GRU(RNNBase):
    """Gated recurrent unit; gates in torch's order (reset, update, new)."""

    _gates = 3

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None, **kwargs) -> None:
        _no_projection(kwargs)
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)

    def _init_state(self, layers, n, dtype, device):
        return _Fac.zeros((layers, n, self.hidden_size), dtype=dtype, device=device)

    def _step(self, igates, h, w_hh, b_hh):
        return _gru_step(igates, h, w_hh, b_hh)


def _cat(ts, dim):
    from ..._ops.shape import cat
    return cat(ts, dim)


def _stack(ts):
    from ..._ops.shape import stack
    return stack(ts, 0)


def _permute_hidden(hx, permutation):
    if isinstance(hx, tuple):
        return (hx[0].index_select(1, permutation), hx[1].index_select(1, permutation))
    return hx.index_select(1, permutation)


_PROJECTIONS_WARNED = [False]


def _warn_projections_once() -> None:
    """torch's TORCH_WARN_ONCE where a projected LSTM would otherwise run on oneDNN."""
    if not _PROJECTIONS_WARNED[0]:
        _PROJECTIONS_WARNED[0] = True
        import warnings

        from ... import _errors
        warnings.warn(_errors.internal("LSTM with projections is not supported with oneDNN. "
                                       "Using default implementation.",
                                       "aten/src/ATen/native/RNN.cpp:1512"),
                      UserWarning, stacklevel=_errors.user_stacklevel())


class RNNCellBase(Module):
    """Shared parameters of the cells: ``weight_ih, weight_hh, bias_ih, bias_hh``, each
    U(±1/√hidden) in that order, as torch."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_Fac.empty((num_chunks * hidden_size, input_size),
                                              device=device, dtype=dtype))
        self.weight_hh = Parameter(_Fac.empty((num_chunks * hidden_size, hidden_size),
                                             device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_Fac.empty(num_chunks * hidden_size,
                                                device=device, dtype=dtype))
            self.bias_hh = Parameter(_Fac.empty(num_chunks * hidden_size,
                                                device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        """Every parameter U(±1/√hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input, hx, name, what):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        for i, h in enumerate(hx if isinstance(hx, tuple) else (hx,)):
            if h is not None and h.dim() not in (1, 2):
                label = f"hx[{i}]" if isinstance(hx, tuple) else "hidden"
                raise ValueError(f"{name}: Expected {label} to be 1D or 2D, got {h.dim()}D "
                                 "instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _Fac.zeros((input.size(0), self.hidden_size), dtype=input.dtype,
                               device=input.device)
            hx = (zeros, zeros) if what == "lstm" else zeros
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if isinstance(hx, tuple) else hx.unsqueeze(0)
        return input, hx, batched


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or ReLU)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._prepare(input, hx, "RNNCell", "rnn")
        cells = {"tanh": _rnn_tanh_cell, "relu": _rnn_relu_cell}
        if self.nonlinearity not in cells:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = cells[self.nonlinearity](input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                                       self.bias_hh)
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step; returns ``(h', c')`` (gates in torch's order: input, forget, cell,
    output)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None):
        input, hx, batched = self._prepare(input, hx, "LSTMCell", "lstm")
        hy, cy = _lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                            self.bias_hh)
        return (hy, cy) if batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step, as torch's ``gru_cell``: ``h' = n + z * (h - n)``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._prepare(input, hx, "GRUCell", "gru")
        hy = _gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return hy if batched else hy.squeeze(0)


del annotations  # keep dir() to torch's names
