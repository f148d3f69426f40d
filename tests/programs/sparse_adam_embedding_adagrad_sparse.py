# Models: a recommender-training snippet with sparse gradients: nn.Embedding(sparse=True),
# the sparse grad's layout and coalesced rows, SparseAdam on the embeddings and Adam on the
# dense head, Adagrad's sparse path, and the error dense optimizers raise on sparse grads.
import torch
import torch.nn as nn

torch.manual_seed(3)
emb = nn.Embedding(10, 3, sparse=True)
head = nn.Linear(3, 1)
ids = torch.tensor([[1, 2, 1], [7, 2, 0]])
out = head(emb(ids).mean(1))
out.sum().backward()
g = emb.weight.grad
print("layout", g.layout, g.is_sparse)
gc = g.coalesce()
print("rows", gc.indices(), "\nvalues\n", gc.values())
sparse_opt = torch.optim.SparseAdam(list(emb.parameters()), lr=0.1)
dense_opt = torch.optim.Adam(head.parameters(), lr=0.1)
target = torch.tensor([[1.0], [-1.0]])
for step in range(5):
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    loss = nn.functional.mse_loss(head(emb(ids).mean(1)), target)
    loss.backward()
    sparse_opt.step()
    dense_opt.step()
    print(step, round(loss.item(), 6))
print("untouched row 5", emb.weight[5])
print("state keys", sorted(sparse_opt.state[emb.weight]))
emb2 = nn.Embedding(6, 2, sparse=True)
ada = torch.optim.Adagrad(emb2.parameters(), lr=0.5)
for _ in range(3):
    ada.zero_grad()
    emb2(torch.tensor([0, 3, 3])).pow(2).sum().backward()
    ada.step()
print("adagrad\n", emb2.weight)
print("sum state", ada.state[emb2.weight]["sum"])
emb3 = nn.Embedding(4, 2, sparse=True)
emb3(torch.tensor([1])).sum().backward()
try:
    torch.optim.Adam(emb3.parameters()).step()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.optim.SparseAdam(head.parameters())
    head(torch.ones(1, 3)).sum().backward()
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
