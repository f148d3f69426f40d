# Models: a training-recipe post on scheduler composition: SequentialLR of LinearLR warmup and
# PolynomialLR decay, ChainedScheduler of ConstantLR and ExponentialLR, MultiplicativeLR,
# get_last_lr per epoch, state_dict contents, and the milestone mismatch error.
import torch
from torch.optim import SGD
from torch.optim.lr_scheduler import (
    ChainedScheduler,
    ConstantLR,
    ExponentialLR,
    LinearLR,
    MultiplicativeLR,
    PolynomialLR,
    SequentialLR,
    StepLR,
)

p = [torch.nn.Parameter(torch.zeros(2))]
opt = SGD(p, lr=0.1, momentum=0.9)
warm = LinearLR(opt, start_factor=0.1, total_iters=3)
decay = PolynomialLR(opt, total_iters=6, power=2.0)
sched = SequentialLR(opt, [warm, decay], milestones=[3])
for epoch in range(10):
    opt.step()
    sched.step()
    print(epoch, [round(x, 8) for x in sched.get_last_lr()])

opt2 = SGD(p, lr=1.0)
chain = ChainedScheduler([ConstantLR(opt2, factor=0.5, total_iters=2),
                          ExponentialLR(opt2, gamma=0.9)])
for epoch in range(5):
    opt2.step()
    chain.step()
    print("chain", epoch, chain.get_last_lr())

opt3 = SGD([torch.nn.Parameter(torch.zeros(1)), ], lr=0.5)
opt3.add_param_group({"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.05})
mult = MultiplicativeLR(opt3, lr_lambda=[lambda e: 0.95, lambda e: 0.5 if e % 2 else 1.0])
for epoch in range(4):
    opt3.step()
    mult.step()
    print("mult", mult.get_last_lr())
sd = sched.state_dict()
print(sorted(sd))
print(sd["_milestones"], sd["last_epoch"])
st = StepLR(opt2, step_size=2, gamma=0.5)
print(st.state_dict())
try:
    SequentialLR(opt, [warm, decay], milestones=[3, 5])
except ValueError as e:
    print("ValueError:", e)
