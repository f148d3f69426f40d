# Models: the torch.func "Model ensembling" tutorial: several MLPs' parameters stacked with
# stack_module_state, a stateless base model via copy.deepcopy, vmap over functional_call with
# in_dims for the same vs different minibatches, checking against a Python loop, then
# per-model gradients with vmap(grad(...)) and an ensemble SGD step on the stacked params.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, stack_module_state, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 8)
        self.fc3 = nn.Linear(8, 3)

    def forward(self, x):
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


num_models = 4
data = torch.randn(5, 2, 3)
targets = torch.randint(3, (5,))
models = [SimpleMLP() for _ in range(num_models)]
minibatches = torch.randn(num_models, 5, 2, 3)
predictions_diff_minibatch_loop = [
    model(minibatch) for model, minibatch in zip(models, minibatches)
]
predictions2 = [model(data) for model in models]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
print(buffers)
base_model = copy.deepcopy(models[0])


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape)
print(
    torch.allclose(
        predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5
    )
)
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, data)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print(predictions2_vmap[1, 0])


def loss_fn(params, buffers, x, t):
    return F.cross_entropy(fmodel(params, buffers, x), t)


grads = vmap(grad(loss_fn), in_dims=(0, 0, None, None))(params, buffers, data, targets)
print({k: tuple(v.shape) for k, v in grads.items()})
loop_grad = torch.autograd.grad(F.cross_entropy(models[2](data), targets), models[2].fc3.bias)[0]
print(torch.allclose(grads["fc3.bias"][2], loop_grad, atol=1e-6), loop_grad)
for step in range(5):
    grads = vmap(grad(loss_fn), in_dims=(0, 0, None, None))(params, buffers, data, targets)
    params = {k: v - 0.5 * grads[k] for k, v in params.items()}
    losses = vmap(loss_fn, in_dims=(0, 0, None, None))(params, buffers, data, targets)
    print(f"step {step} per-model losses {losses.detach()}")
print(params["fc1.weight"].requires_grad, params["fc1.weight"].is_leaf)
