# Models: nearest-neighbour retrieval code (kNN-LM / few-shot evaluation style): torch.cdist
# with its matrix-multiply and direct compute modes, p=1/inf distances, batched cdist, pdist
# condensed distances, cosine similarity matrices, top-k neighbours with ties, majority votes
# via mode/bincount, distance-weighted voting, and recall@k.
import torch
import torch.nn.functional as F

torch.manual_seed(80)
n_db, n_q, d, n_cls = 60, 8, 16, 4
protos = torch.randn(n_cls, d) * 2
db_y = torch.arange(n_db) % n_cls
db = protos[db_y] + torch.randn(n_db, d)
q_y = torch.randint(0, n_cls, (n_q,))
qs = protos[q_y] + torch.randn(n_q, d)
d_mm = torch.cdist(qs, db, compute_mode="use_mm_for_euclid_dist")
d_direct = torch.cdist(qs, db, compute_mode="donot_use_mm_for_euclid_dist")
d_default = torch.cdist(qs, db)
print(d_mm[0, :5], d_direct[0, :5], d_default[0, :5])
print("max |mm - direct|", (d_mm - d_direct).abs().max())
big_q, big_db = torch.randn(30, d), torch.randn(40, d)
print(torch.cdist(big_q, big_db)[0, :4], torch.cdist(big_q, big_db, p=2.0)[-1, -3:])
print(torch.cdist(qs, db, p=1)[0, :4], torch.cdist(qs, db, p=float("inf"))[0, :4])
print(torch.cdist(qs, db, p=0)[0, :4], torch.cdist(qs, db, p=3)[0, :3])
batched = torch.cdist(torch.randn(2, 5, 3), torch.randn(2, 6, 3))
print(batched.shape, batched[1, 0])
pd = torch.pdist(qs)
print(pd.shape, pd[:5], torch.pdist(qs, p=1)[:3])
iu = torch.triu_indices(n_q, n_q, offset=1)
print(torch.allclose(pd, d_direct.new_tensor(torch.cdist(qs, qs)[iu[0], iu[1]]), atol=1e-5))
k = 5
knn = d_mm.topk(k, largest=False)
print(knn.values[:2], knn.indices[:2])
votes = db_y[knn.indices]
print("votes", votes)
pred_mode = votes.mode(dim=1).values
counts = torch.stack([torch.bincount(v, minlength=n_cls) for v in votes])
pred_count = counts.argmax(1)
w = 1.0 / (knn.values + 1e-6)
weighted = torch.zeros(n_q, n_cls).scatter_add_(1, votes, w)
print(pred_mode, pred_count, weighted.argmax(1), q_y)
print("acc", (weighted.argmax(1) == q_y).float().mean())
cos = F.normalize(qs, dim=1) @ F.normalize(db, dim=1).T
print(cos[0, :4], F.cosine_similarity(qs[:1], db[:4]))
hits = (db_y[cos.topk(10).indices] == q_y[:, None])
for kk in (1, 5, 10):
    print(f"recall@{kk}", hits[:, :kk].any(1).float().mean().item())
tie = torch.tensor([[1.0, 0.5, 0.5, 0.5, 2.0]])
print(tie.topk(3, largest=False), tie.sort(stable=True))
print(torch.cdist(torch.zeros(1, 3), torch.zeros(2, 3)), torch.cdist(qs[:2], qs[:2]).diagonal())
x = qs[:3].clone().requires_grad_()
torch.cdist(x, db[:4]).sum().backward()
print(x.grad[0])
