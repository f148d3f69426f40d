# Models: MoCo v2 (He et al.) and supervised contrastive learning (Khosla et al.) as their
# reference code writes them: a momentum-updated key encoder, a negative queue kept in a
# registered buffer with a pointer, InfoNCE as cross-entropy with label 0, and the SupCon loss
# with its positive mask, logits_mask and the max-subtracted log-softmax.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(13)


class MoCo(nn.Module):
    def __init__(self, dim=8, K=24, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        bs = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % bs == 0
        self.queue[:, ptr:ptr + bs] = keys.T
        self.queue_ptr[0] = (ptr + bs) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


def supcon_loss(features, labels, temperature=0.1, base_temperature=0.1):
    bsz, n_views = features.shape[:2]
    mask = torch.eq(labels.view(-1, 1), labels.view(1, -1)).float()
    contrast = torch.cat(torch.unbind(features, dim=1), dim=0)
    anchor_dot = torch.div(torch.matmul(contrast, contrast.T), temperature)
    logits_max, _ = torch.max(anchor_dot, dim=1, keepdim=True)
    logits = anchor_dot - logits_max.detach()
    mask = mask.repeat(n_views, n_views)
    logits_mask = torch.scatter(torch.ones_like(mask), 1,
                                torch.arange(bsz * n_views).view(-1, 1), 0)
    mask = mask * logits_mask
    exp_logits = torch.exp(logits) * logits_mask
    log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
    pos = mask.sum(1)
    pos = torch.where(pos < 1e-6, torch.ones_like(pos), pos)
    mean_log_prob_pos = (mask * log_prob).sum(1) / pos
    loss = -(temperature / base_temperature) * mean_log_prob_pos
    return loss.view(n_views, bsz).mean()


model = MoCo()
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
protos = torch.randn(3, 10)
for step in range(12):
    cls = torch.randint(0, 3, (8,))
    base = protos[cls] + 0.3 * torch.randn(8, 10)
    im_q = base + 0.2 * torch.randn_like(base)
    im_k = base + 0.2 * torch.randn_like(base)
    logits, labels = model(im_q, im_k)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == 0).float().mean()
    print(f"step {step:2d} loss {loss.item():.5f} acc@1 {acc.item():.3f} "
          f"ptr {model.queue_ptr.item()}")
print(logits.shape, model.queue.norm(dim=0)[:5])
diff = sum((a - b).abs().sum() for a, b in zip(model.encoder_q.parameters(),
                                                model.encoder_k.parameters()))
print("q-k distance", diff)
print([n for n, _ in model.named_buffers()], model.encoder_k[0].weight.requires_grad)
feats = F.normalize(torch.randn(6, 2, 5), dim=-1).requires_grad_()
lab = torch.tensor([0, 1, 0, 2, 1, 0])
loss = supcon_loss(feats, lab)
loss.backward()
print(loss, feats.grad[0])
print(supcon_loss(feats.detach(), torch.arange(6)))
z1, z2 = F.normalize(torch.randn(5, 4), dim=1), F.normalize(torch.randn(5, 4), dim=1)
sim = z1 @ z2.T / 0.5
print(F.cross_entropy(sim, torch.arange(5)), F.cross_entropy(sim.T, torch.arange(5)))
