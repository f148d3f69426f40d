# Models: "mixture of experts from scratch" tutorials (Switch/top-k gating as in
# makeMoE and the Switch Transformer paper): a noisy top-k router with softmax over the
# selected logits, token dispatch with nonzero/index_select/index_add_, expert capacity with
# dropped tokens, the load-balancing auxiliary loss, and a few training steps on a toy
# regression task; expert utilisation and router gradients are printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Expert(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, h), nn.GELU(), nn.Linear(h, d))

    def forward(self, x):
        return self.net(x)


class NoisyTopkRouter(nn.Module):
    def __init__(self, d, n_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.topkroute_linear = nn.Linear(d, n_experts)
        self.noise_linear = nn.Linear(d, n_experts)

    def forward(self, x):
        logits = self.topkroute_linear(x)
        noise_logits = self.noise_linear(x)
        noise = torch.randn_like(logits) * F.softplus(noise_logits)
        noisy_logits = logits + noise if self.training else logits
        top_k_logits, indices = noisy_logits.topk(self.top_k, dim=-1)
        zeros = torch.full_like(noisy_logits, float("-inf"))
        sparse_logits = zeros.scatter(-1, indices, top_k_logits)
        router_output = F.softmax(sparse_logits, dim=-1)
        return router_output, indices, F.softmax(logits, dim=-1)


class SparseMoE(nn.Module):
    def __init__(self, d, h, n_experts, top_k, capacity_factor=1.0):
        super().__init__()
        self.router = NoisyTopkRouter(d, n_experts, top_k)
        self.experts = nn.ModuleList([Expert(d, h) for _ in range(n_experts)])
        self.top_k = top_k
        self.n_experts = n_experts
        self.capacity_factor = capacity_factor

    def forward(self, x):
        batch_size, seq_len, _ = x.shape
        gating_output, indices, probs = self.router(x)
        final_output = torch.zeros_like(x)
        flat_x = x.view(-1, x.size(-1))
        flat_gating_output = gating_output.view(-1, gating_output.size(-1))
        tokens_per_batch = batch_size * seq_len * self.top_k
        expert_capacity = int((tokens_per_batch / self.n_experts) * self.capacity_factor)
        updates = torch.zeros_like(flat_x)
        self.last_counts = []
        self.dropped = 0
        for i, expert in enumerate(self.experts):
            expert_mask = (indices == i).any(dim=-1)
            flat_mask = expert_mask.view(-1)
            selected_indices = torch.nonzero(flat_mask).squeeze(-1)
            limited_indices = (
                selected_indices[:expert_capacity]
                if selected_indices.numel() > expert_capacity
                else selected_indices
            )
            self.dropped += selected_indices.numel() - limited_indices.numel()
            self.last_counts.append(limited_indices.numel())
            if limited_indices.numel() > 0:
                expert_input = flat_x[limited_indices]
                expert_output = expert(expert_input)
                gating_scores = flat_gating_output[limited_indices, i].unsqueeze(1)
                weighted_output = expert_output * gating_scores
                updates.index_add_(0, limited_indices, weighted_output)
        final_output += updates.view(batch_size, seq_len, -1)
        # switch-style load balancing: fraction of tokens per expert x mean router prob
        frac = torch.stack([(indices == i).any(-1).float().mean() for i in range(self.n_experts)])
        mean_prob = probs.view(-1, self.n_experts).mean(0)
        self.aux_loss = self.n_experts * (frac * mean_prob).sum()
        return final_output


d, h, n_experts, top_k = 8, 16, 4, 2
moe = SparseMoE(d, h, n_experts, top_k, capacity_factor=1.0)
print(moe)
x = torch.randn(2, 6, d)
moe.eval()
router_out, idx, probs = moe.router(x)
print("router output (eval):", router_out[0, :3])
print("indices:", idx[0])
print("rows sum to one:", torch.allclose(router_out.sum(-1), torch.ones(2, 6)))
moe.train()
out = moe(x)
print("out:", out.shape, "counts:", moe.last_counts, "dropped:", moe.dropped)
print("aux loss:", moe.aux_loss.item())

target = torch.tanh(x.sum(-1, keepdim=True)) * x
opt = torch.optim.AdamW(moe.parameters(), lr=5e-3)
for step in range(25):
    opt.zero_grad()
    y = moe(x)
    mse = F.mse_loss(y, target)
    loss = mse + 0.01 * moe.aux_loss
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(
            f"step {step}: mse {mse.item():.5f} aux {moe.aux_loss.item():.4f} "
            f"counts {moe.last_counts} dropped {moe.dropped}"
        )
g = moe.router.topkroute_linear.weight.grad
print("router grad norm:", g.norm().item())
print("noise grad is finite:", torch.isfinite(moe.router.noise_linear.weight.grad).all().item())
print("expert grads present:", [e.net[0].weight.grad is not None for e in moe.experts])

# dispatch bookkeeping with one_hot / bincount / cumsum (GShard-style positions)
moe.eval()
_, idx, _ = moe.router(x)
first = idx[..., 0].reshape(-1)
one_hot = F.one_hot(first, n_experts)
position_in_expert = (one_hot.cumsum(0) - 1) * one_hot
print("bincount:", torch.bincount(first, minlength=n_experts))
print("positions:", position_in_expert.sum(-1))
keep = position_in_expert.sum(-1) < 3
print("kept tokens:", keep.sum().item(), keep)
combine = torch.zeros(first.numel(), n_experts, 3).index_put_(
    (torch.arange(first.numel())[keep], first[keep], position_in_expert.sum(-1)[keep]),
    torch.ones(int(keep.sum())),
)
print("combine tensor nonzeros:", combine.nonzero().shape, combine.sum((0, 2)))
