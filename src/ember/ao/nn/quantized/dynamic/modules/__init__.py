"""Dynamically quantized modules (``torch.ao.nn.quantized.dynamic``): float in, float out,
the weight stored as qint8 and each input quantized on the fly with qparams chosen from its
own range (fbgemm's ``linear_dynamic``)."""

from __future__ import annotations

import importlib as _importlib
import sys as _sys_

from ...... import nn as _nn
from .....quantization._tensor import linear_dynamic as _linear_dynamic
from .....quantization._tensor import not_differentiable as _not_differentiable
from .....quantization._tensor import quantize_per_tensor as _quantize_per_tensor
from ... import modules as _nnq

_torch = _sys_.modules[__name__.split(".")[0]]   # the package (torch)

__all__ = ["GRU", "LSTM", "Linear"]


class Linear(_nnq.Linear):
    """A linear layer with a qint8 weight whose input is quantized per call (uint8, its
    range halved: ``reduce_range``) and whose output is float32."""

    _version = 4
    _FLOAT_MODULE = (_nn.Linear,)

    def __init__(self, in_features, out_features, bias_=True, dtype=_torch.qint8):
        super().__init__(in_features, out_features, bias_, dtype=dtype)
        self.version = 4

    def forward(self, x):
        w, b = self._weight_bias()
        for t in (x, b):        # fbgemm's ``linear_dynamic`` reads both as float
            if t is not None and t.dtype is not _torch.float32:
                raise RuntimeError(f"expected scalar type Float but found {t.dtype.scalar_name}")
        wq, ws, wz = _nnq._weight_arrays(w)
        bias = None if b is None else b.detach()._data
        out = _torch.Tensor._wrap(_linear_dynamic(
            x.detach()._data, wq, ws, wz, bias,
            reduce_range=self.version is not None and self.version >= 4))
        _not_differentiable("quantized::linear_dynamic", [x], [out])
        return out

    def _get_name(self):
        return "DynamicQuantizedLinear"

    def extra_repr(self):
        s = (f"in_features={self.in_features}, out_features={self.out_features}, "
             f"dtype={self._packed_params.dtype}")
        if self._packed_params.dtype is _torch.qint8:
            s += f", qscheme={self.weight().qscheme()}"
        return s

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The dynamically quantized form of the float linear ``mod`` (its qconfig's weight
        observer decides the weight's qparams)."""
        from .....quantization.qconfig import default_dynamic_qconfig
        float_modules = (_nn.Linear, _nn.modules.linear.NonDynamicallyQuantizableLinear)
        if type(mod) not in float_modules:
            raise AssertionError("nn.quantized.dynamic.Linear.from_float only works for one "
                                 "of" + str([float_mod.__name__ for float_mod in float_modules]))
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        if mod.qconfig is not None and mod.qconfig.weight is not None:
            weight_observer = mod.qconfig.weight()
        else:
            weight_observer = default_dynamic_qconfig.weight()
        dtype = weight_observer.dtype
        if dtype is not _torch.qint8:
            raise RuntimeError("Unsupported dtype specified for dynamic quantized Linear!")
        weight_observer(mod.weight)
        qweight = _nnq._quantize_weight(mod.weight.float(), weight_observer)
        qlinear = cls(mod.in_features, mod.out_features, dtype=dtype)
        qlinear.set_weight_bias(qweight, mod.bias)
        return qlinear


class _PackedLinear:
    """A packed qint8 weight with its float bias (torch's ``LinearPackedParamsBase``)."""

    def __init__(self, weight, bias):
        self.weight, self.bias = weight, bias

    def __getstate__(self):
        return ((self.weight, self.bias),
                "__torch__.torch.classes.quantized.LinearPackedParamsBase")

    def __setstate__(self, state):
        (self.weight, self.bias), _ = state

    def __call__(self, x):
        wq, ws, wz = _nnq._weight_arrays(self.weight)
        out = _linear_dynamic(x.detach().contiguous()._data, wq, ws, wz,
                             self.bias.detach()._data, reduce_range=True)
        return _torch.Tensor._wrap(out)


class _CellParams:
    """One layer-direction's packed input and hidden weights (torch's ``CellParamsBase``)."""

    def __init__(self, ih: _PackedLinear, hh: _PackedLinear):
        self.ih, self.hh = ih, hh

    def __getstate__(self):
        return (("quantized_dynamic", [self.ih.bias, self.hh.bias], [], [], [self.ih, self.hh]),
                "__torch__.torch.classes.rnn.CellParamsBase")

    def __setstate__(self, state):
        self.ih, self.hh = state[0][4]


class _PackedParameter(_nn.Module):
    """Holds a layer-direction's cell parameters (its state-dict entry ``param``)."""

    def __init__(self, param):
        super().__init__()
        self.param = param

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "param"] = self.param


class _RNNBase(_nn.Module):
    """The dynamically quantized recurrent layers: each step's input and hidden projections
    are dynamically quantized linear layers (the whole sequence's input projection at once,
    as ATen's CPU layers compute it), the gates are computed in float32."""

    _version = 2
    _gates = 4

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, dtype=_torch.qint8):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = 0
        self.dtype = dtype
        self.version = 2
        # placeholder weights drawn as torch draws them (from_float replaces them), so that a
        # conversion leaves the random state where torch's leaves it
        gate_size = self._gates * hidden_size
        dirs = 2 if bidirectional else 1
        cells = []
        for layer in range(num_layers):
            for _ in range(dirs):
                in_size = input_size if layer == 0 else hidden_size * dirs
                w_ih, w_hh = _torch.randn(gate_size, in_size), _torch.randn(gate_size, hidden_size)
                b_ih, b_hh = _torch.randn(gate_size), _torch.randn(gate_size)
                ih = _PackedLinear(_quantize_per_tensor(w_ih, 0.1, 0, _torch.qint8), b_ih)
                hh = _PackedLinear(_quantize_per_tensor(w_hh, 0.1, 0, _torch.qint8), b_hh)
                cells.append(_PackedParameter(_CellParams(ih, hh)))
        self._all_weight_values = _nn.ModuleList(cells)

    extra_repr = _nn.LSTM.extra_repr      # (the float layers', proj_size 0)

    def __repr__(self):
        return self._get_name() + "(" + self.extra_repr() + ")"

    def _weight_bias(self) -> dict:
        out: dict = {"weight": {}, "bias": {}}
        count = 0
        for layer in range(self.num_layers):
            for direction in range(2 if self.bidirectional else 1):
                suffix = "_reverse" if direction == 1 else ""
                cell = self._all_weight_values[count].param
                out["weight"][f"weight_ih_l{layer}{suffix}"] = cell.ih.weight
                out["weight"][f"weight_hh_l{layer}{suffix}"] = cell.hh.weight
                out["bias"][f"bias_ih_l{layer}{suffix}"] = cell.ih.bias
                out["bias"][f"bias_hh_l{layer}{suffix}"] = cell.hh.bias
                count += 1
        return out

    def get_weight(self):
        return self._weight_bias()["weight"]

    def get_bias(self):
        return self._weight_bias()["bias"]

    def _run_direction(self, cell: _CellParams, x, state: tuple, reverse: bool):
        """One layer-direction over the sequence ``x``: (outputs stacked, final state)."""
        steps = list(cell.ih(x).unbind(0))
        if reverse:
            steps.reverse()
        outs = []
        for gx in steps:
            state = self._step(cell, gx, state)
            outs.append(state[0])
        if reverse:
            outs.reverse()
        return _torch.stack(outs, 0), state

    def _run(self, input, hx: tuple):
        """The layers over ``input`` from the initial states ``hx`` (each stacked over
        layer-directions): (output, final states stacked the same way)."""
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")
        x = input.transpose(0, 1) if self.batch_first else input
        dirs = 2 if self.bidirectional else 1
        finals = [[] for _ in hx]
        count = 0
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                cell = self._all_weight_values[count].param
                out, state = self._run_direction(cell, x, tuple(h[count] for h in hx), d == 1)
                outs.append(out)
                for acc, s in zip(finals, state):
                    acc.append(s)
                count += 1
            x = outs[0] if dirs == 1 else _torch.cat(outs, outs[0].dim() - 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = _torch.nn.functional.dropout(x, self.dropout, True)
        out = (x.transpose(0, 1) if self.batch_first else x).detach()
        states = [_torch.stack(acc, 0).detach() for acc in finals]
        _not_differentiable(f"aten::quantized_{self.mode.lower()}.input", [input, *hx],
                           [out, *states])
        return out, states

    def _zeros(self, input):
        batch = input.shape[0 if self.batch_first else 1]
        n = self.num_layers * (2 if self.bidirectional else 1)
        return _torch.zeros(n, batch, self.hidden_size, dtype=input.dtype)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The dynamically quantized form of the float ``mod``: each weight matrix observed
        and quantized on its own."""
        from .....quantization.qconfig import default_dynamic_qconfig
        if type(mod) is not cls._FLOAT_MODULE:
            raise AssertionError("nn.quantized.dynamic.RNNBase.from_float only works for "
                                 "nn.LSTM and nn.GRU")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        if mod.qconfig is not None and mod.qconfig.weight is not None:
            observer_method = mod.qconfig.weight
        else:
            observer_method = default_dynamic_qconfig.weight
        dtype = observer_method().dtype
        if dtype is not _torch.qint8:
            raise RuntimeError(f"Unsupported dtype for dynamic RNN quantization: {dtype}")
        if getattr(mod, "proj_size", 0):
            raise NotImplementedError("LSTM with proj_size is not supported")
        q = cls(mod.input_size, mod.hidden_size, mod.num_layers, mod.bias, mod.batch_first,
                mod.dropout, mod.bidirectional, dtype)
        if not mod.bias:
            raise AssertionError("mod.bias must be True")

        def pack(w, b):
            observer = observer_method()
            observer(w)
            return _PackedLinear(_nnq._quantize_weight(w.float(), observer), b)

        q._all_weight_values = _nn.ModuleList()
        for layer in range(q.num_layers):
            for direction in range(2 if q.bidirectional else 1):
                sfx = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                ih = pack(getattr(mod, "weight_ih" + sfx), getattr(mod, "bias_ih" + sfx))
                hh = pack(getattr(mod, "weight_hh" + sfx), getattr(mod, "bias_hh" + sfx))
                q._all_weight_values.append(_PackedParameter(_CellParams(ih, hh)))
        return q


class LSTM(_RNNBase):
    """A dynamically quantized LSTM (``nn.LSTM``'s interface, float in and out)."""

    _FLOAT_MODULE = _nn.LSTM

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def _get_name(self):
        return "DynamicQuantizedLSTM"

    @staticmethod
    def _step(cell, gx, state):
        h, c = state
        gates = cell.hh(h).add_(gx)
        i, f, g, o = gates.unsafe_chunk(4, 1)
        i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()
        c = (f * c).add_(i * g)
        return o * c.tanh(), c

    def forward(self, input, hx=None):
        """``(output, (h_n, c_n))`` as ``nn.LSTM`` returns them."""
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        out, (hn, cn) = self._run(input, tuple(hx))
        return out, (hn, cn)


class GRU(_RNNBase):
    """A dynamically quantized GRU (``nn.GRU``'s interface, float in and out)."""

    _FLOAT_MODULE = _nn.GRU
    _gates = 3

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)

    def _get_name(self):
        return "DynamicQuantizedGRU"

    @staticmethod
    def _step(cell, gx, state):
        (h,) = state
        ir, iz, in_ = gx.unsafe_chunk(3, 1)
        hr, hz, hn = cell.hh(h).unsafe_chunk(3, 1)
        reset = hr.add_(ir).sigmoid_()
        update = hz.add_(iz).sigmoid_()
        new = in_.add(hn.mul_(reset)).tanh_()
        return ((h - new).mul_(update).add_(new),)

    def forward(self, input, hx=None):
        """``(output, h_n)`` as ``nn.GRU`` returns them."""
        out, (hn,) = self._run(input, (self._zeros(input) if hx is None else hx,))
        return out, hn


del annotations  # keep dir() to torch's names


# each class lives, as torch's, in a submodule of this package named for its kind
for _cls, _home in ((Linear, "linear"), (LSTM, "rnn"), (GRU, "rnn")):
    _cls.__module__ = f"{__name__}.{_home}"
del _cls, _home

for _sub in ("linear", "rnn"):   # loaded, as torch's are
    _importlib.import_module(f"{__name__}.{_sub}")
del _sub
