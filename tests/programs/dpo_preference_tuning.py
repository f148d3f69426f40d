# Models: preference fine-tuning of a tiny causal LM, as in the DPO paper (Rafailov et al.
# 2023) and TRL's DPOTrainer: a frozen deep-copied reference model, per-sequence log-probs by
# gathering token log-softmax under a response mask, the DPO loss -logsigmoid(beta * margin),
# implicit rewards and reward accuracy; plus a Bradley-Terry reward model trained on the same
# chosen/rejected pairs (the RLHF reward-model step).
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, T, P = 12, 8, 3


class TinyLM(nn.Module):
    def __init__(self, d=24):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.pos = nn.Parameter(torch.randn(T, d) * 0.02)
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.ln = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 48), nn.GELU(), nn.Linear(48, d))
        self.head = nn.Linear(d, V, bias=False)

    def forward(self, ids):
        L = ids.shape[1]
        h = self.emb(ids) + self.pos[:L]
        mask = torch.triu(torch.full((L, L), float("-inf")), diagonal=1)
        a, _ = self.attn(h, h, h, attn_mask=mask, need_weights=False)
        h = self.ln(h + a)
        return self.head(h + self.mlp(h))


def sequence_logps(model, ids, resp_mask):
    logits = model(ids[:, :-1])
    logp = logits.log_softmax(-1).gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    return (logp * resp_mask[:, 1:]).sum(-1)


# prompts of P tokens; chosen responses count upwards, rejected ones repeat a token
N = 32
prompts = torch.randint(1, V, (N, P))
start = prompts[:, -1:]
chosen = torch.cat([prompts, (start + torch.arange(1, T - P + 1)) % V], 1)
rejected = torch.cat([prompts, start.expand(-1, T - P)], 1)
resp_mask = torch.zeros(N, T)
resp_mask[:, P:] = 1.0
print("example chosen", chosen[0].tolist(), "rejected", rejected[0].tolist())

policy = TinyLM()
# brief SFT on a mixture so both responses are plausible to start with
opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
mix = torch.cat([chosen, rejected])
for step in range(25):
    logits = policy(mix[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), mix[:, 1:].reshape(-1), reduction="none")
    weights = resp_mask.repeat(2, 1)[:, 1:]
    loss = (loss.view(2 * N, T - 1) * weights).sum() / weights.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("SFT loss", round(loss.item(), 5))

reference = copy.deepcopy(policy).eval()
for p in reference.parameters():
    p.requires_grad_(False)
policy.eval()  # no dropout anywhere, but DPO trainers evaluate log-probs in eval mode too
beta = 0.2
opt = torch.optim.AdamW(policy.parameters(), lr=1e-3, weight_decay=0.0)
for step in range(20):
    pi_c = sequence_logps(policy, chosen, resp_mask)
    pi_r = sequence_logps(policy, rejected, resp_mask)
    with torch.no_grad():
        ref_c = sequence_logps(reference, chosen, resp_mask)
        ref_r = sequence_logps(reference, rejected, resp_mask)
    logits = beta * ((pi_c - ref_c) - (pi_r - ref_r))
    loss = -F.logsigmoid(logits).mean()
    opt.zero_grad()
    loss.backward()
    gnorm = nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
    opt.step()
    if step % 5 == 0 or step == 19:
        r_c, r_w = beta * (pi_c - ref_c).detach(), beta * (pi_r - ref_r).detach()
        print(f"step {step:2d} dpo loss {loss.item():.5f} reward chosen {r_c.mean().item():+.5f} "
              f"rejected {r_w.mean().item():+.5f} acc {(r_c > r_w).float().mean().item():.4f} "
              f"|g| {gnorm.item():.4f}")

with torch.no_grad():
    kl = (sequence_logps(policy, chosen, resp_mask)
          - sequence_logps(reference, chosen, resp_mask)).mean()
    ids = prompts[:4].clone()
    for _ in range(T - P):
        nxt = policy(ids)[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], 1)
print("log-ratio on chosen", round(kl.item(), 4))
print("greedy continuations", ids[:, P:].tolist())


class RewardModel(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.emb = nn.EmbeddingBag(V * T, d, mode="mean")
        self.score = nn.Sequential(nn.ReLU(), nn.Linear(d, 1))

    def forward(self, ids):
        pos_ids = ids + V * torch.arange(ids.shape[1])
        return self.score(self.emb(pos_ids)).squeeze(-1)


rm = RewardModel()
opt = torch.optim.SGD(rm.parameters(), lr=0.5, momentum=0.9)
for step in range(25):
    margin = rm(chosen) - rm(rejected)
    loss = -F.logsigmoid(margin).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 24:
        print(f"reward model step {step:2d} loss {loss.item():.6f} "
              f"pairwise acc {(margin > 0).float().mean().item():.4f}")
print("reward of greedy samples", rm(ids).detach())
