"""nn.utils and optim.swa_utils as training code uses them (gradient clipping, weight and
spectral norm, pruning, packed sequences, weight averaging): torch's bits, from a table run
in both libraries on the same gradients."""

import numpy as np
import pytest

import ember
import ember.nn.utils.prune  # noqa: F401

from .helpers import outcome

torch = pytest.importorskip("torch.nn.utils.prune") and pytest.importorskip("torch")


def model(L):
    L.manual_seed(0)
    m = L.nn.Sequential(L.nn.Linear(5, 7), L.nn.Tanh(), L.nn.Linear(7, 3))
    rng = np.random.default_rng(0)
    for p in m.parameters():
        p.grad = L.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32))
    return m


def grads(m):
    return [p.grad.numpy().tobytes().hex() for p in m.parameters()]


CASES = {
    "clip_norm": lambda L: (
        lambda m: (L.nn.utils.clip_grad_norm_(m.parameters(), 0.5).item(), grads(m))
    )(model(L)),
    "clip_norm_inf": lambda L: (
        lambda m: (
            L.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type="inf").item(),
            grads(m),
        )
    )(model(L)),
    "clip_norm_1": lambda L: (
        lambda m: (L.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=1).item(), grads(m))
    )(model(L)),
    "clip_norm_noforeach": lambda L: (
        lambda m: (L.nn.utils.clip_grad_norm_(m.parameters(), 0.5, foreach=False).item(), grads(m))
    )(model(L)),
    "clip_value": lambda L: (
        lambda m: (L.nn.utils.clip_grad_value_(m.parameters(), 0.1), grads(m))
    )(model(L)),
    "get_total_norm": lambda L: (
        lambda m: L.nn.utils.get_total_norm([p.grad for p in m.parameters()]).item()
    )(model(L)),
    "p2v": lambda L: (
        L.nn.utils.parameters_to_vector(model(L).parameters()).detach().numpy().tobytes().hex()
    ),
    "weight_norm": lambda L: (
        lambda m: (
            m.weight_g.detach().numpy().tobytes().hex(),
            m.weight.detach().numpy().tobytes().hex(),
        )
    )(L.nn.utils.weight_norm(model(L)[0])),
    "param_weight_norm": lambda L: (lambda m: m.weight.detach().numpy().tobytes().hex())(
        L.nn.utils.parametrizations.weight_norm(model(L)[0])
    ),
    "spectral_norm": lambda L: (
        lambda m: (L.manual_seed(1), m.weight.detach().numpy().tobytes().hex())[1]
    )(L.nn.utils.spectral_norm(model(L)[0])),
    "param_spectral_norm": lambda L: (lambda m: m.weight.detach().numpy().tobytes().hex())(
        L.nn.utils.parametrizations.spectral_norm(model(L)[0])
    ),
    "fuse_conv_bn": lambda L: (
        lambda c, b: (
            b.eval(),
            c.eval(),
            L.nn.utils.fusion.fuse_conv_bn_eval(c, b).weight.detach().numpy().tobytes().hex(),
        )[2]
    )(L.nn.Conv2d(2, 3, 3), L.nn.BatchNorm2d(3)),
    "prune_l1": lambda L: (
        lambda m: (
            L.nn.utils.prune.l1_unstructured(m, "weight", amount=0.3),
            m.weight.detach().numpy().tobytes().hex(),
        )[1]
    )(model(L)[0]),
    "prune_random": lambda L: (
        lambda m: (
            L.manual_seed(3),
            L.nn.utils.prune.random_unstructured(m, "weight", amount=0.4),
            m.weight_mask.numpy().tobytes().hex(),
        )[2]
    )(model(L)[0]),
    "prune_ln_struct": lambda L: (
        lambda m: (
            L.nn.utils.prune.ln_structured(m, "weight", amount=0.5, n=2, dim=0),
            m.weight_mask.numpy().tobytes().hex(),
        )[1]
    )(model(L)[0]),
    "global_prune": lambda L: (
        lambda m: (
            L.nn.utils.prune.global_unstructured(
                [(m[0], "weight"), (m[2], "weight")],
                pruning_method=L.nn.utils.prune.L1Unstructured,
                amount=0.4,
            ),
            m[2].weight_mask.numpy().tobytes().hex(),
        )[1]
    )(model(L)),
    "rnn_pad": lambda L: L.nn.utils.rnn.pad_sequence(
        [L.ones(2), L.ones(3) * 2], batch_first=True, padding_value=-1
    ).tolist(),
    "rnn_pack": lambda L: (
        lambda p: (
            p.data.tolist(),
            p.batch_sizes.tolist(),
            None if p.sorted_indices is None else p.sorted_indices.tolist(),
        )
    )(
        L.nn.utils.rnn.pack_padded_sequence(
            L.arange(12.0).reshape(3, 4, 1), [2, 4, 1], batch_first=True, enforce_sorted=False
        )
    ),
    "rnn_pack_seq": lambda L: L.nn.utils.rnn.pack_sequence(
        [L.ones(3), L.ones(1)]
    ).batch_sizes.tolist(),
    "rnn_unpack": lambda L: (lambda o: (o[0].tolist(), o[1].tolist()))(
        L.nn.utils.rnn.pad_packed_sequence(
            L.nn.utils.rnn.pack_padded_sequence(
                L.arange(12.0).reshape(3, 4, 1), [2, 4, 1], batch_first=True, enforce_sorted=False
            ),
            batch_first=True,
            total_length=5,
        )
    ),
    "swa_avg": lambda L: (
        lambda m: (
            lambda s: (
                s.update_parameters(m),
                s.update_parameters(m),
                s.module[0].weight.detach().numpy().tobytes().hex(),
            )[2]
        )(L.optim.swa_utils.AveragedModel(m))
    )(model(L)),
    "ema_avg": lambda L: (
        lambda m: (
            lambda s: (
                s.update_parameters(m),
                [p.data.mul_(0.5) for p in m.parameters()],
                s.update_parameters(m),
                s.module[0].weight.detach().numpy().tobytes().hex(),
            )[3]
        )(
            L.optim.swa_utils.AveragedModel(
                m, multi_avg_fn=L.optim.swa_utils.get_ema_multi_avg_fn(0.9)
            )
        )
    )(model(L)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_utils_as_torch(name):
    assert outcome(ember, CASES[name]) == outcome(torch, CASES[name])
