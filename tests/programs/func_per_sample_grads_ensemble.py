# Models: the torch.func tutorials (per-sample gradients and model ensembling): functional_call
# with parameter and buffer dicts, stack_module_state, vmap with in_dims over (params, data),
# randomness="different"/"same" with dropout, grad with has_aux, jacrev/jacfwd/hessian on a
# small network, vjp/jvp/linearize, and comparison against a Python loop.
import copy

import torch
import torch.nn.functional as F
from torch import nn
from torch.func import (
    functional_call,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    stack_module_state,
    vjp,
    vmap,
)

torch.manual_seed(0)


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.fc1 = nn.Linear(4 * 3 * 3, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc1(x), dim=1)


model = SimpleCNN()
data = torch.randn(8, 1, 8, 8)
targets = torch.randint(10, (8,))


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


def compute_grad(sample, target):
    sample, target = sample.unsqueeze(0), target.unsqueeze(0)
    loss = loss_fn(model(sample), target)
    return torch.autograd.grad(loss, list(model.parameters()))


per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(8)]
per_sample_grads = list(zip(*per_sample_grads))
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)


ft_compute_sample_grad = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))
ft = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, (name, ft_g) in zip(per_sample_grads, ft.items()):
    print(name, tuple(ft_g.shape), torch.allclose(per_sample_grad, ft_g, atol=3e-3, rtol=1e-5))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


models = [MLP() for _ in range(4)]
minibatches = torch.randn(4, 5, 6)
predictions_diff_minibatch_loop = [m(minibatches[i]) for i, m in enumerate(models)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base_model = copy.deepcopy(models[0])


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


preds = vmap(fmodel, randomness="different")(params, buffers, minibatches)
print(preds.shape, torch.allclose(preds, torch.stack(predictions_diff_minibatch_loop), atol=1e-6))
for m in models:
    m.eval()
preds_same = vmap(fmodel, in_dims=(0, 0, None), randomness="same")(params, buffers, minibatches[0])
print(preds_same.shape, preds_same[0, 0])


def f(x):
    return x.sin().sum() * x.cos().mean(), x.norm()


g, aux = grad(f, has_aux=True)(torch.tensor([0.1, 0.2, 0.3]))
print(g, aux)
gv = grad_and_value(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))
print(gv)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x0 = torch.randn(3)
J1 = jacrev(net)(x0)
J2 = jacfwd(net)(x0)
print(J1.shape, torch.allclose(J1, J2, atol=1e-6))
H = hessian(lambda x: net(x).pow(2).sum())(x0)
print(H.shape, torch.allclose(H, H.T, atol=1e-6))
net_params = {k: v.detach() for k, v in net.named_parameters()}


def fnet(x):
    return functional_call(net, net_params, (x,))


out, vjp_fn = vjp(fnet, x0)
print(out, vjp_fn(torch.ones(2)))
print(jvp(fnet, (x0,), (torch.ones(3),)))
out, jvp_fn = linearize(torch.sin, torch.tensor([0.0, 1.0, 2.0]))
print(out, jvp_fn(torch.ones(3)))
batched_J = vmap(jacrev(net))(torch.randn(5, 3))
print(batched_J.shape)
