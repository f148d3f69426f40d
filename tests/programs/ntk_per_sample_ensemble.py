# Models: the torch.func tutorials "Neural Tangent Kernels" (empirical NTK of a small CNN via
# jacrev + vmap, the Jacobian-contraction and NTK-vector-product methods, full/trace/diagonal
# computations), "Per-sample-gradients" (a CNN, functional_call, vmap(grad) with in_dims, checked
# against a per-sample loop) and "Model ensembling" (stack_module_state, vmap over the same or
# different minibatches, randomness= for dropout).
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, jacrev, jvp, stack_module_state, vjp, vmap

torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, (3, 3))
        self.conv2 = nn.Conv2d(8, 8, (3, 3))
        self.conv3 = nn.Conv2d(8, 8, (3, 3))
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.flatten(1)
        x = self.fc(x)
        return x


x_train = torch.randn(6, 3, 7, 7)
x_test = torch.randn(3, 3, 7, 7)
net = CNN()
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    if compute == "full":
        einsum_expr = "Naf,Mbf->NMab"
    elif compute == "trace":
        einsum_expr = "Naf,Maf->NM"
    elif compute == "diagonal":
        einsum_expr = "Naf,Maf->NMa"
    else:
        raise ValueError(compute)
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print("NTK full:", result.shape)
print(result[0, 0])
trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace")
diag = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "diagonal")
print("trace:", trace)
print("trace == sum of diagonal:", torch.allclose(trace, diag.sum(-1), rtol=1e-4, atol=1e-4))
print("diag == full diagonal:", torch.allclose(diag, result.diagonal(dim1=-2, dim2=-1), atol=1e-4))


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(
            output.numel(), -1
        )
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)
    return result


result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
print("ntk-vps shape:", result_from_ntk_vps.shape)
print("methods agree:", torch.allclose(result, result_from_ntk_vps, atol=1e-4))

# --- per-sample gradients --------------------------------------------------------------------
torch.manual_seed(1)


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 5)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


batch_size = 8
data = torch.randn(batch_size, 1, 8, 8)
targets = torch.randint(5, (batch_size,))
model = SimpleCNN()


def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))


def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    return [torch.stack(shards) for shards in sample_grads]


per_sample_grads = compute_sample_grads(data, targets)
print("loop grads:", [tuple(g.shape) for g in per_sample_grads])

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    loss = loss_fn(predictions, targets)
    return loss


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
print("vmap grads match the loop")
print("fc2.bias per-sample grads:", ft_per_sample_grads["fc2.bias"])
norms = torch.stack([g.flatten(1).norm(dim=1) for g in ft_per_sample_grads.values()]).norm(dim=0)
print("per-sample grad norms:", norms)
clipped = {
    k: g * (1.0 / torch.clamp(norms / 1.0, min=1.0)).view(-1, *[1] * (g.dim() - 1))
    for k, g in ft_per_sample_grads.items()
}
print("DP-SGD style clipped mean of fc2.bias:", clipped["fc2.bias"].mean(0))

# --- model ensembling ------------------------------------------------------------------------
torch.manual_seed(2)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 16)
        self.fc3 = nn.Linear(16, 4)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


num_models = 5
data = torch.randn(10, 6, 4, 4)
models = [SimpleMLP() for _ in range(num_models)]
minibatches = data[:num_models]
predictions_diff_minibatch_loop = [
    model(minibatch) for model, minibatch in zip(models, minibatches)
]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base_model = copy.deepcopy(models[0])


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([p.size(0) for p in params.values()])
minibatches = data[:num_models]
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print("different minibatches:", predictions1_vmap.shape)
print(
    "match:",
    torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3),
)
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(
    "same minibatch match:", torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3)
)
print(predictions2_vmap[:, 0])

# randomness inside vmap
drop = nn.Dropout(0.5)


def noisy(x):
    return drop(x)


torch.manual_seed(4)
try:
    vmap(noisy)(torch.ones(3, 4))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
same = vmap(noisy, randomness="same")(torch.ones(3, 4))
print("randomness='same' rows equal:", bool((same == same[0]).all()))
diff = vmap(noisy, randomness="different")(torch.ones(3, 4))
print("randomness='different' shape:", diff.shape, diff.sum().item() >= 0)
