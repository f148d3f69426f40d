"""Recurrent layers: RNN, LSTM, GRU (multi-layer, bidirectional, batch_first).

Parameters are registered in torch's order (``weight_ih_l0, weight_hh_l0, bias_ih_l0,
bias_hh_l0``, then the reverse direction, then the next layer) and initialised
U(±1/√hidden) in that order, so seeded construction matches torch. The time loop composes
ember ops (``addmm``, ``sigmoid``, ``tanh``), so gradients are exact but the graph's node
names are those of the pieces, not torch's fused kernels.
"""

from __future__ import annotations

import math

from ... import _factories as Fac
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


def _ember():
    import ember
    return ember


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
        if proj_size:
            raise NotImplementedError("LSTM: proj_size")
        if not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        num_directions = 2 if bidirectional else 1
        gate_size = self._gates * hidden_size
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                shapes = [(gate_size, layer_input_size), (gate_size, hidden_size)]
                if bias:
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                    shapes += [(gate_size,), (gate_size,)]
                for n, s in zip(names, shapes):
                    setattr(self, n, Parameter(Fac.empty(s, dtype=dtype)))
                self._flat_weights_names.extend(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every parameter U(±1/√hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
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

    def _cell(self, x, state, w_ih, w_hh, b_ih, b_hh):
        raise NotImplementedError

    def _init_state(self, n, dtype):
        raise NotImplementedError

    def forward(self, input: Tensor, hx=None):
        em = _ember()
        unbatched = input.ndim == 2
        if unbatched:
            input = input.unsqueeze(1)
            if hx is not None:
                hx = tuple(h.unsqueeze(1) for h in hx) if isinstance(hx, tuple) \
                    else hx.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        seq_len, n = input.shape[0], input.shape[1]
        nd = 2 if self.bidirectional else 1
        if hx is None:
            hx = self._init_state(self.num_layers * nd, n, input.dtype)
        layer_input = input
        finals = []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(nd):
                idx = layer * nd + direction
                suffix = "_reverse" if direction == 1 else ""
                w = [getattr(self, f"weight_ih_l{layer}{suffix}"),
                     getattr(self, f"weight_hh_l{layer}{suffix}")]
                if self.bias:
                    w += [getattr(self, f"bias_ih_l{layer}{suffix}"),
                          getattr(self, f"bias_hh_l{layer}{suffix}")]
                else:
                    w += [None, None]
                state = tuple(h[idx] for h in hx) if isinstance(hx, tuple) else hx[idx]
                steps = range(seq_len - 1, -1, -1) if direction == 1 else range(seq_len)
                ys = [None] * seq_len
                for t in steps:
                    state = self._cell(layer_input[t], state, *w)
                    ys[t] = state[0] if isinstance(state, tuple) else state
                outs.append(em.stack(ys, 0))
                finals.append(state)
            layer_input = outs[0] if nd == 1 else em.cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        if isinstance(finals[0], tuple):
            h_n = (em.stack([f[0] for f in finals], 0), em.stack([f[1] for f in finals], 0))
        else:
            h_n = em.stack(finals, 0)
        if unbatched:
            output = output.squeeze(1)
            h_n = tuple(h.squeeze(1) for h in h_n) if isinstance(h_n, tuple) else h_n.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, h_n


def _lin(x, w, b):
    em = _ember()
    if b is None:
        return x.matmul(w.t())
    return em.addmm(b, x, w.t())


class RNN(RNNBase):
    """Elman RNN: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or ReLU)."""

    _gates = 1

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype)

    def _init_state(self, layers, n, dtype):
        return Fac.zeros((layers, n, self.hidden_size), dtype=dtype)

    def _cell(self, x, h, w_ih, w_hh, b_ih, b_hh):
        pre = _lin(x, w_ih, b_ih) + _lin(h, w_hh, b_hh)
        return pre.tanh() if self.nonlinearity == "tanh" else pre.relu()


class LSTM(RNNBase):
    """Long short-term memory; gates in torch's order (input, forget, cell, output)."""

    _gates = 4

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)

    def _init_state(self, layers, n, dtype):
        z = Fac.zeros((layers, n, self.hidden_size), dtype=dtype)
        return (z, z)

    def _cell(self, x, state, w_ih, w_hh, b_ih, b_hh):
        h, c = state
        gates = _lin(x, w_ih, b_ih) + _lin(h, w_hh, b_hh)
        i, f, g, o = _split(gates, 4)
        c2 = f.sigmoid() * c + i.sigmoid() * g.tanh()
        h2 = o.sigmoid() * c2.tanh()
        return (h2, c2)


class GRU(RNNBase):
    """Gated recurrent unit; gates in torch's order (reset, update, new)."""

    _gates = 3

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)

    def _init_state(self, layers, n, dtype):
        return Fac.zeros((layers, n, self.hidden_size), dtype=dtype)

    def _cell(self, x, h, w_ih, w_hh, b_ih, b_hh):
        gi = _split(_lin(x, w_ih, b_ih), 3)
        gh = _split(_lin(h, w_hh, b_hh), 3)
        r = (gi[0] + gh[0]).sigmoid()
        z = (gi[1] + gh[1]).sigmoid()
        nn_ = (gi[2] + r * gh[2]).tanh()
        return (1 - z) * nn_ + z * h


def _split(t, k):
    n = t.shape[1] // k
    return [t.narrow(1, i * n, n) for i in range(k)]
