# Models: the error handling scripts carry: try/except around shape mismatches in matmul, cat,
# view, expand and broadcasting; device/dtype mismatches in index_select, scatter and
# embedding; out-of-range indices in gather/embedding/one_hot; bad arguments to optimizers,
# DataLoader and nn layers; and the messages printed by a training-loop guard.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
cases = {
    "matmul": lambda: torch.randn(2, 3) @ torch.randn(4, 5),
    "bmm": lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 5)),
    "cat": lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]),
    "stack": lambda: torch.stack([torch.randn(2), torch.randn(3)]),
    "view": lambda: torch.randn(4, 6).t().view(24),
    "reshape": lambda: torch.randn(5).reshape(2, 3),
    "expand": lambda: torch.randn(3, 2).expand(3, 4),
    "broadcast": lambda: torch.randn(3, 4) + torch.randn(2, 4),
    "index_select": lambda: torch.randn(3).index_select(0, torch.tensor([0.0])),
    "gather_oob": lambda: torch.randn(2, 3).gather(1, torch.tensor([[0], [3]])),
    "scatter_dtype": lambda: torch.zeros(3).scatter_(0, torch.tensor([0]),
                                                      torch.ones(1, dtype=torch.float64)),
    "embedding_oob": lambda: nn.Embedding(5, 2)(torch.tensor([5])),
    "embedding_float": lambda: nn.Embedding(5, 2)(torch.tensor([1.0])),
    "one_hot": lambda: F.one_hot(torch.tensor([3]), 3),
    "cross_entropy_target": lambda: F.cross_entropy(torch.randn(2, 3), torch.tensor([0, 3])),
    "cross_entropy_dtype": lambda: F.cross_entropy(torch.randn(2, 3),
                                                   torch.tensor([0.0, 1.0, 2.0])),
    "mse_shape": lambda: F.mse_loss(torch.randn(2, 3), torch.randn(3, 2)),
    "bce_range": lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])),
    "linear_in": lambda: nn.Linear(3, 2)(torch.randn(4, 5)),
    "conv_channels": lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 2, 8, 8)),
    "conv_small": lambda: nn.Conv2d(1, 1, 5)(torch.randn(1, 1, 3, 3)),
    "lstm_dim": lambda: nn.LSTM(4, 3)(torch.randn(5, 2, 6)),
    "bn_batch": lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)),
    "item": lambda: torch.randn(2).item(),
    "bool": lambda: bool(torch.tensor([1, 2])),
    "numpy_grad": lambda: torch.ones(2, requires_grad=True).numpy(),
    "backward_nonscalar": lambda: (torch.ones(2, requires_grad=True) * 2).backward(),
    "no_grad_backward": lambda: torch.ones(2).sum().backward(),
    "leaf_inplace": lambda: torch.ones(2, requires_grad=True).add_(1),
    "sgd_lr": lambda: torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=-0.1),
    "adam_betas": lambda: torch.optim.Adam([nn.Parameter(torch.ones(1))], betas=(1.0, 0.9)),
    "dataloader_bs": lambda: torch.utils.data.DataLoader([1, 2], batch_size=0),
    "dropout_p": lambda: nn.Dropout(1.5),
    "arange_step": lambda: torch.arange(0, 5, 0),
    "randint_range": lambda: torch.randint(5, 2, (3,)),
    "multinomial": lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1),
    "normal_std": lambda: torch.normal(torch.zeros(2), torch.tensor([1.0, -1.0])),
    "cholesky": lambda: torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
    "inv": lambda: torch.linalg.inv(torch.zeros(2, 2)),
    "solve_shape": lambda: torch.linalg.solve(torch.eye(3), torch.ones(2)),
    "squeeze_dim": lambda: torch.randn(2, 3).squeeze(5),
    "permute": lambda: torch.randn(2, 3).permute(0, 0),
    "topk": lambda: torch.randn(3).topk(4),
    "split": lambda: torch.randn(4).split([1, 2]),
    "chunk0": lambda: torch.randn(4).chunk(0),
    "max_empty": lambda: torch.tensor([]).max(),
    "int_div_zero": lambda: torch.tensor([1]) // torch.tensor([0]),
    "pad_neg": lambda: F.pad(torch.randn(1, 2), (3, 3), mode="reflect"),
    "interpolate": lambda: F.interpolate(torch.randn(1, 1, 4), scale_factor=2, mode="bilinear"),
    "softmax_dim": lambda: F.softmax(torch.randn(2, 3), dim=2),
}
for name, fn in cases.items():
    try:
        out = fn()
        print(f"{name}: no error ->", out if not isinstance(out, torch.Tensor) else out.shape)
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
