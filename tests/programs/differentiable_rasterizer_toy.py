# Models: a "differentiable rendering from scratch" blog toy: soft rasterisation of 2-d circles
# (sigmoid of signed distance) composited over a background, an image loss, and gradient descent on
# circle centres, radii and colours to match a target render; gradients checked by finite
# differences.
import torch

torch.manual_seed(46)
H = W = 24
ys, xs = torch.meshgrid(torch.linspace(0, 1, H), torch.linspace(0, 1, W), indexing="ij")
grid = torch.stack([xs, ys], -1)


def render(centers, radii, colors, sharp=60.0):
    d = torch.linalg.vector_norm(grid[None] - centers[:, None, None, :], dim=-1)
    alpha = torch.sigmoid(sharp * (radii[:, None, None] - d))
    img = torch.full((H, W, 3), 0.1)
    for k in range(centers.shape[0]):
        img = alpha[k, ..., None] * colors[k] + (1 - alpha[k, ..., None]) * img
    return img


target = render(
    torch.tensor([[0.3, 0.35], [0.7, 0.6]]),
    torch.tensor([0.15, 0.2]),
    torch.tensor([[0.9, 0.2, 0.1], [0.1, 0.4, 0.9]]),
)
centers = torch.tensor([[0.45, 0.45], [0.55, 0.5]], requires_grad=True)
radii = torch.tensor([0.1, 0.1], requires_grad=True)
logits = torch.zeros(2, 3, requires_grad=True)
opt = torch.optim.Adam([centers, radii, logits], lr=0.02)
for step in range(201):
    img = render(centers, radii, torch.sigmoid(logits))
    loss = ((img - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(
            f"step {step:3d} loss {loss.item():.6f} centers "
            f"{centers.detach().numpy().round(3).tolist()}"
        )
print("radii", radii.detach(), "colors", torch.sigmoid(logits).detach())
c64 = centers.detach().double().requires_grad_(True)
r64, col64 = radii.detach().double(), torch.sigmoid(logits).detach().double()
grid = grid.double()
target = target.double()


def loss_fn(c):
    return ((render(c, r64, col64) - target) ** 2).mean()


(g,) = torch.autograd.grad(loss_fn(c64), c64)
eps = 1e-6
fd = torch.zeros_like(c64)
for i in range(2):
    for j in range(2):
        e = torch.zeros_like(c64)
        e[i, j] = eps
        fd[i, j] = (loss_fn(c64.detach() + e) - loss_fn(c64.detach() - e)) / (2 * eps)
print("autograd vs finite differences max diff < 1e-8", (g - fd).abs().max().item() < 1e-8)
print("coverage of render", (render(c64, r64, col64) > 0.2).any(-1).float().mean().item())
