# Models: nanoGPT's model utilities: configure_optimizers splitting parameters into decay /
# no-decay groups by dimensionality, the inspect.signature check for AdamW's `fused`,
# get_num_params excluding position embeddings, crop_block_size surgery on a Parameter,
# _init_weights with the scaled residual init (c_proj), estimate of FLOPs per token, and a
# few training steps with a cosine-with-warmup get_lr function.
import inspect
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1337)


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = nn.MultiheadAttention(n_embd, n_head, batch_first=True, bias=False)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.ModuleDict(
            dict(c_fc=nn.Linear(n_embd, 4 * n_embd), c_proj=nn.Linear(4 * n_embd, n_embd))
        )

    def forward(self, x, mask):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp.c_proj(F.gelu(self.mlp.c_fc(self.ln_2(x))))


class GPT(nn.Module):
    def __init__(self, vocab_size=20, block_size=16, n_layer=2, n_head=2, n_embd=16):
        super().__init__()
        self.block_size = block_size
        self.transformer = nn.ModuleDict(
            dict(
                wte=nn.Embedding(vocab_size, n_embd),
                wpe=nn.Embedding(block_size, n_embd),
                h=nn.ModuleList([Block(n_embd, n_head) for _ in range(n_layer)]),
                ln_f=nn.LayerNorm(n_embd),
            )
        )
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))
        print("number of parameters: %.4fK" % (self.get_num_params() / 1e3,))  # noqa: UP031

    def get_num_params(self, non_embedding=True):
        n_params = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n_params -= self.transformer.wpe.weight.numel()
        return n_params

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        assert t <= self.block_size, (
            f"Cannot forward sequence of length {t}, block size is only {self.block_size}"
        )
        pos = torch.arange(0, t, dtype=torch.long)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        for block in self.transformer.h:
            x = block(x, mask)
        x = self.transformer.ln_f(x)
        logits = self.lm_head(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(
                logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1
            )
        return logits, loss

    def crop_block_size(self, block_size):
        assert block_size <= self.block_size
        self.block_size = block_size
        self.transformer.wpe.weight = nn.Parameter(self.transformer.wpe.weight[:block_size])

    def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
        param_dict = {pn: p for pn, p in self.named_parameters()}
        param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [
            {"params": decay_params, "weight_decay": weight_decay},
            {"params": nodecay_params, "weight_decay": 0.0},
        ]
        num_decay_params = sum(p.numel() for p in decay_params)
        num_nodecay_params = sum(p.numel() for p in nodecay_params)
        print(
            f"num decayed parameter tensors: {len(decay_params)}, with {num_decay_params:,} "
            f"parameters"
        )
        print(
            f"num non-decayed parameter tensors: {len(nodecay_params)}, with "
            f"{num_nodecay_params:,} parameters"
        )
        fused_available = "fused" in inspect.signature(torch.optim.AdamW).parameters
        use_fused = fused_available and device_type == "cuda"
        extra_args = dict(fused=True) if use_fused else dict()
        optimizer = torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, **extra_args)
        print(f"using fused AdamW: {use_fused} (available: {fused_available})")
        return optimizer


model = GPT()
print("tied:", model.lm_head.weight is model.transformer.wte.weight)
print("c_proj std ~", round(model.transformer.h[0].mlp.c_proj.weight.std().item(), 4))
optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cpu")
print(
    [len(g["params"]) for g in optimizer.param_groups],
    [g["weight_decay"] for g in optimizer.param_groups],
)
warmup_iters, lr_decay_iters, learning_rate, min_lr = 3, 15, 6e-3, 6e-4


def get_lr(it):
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (learning_rate - min_lr)


data = torch.arange(200) % 20
for it in range(16):
    lr = get_lr(it)
    for g in optimizer.param_groups:
        g["lr"] = lr
    ix = torch.randint(len(data) - 17, (4,))
    X = torch.stack([data[i : i + 16] for i in ix])
    Y = torch.stack([data[i + 1 : i + 17] for i in ix])
    _, loss = model(X, Y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if it % 5 == 0:
        print(f"iter {it}: loss {loss.item():.4f}, lr {lr:.6f}, norm {norm.item():.4f}")

model.crop_block_size(8)
print("cropped wpe", tuple(model.transformer.wpe.weight.shape), model.block_size)
logits, loss = model(torch.zeros(1, 8, dtype=torch.long))
print(logits.shape, loss)
try:
    model(torch.zeros(1, 9, dtype=torch.long))
except AssertionError as e:
    print("AssertionError:", e)
N = model.get_num_params()
L, H, Q, T = 2, 2, 8, 8
flops_per_token = 6 * N + 12 * L * H * Q * T
print("flops per token", flops_per_token)
