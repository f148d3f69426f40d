# Models: the Hogwild example from pytorch/examples (mnist_hogwild): a model's parameters are
# moved to shared memory with model.share_memory(), worker processes started with
# torch.multiprocessing (fork) train it in turn, and the parent sees their updates; also a
# shared tensor filled by workers through a Queue-free index split, and is_shared checks.
import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 4, generator=g)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    return x, y


def train(rank, model, steps):
    torch.manual_seed(100 + rank)
    x, y = make_data(64, rank)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    for _ in range(steps):
        idx = torch.randint(0, 64, (16,))
        opt.zero_grad()
        loss = F.cross_entropy(model(x[idx]), y[idx])
        loss.backward()
        opt.step()


def fill(rank, buf):
    buf[rank] = torch.arange(4, dtype=torch.float32) * (rank + 1)


if __name__ == "__main__":
    ctx = mp.get_context("fork")
    model = Net()
    print("shared before:", all(p.is_shared() for p in model.parameters()))
    model.share_memory()
    print("shared after:", all(p.is_shared() for p in model.parameters()))
    x_test, y_test = make_data(200, 99)
    with torch.no_grad():
        print(f"initial loss {F.cross_entropy(model(x_test), y_test).item():.4f}")
    w_before = model.fc2.weight.detach().clone()

    for rank in range(3):
        p = ctx.Process(target=train, args=(rank, model, 20))
        p.start()
        p.join()
        print("worker", rank, "exitcode", p.exitcode)
        with torch.no_grad():
            loss = F.cross_entropy(model(x_test), y_test).item()
            acc = (model(x_test).argmax(1) == y_test).float().mean().item()
        print(f"  after worker {rank}: loss {loss:.4f} acc {acc:.3f}")

    print("weights changed in parent:", not torch.equal(w_before, model.fc2.weight))
    print("fc2 bias", model.fc2.bias.detach())

    buf = torch.zeros(3, 4).share_memory_()
    procs = [ctx.Process(target=fill, args=(r, buf)) for r in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    print("filled by workers:")
    print(buf)
    print("buf is_shared", buf.is_shared(), "sum", buf.sum().item())
    plain = torch.zeros(3, 4)
    q = ctx.Process(target=fill, args=(0, plain))
    q.start()
    q.join()
    print("unshared tensor unchanged in parent:", plain.sum().item(), "exitcode", q.exitcode)
