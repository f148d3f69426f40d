# Models: the SSD MultiBox loss from detection repos: matching priors to ground truth by IoU
# (best prior per object forced), encoded offsets with variances, smooth L1 on positives, and
# hard negative mining by sorting the background confidence loss (3:1 neg:pos ratio).
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def point_form(b):
    return torch.cat((b[:, :2] - b[:, 2:] / 2, b[:, :2] + b[:, 2:] / 2), 1)


def jaccard(a, b):
    max_xy = torch.min(a[:, None, 2:], b[None, :, 2:])
    min_xy = torch.max(a[:, None, :2], b[None, :, :2])
    inter = torch.clamp(max_xy - min_xy, min=0).prod(2)
    area_a = ((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]))[:, None]
    area_b = ((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]))[None]
    return inter / (area_a + area_b - inter)


def encode(matched, priors, variances=(0.1, 0.2)):
    g_cxcy = (matched[:, :2] + matched[:, 2:]) / 2 - priors[:, :2]
    g_cxcy /= variances[0] * priors[:, 2:]
    g_wh = (matched[:, 2:] - matched[:, :2]) / priors[:, 2:]
    g_wh = torch.log(g_wh) / variances[1]
    return torch.cat([g_cxcy, g_wh], 1)


def match(threshold, truths, priors, labels):
    overlaps = jaccard(truths, point_form(priors))
    best_prior_overlap, best_prior_idx = overlaps.max(1)
    best_truth_overlap, best_truth_idx = overlaps.max(0)
    best_truth_overlap.index_fill_(0, best_prior_idx, 2)
    for j in range(best_prior_idx.size(0)):
        best_truth_idx[best_prior_idx[j]] = j
    matches = truths[best_truth_idx]
    conf = labels[best_truth_idx] + 1
    conf[best_truth_overlap < threshold] = 0
    return encode(matches, priors), conf


cy, cx = torch.meshgrid(torch.arange(4) + 0.5, torch.arange(4) + 0.5, indexing="ij")
priors = []
for s in (0.2, 0.35):
    priors.append(
        torch.stack(
            [cx.flatten() / 4, cy.flatten() / 4, torch.full((16,), s), torch.full((16,), s)], 1
        )
    )
priors = torch.cat(priors).clamp(0, 1)
print(priors.shape)
truths = torch.tensor([[0.1, 0.1, 0.4, 0.45], [0.5, 0.55, 0.9, 0.95]])
labels = torch.tensor([2, 0])
loc_t, conf_t = match(0.5, truths, priors, labels)
print(conf_t.view(2, 4, 4))
pos = conf_t > 0
print("positives", pos.sum().item())
num_classes = 4
loc_p = torch.randn(32, 4, requires_grad=True)
conf_p = torch.randn(32, num_classes, requires_grad=True)
loss_l = F.smooth_l1_loss(loc_p[pos], loc_t[pos], reduction="sum")
loss_c_all = torch.logsumexp(conf_p, 1) - conf_p.gather(1, conf_t[:, None]).squeeze(1)
loss_c_all = loss_c_all.detach().clone()
loss_c_all[pos] = 0
_, loss_idx = loss_c_all.sort(0, descending=True)
_, idx_rank = loss_idx.sort(0)
num_neg = torch.clamp(3 * pos.sum(), max=pos.numel() - 1)
neg = idx_rank < num_neg
print("negatives", neg.sum().item(), neg.nonzero().flatten())
loss_c = F.cross_entropy(conf_p[pos | neg], conf_t[pos | neg], reduction="sum")
N = pos.sum()
loss = (loss_l + loss_c) / N
loss.backward()
print(loss_l.item(), loss_c.item(), loss.item())
print(loc_p.grad[pos][:2], conf_p.grad.abs().sum(1).gt(0).sum().item())
