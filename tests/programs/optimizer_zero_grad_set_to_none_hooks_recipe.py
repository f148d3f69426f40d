# Models: optimizer-hook recipes: Optimizer.register_step_pre_hook / register_step_post_hook
# for logging and gradient scaling, register_load_state_dict_pre_hook, zero_grad(set_to_none)
# effects on momentum, Module.register_full_backward_hook printing grad norms per layer.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
log = []


def pre_hook(optimizer, args, kwargs):
    total = sum(
        p.grad.norm() ** 2
        for g in optimizer.param_groups
        for p in g["params"]
        if p.grad is not None
    )
    log.append(("pre", round(float(total.sqrt()), 6)))


def post_hook(optimizer, args, kwargs):
    log.append(("post", len(optimizer.state)))


h1 = opt.register_step_pre_hook(pre_hook)
h2 = opt.register_step_post_hook(post_hook)
norms = {}


def bw_hook(module, grad_input, grad_output):
    norms[type(module).__name__ + str(id(module) % 1 * 0)] = grad_output[0].norm().item()
    print(
        type(module).__name__,
        [None if g is None else tuple(g.shape) for g in grad_input],
        tuple(grad_output[0].shape),
    )


hb = model[2].register_full_backward_hook(bw_hook)
x, y = torch.randn(5, 4), torch.randn(5, 1)
for step in range(3):
    opt.zero_grad(set_to_none=(step != 1))
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(log)
h1.remove()
h2.remove()
hb.remove()
opt.step()
print(len(log))
sd = opt.state_dict()
seen = []
opt.register_load_state_dict_pre_hook(lambda o, s: seen.append(sorted(s)))
opt.register_load_state_dict_post_hook(lambda o: seen.append(len(o.state)))
opt.load_state_dict(sd)
print(seen)
print(opt.state[model[0].weight]["momentum_buffer"][0])
opt.zero_grad()
print(model[0].weight.grad)
