"""``nn.utils.rnn``: padded and packed batches of variable-length sequences.

A :class:`PackedSequence` holds the time steps of a batch sorted by decreasing length, step
after step (``data``), with the number of sequences still running at each step
(``batch_sizes``); the recurrent layers accept one directly. The ops keep torch's graph:
packing is one ``PackPaddedSequenceBackward0`` node, padding writes slices of a filled tensor
(``CopySlices``).
"""

from __future__ import annotations

from collections import namedtuple as _namedtuple

import numpy as _np

from ... import _dtype as _D
from ... import _factories as _Fac
from ..._ops.registry import NONE as _NONE
from ..._ops.registry import op as _op
from ..._tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]


class PackedSequence(_namedtuple("PackedSequence",
                                ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """The packed form of a batch of sequences (made by :func:`pack_padded_sequence`)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != "cpu":
                raise ValueError("batch_sizes should always be on CPU. Instances of "
                                 "PackedSequence should never be created manually. They should "
                                 "be instantiated by functions like pack_sequence and "
                                 "pack_padded_sequences in nn.utils.rnn. "
                                 "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn."
                                 "pack_sequence")
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        data, batch_sizes = data[0], data[1]
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with_data(self, data):
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """``data`` converted (``batch_sizes`` stays on the CPU)."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else self._with_data(data)

    def cpu(self, *args, **kwargs) -> PackedSequence:
        return self.to("cpu")

    def cuda(self, *args, **kwargs) -> PackedSequence:
        return self._with_data(self.data.cuda(*args, **kwargs))

    def double(self) -> PackedSequence:
        return self.to(dtype=_D.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=_D.float32)

    def half(self) -> PackedSequence:
        return self.to(dtype=_D.float16)

    def long(self) -> PackedSequence:
        return self.to(dtype=_D.int64)

    def int(self) -> PackedSequence:
        return self.to(dtype=_D.int32)

    def short(self) -> PackedSequence:
        return self.to(dtype=_D.int16)

    def char(self) -> PackedSequence:
        return self.to(dtype=_D.int8)

    def byte(self) -> PackedSequence:
        return self.to(dtype=_D.uint8)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse of an index permutation (``None`` stays ``None``)."""
    if permutation is None:
        return None
    inv = _np.empty_like(permutation._data)
    inv[permutation._data] = _np.arange(permutation.numel(), dtype=inv.dtype)
    return Tensor._wrap(inv)


def _pack_index(lengths, batch: int) -> _np.ndarray:
    """Flat (time-major) positions of the packed elements, and the batch sizes."""
    lens = _np.asarray(lengths, dtype=_np.int64)
    batch_sizes = _np.array([(lens > i).sum() for i in range(int(lens[0]))], dtype=_np.int64)
    idx = _np.concatenate([t * batch + _np.arange(bs) for t, bs in enumerate(batch_sizes)])
    return idx, batch_sizes


@_op("PackPaddedSequenceBackward0", name="_pack_padded_sequence", method=False,
    function=False, promote=_NONE, outputs=2,
    input=lambda grads, input_shape, lengths, batch_first:
        _pack_padded_sequence_backward(grads[0], input_shape, lengths, batch_first))
def _pack_padded_sequence_op(input, lengths, batch_first):
    x = _np.swapaxes(input, 0, 1) if batch_first else input
    idx, batch_sizes = _pack_index(lengths, x.shape[1])
    return x.reshape(x.shape[0] * x.shape[1], *x.shape[2:])[idx], batch_sizes


def _pack_padded_sequence_backward(grad, input_shape, lengths, batch_first):
    shape = list(input_shape)
    if batch_first:
        shape[0], shape[1] = shape[1], shape[0]
    t, b = shape[0], shape[1]
    idx = Tensor._wrap(_pack_index(lengths, b)[0])
    out = grad.new_zeros((t * b, *shape[2:])).index_add(0, idx, grad).view(*shape)
    return out.transpose(0, 1) if batch_first else out


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``(T, B, *)`` (``(B, T, *)`` if ``batch_first``) of sequences of the
    given ``lengths`` (decreasing, unless ``enforce_sorted=False``)."""
    if not isinstance(lengths, Tensor):
        lengths = _Fac.as_tensor(lengths, dtype=_D.int64)
    else:
        lengths = lengths.to(dtype=_D.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths.dim() != 1:
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D cpu Long tensor")
    lens = lengths._data
    if lens.size and _np.any(lens[:-1] < lens[1:]):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if lens.size == 0 or lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    steps = input.shape[1 if batch_first else 0]
    if lens[0] > steps:
        raise RuntimeError(f"the longest length in 'lengths' ({int(lens[0])}) exceeds the "
                           f"input's {steps} time steps")
    if lens.size != input.shape[0 if batch_first else 1]:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{lens.size} (batch_size={input.shape[0 if batch_first else 1]})")
    data, batch_sizes = _pack_padded_sequence_op(input, tuple(lens.tolist()), batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length: int | None = None):
    """Unpack to ``(padded batch, lengths)``: the inverse of :func:`pack_padded_sequence`."""
    batch_sizes = sequence.batch_sizes._data.tolist()
    max_seq_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    b = batch_sizes[0]
    out = _Fac.full((max_seq_length, b, *data.shape[1:]), padding_value, dtype=data.dtype)
    off = 0
    for t, bs in enumerate(batch_sizes):
        out[t, :bs] = data[off:off + bs]
        off += bs
    lengths = _np.zeros(b, dtype=_np.int64)
    for bs in batch_sizes:
        lengths[:bs] += 1
    lengths = Tensor._wrap(lengths)
    if batch_first:
        out = out.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        return (out.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices])
    return out, lengths


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack sequences of different lengths into one padded tensor ``(T, B, *)`` (or
    ``(B, T, *)``), padding on ``padding_side``."""
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if padding_side not in ("left", "right"):
        raise RuntimeError("Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    n = len(sequences)
    dims = (n, max_len, *trailing) if batch_first else (max_len, n, *trailing)
    out = _Fac.full(dims, padding_value, dtype=sequences[0].dtype)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out[i, start:start + length] = seq
        else:
            out[start:start + length, i] = seq
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False):
    """The list of sequences of a padded batch, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(length)] for seq, length in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of variable-length sequences (longest first, unless not enforced)."""
    lengths = _Fac.as_tensor([v.size(0) for v in sequences], dtype=_D.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    """The list of sequences of a packed batch."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


del annotations  # keep dir() to torch's names
