# Models: user code that records the warnings torch raises (warnings.catch_warnings) and prints
# each category and message: deprecated arguments, shape-mismatch losses, non-leaf .grad,
# scheduler ordering, non-writable NumPy arrays and tensor copy-construction.
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
        except Exception as e:
            result = f"{type(e).__name__}: {e}"
    print(f"== {label}: {len(caught)} warning(s)")
    for w in caught:
        print(f"   {w.category.__name__}: {str(w.message)}")
    return result


torch.manual_seed(0)
show("copy-construct", lambda: torch.tensor(torch.ones(2)))
show("mse size mismatch", lambda: F.mse_loss(torch.ones(3, 1), torch.ones(3)))
show("l1 size mismatch", lambda: nn.L1Loss()(torch.ones(4), torch.ones(4, 1)))
show("size_average", lambda: nn.MSELoss(size_average=False))
show("reduce=False", lambda: nn.CrossEntropyLoss(reduce=False))


def nonleaf():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.sum().backward()
    return b.grad


print(show("non-leaf grad", nonleaf))
arr = np.arange(4.0)
arr.setflags(write=False)
print(show("read-only numpy", lambda: torch.from_numpy(arr)))


def scheduler_order():
    p = nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD([p], lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1)
    sched.step()
    return opt.param_groups[0]["lr"]


print(show("scheduler before optimizer", scheduler_order))
show("softmax implicit dim", lambda: F.softmax(torch.ones(2, 3)))
show("log_softmax implicit dim", lambda: F.log_softmax(torch.ones(3)))
show("nn.Softmax()", lambda: nn.Softmax()(torch.ones(2, 2)))
show("upsample", lambda: F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2))
show("sigmoid", lambda: F.sigmoid(torch.zeros(1)))
show("tanh", lambda: F.tanh(torch.zeros(1)))
show("range", lambda: torch.range(0, 3))
show("clip_grad_norm", lambda: nn.utils.clip_grad_norm(nn.Linear(2, 2).parameters(), 1.0))
show("meshgrid", lambda: torch.meshgrid(torch.arange(2), torch.arange(3)))
show("dropout on 1d", lambda: F.dropout2d(torch.ones(3, 4)))
show("kl_div mean", lambda: F.kl_div(torch.zeros(2, 3), torch.full((2, 3), 1 / 3)))
show("lstm dropout single layer", lambda: nn.LSTM(3, 4, num_layers=1, dropout=0.5))
show("bce size mismatch", lambda: F.binary_cross_entropy(torch.full((3,), 0.5), torch.ones(3, 1)))
show("chained cuda check", lambda: torch.cuda.is_available())
show("std with one element", lambda: torch.ones(1).std())
show("var dof", lambda: torch.ones(2, 1).var(0, correction=2))
show("nonzero no as_tuple", lambda: torch.tensor([0, 1, 2]).nonzero())
show("floor_divide", lambda: torch.floor_divide(torch.tensor([5, -5]), 2))
show("lu", lambda: torch.lu(torch.eye(2)))
show("symeig gone", lambda: torch.symeig(torch.eye(2)))
show("tensor.T on 3-D", lambda: torch.ones(2, 3, 4).T.shape)
show("grad of integer", lambda: torch.ones(2, dtype=torch.long).requires_grad_())
