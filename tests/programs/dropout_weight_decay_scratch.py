# Models: the d2l.ai "Weight Decay" and "Dropout" chapters -- L2 penalty and inverted dropout
# written from scratch, then the concise versions (optimizer weight_decay, nn.Dropout).
import torch
from torch import nn

torch.manual_seed(0)
n_train, n_test, num_inputs, batch_size = 20, 50, 40, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


train_X, train_y = synthetic_data(true_w, true_b, n_train)
test_X, test_y = synthetic_data(true_w, true_b, n_test)
print(train_X.shape, train_y.shape, train_y[:3].T)


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def train_scratch(lambd):
    w, b = init_params()
    lr = 0.003
    for epoch in range(30):
        perm = torch.randperm(n_train)
        for i in range(0, n_train, batch_size):
            idx = perm[i : i + batch_size]
            X, y = train_X[idx], train_y[idx]
            loss = squared_loss(linreg(X, w, b), y) + lambd * l2_penalty(w)
            loss.sum().backward()
            sgd([w, b], lr, batch_size)
        if (epoch + 1) % 10 == 0:
            with torch.no_grad():
                tr = squared_loss(linreg(train_X, w, b), train_y).mean()
                te = squared_loss(linreg(test_X, w, b), test_y).mean()
            print(f"lambda={lambd} epoch {epoch + 1}: train {tr.item():.6f} test {te.item():.6f}")
    print("L2 norm of w:", torch.norm(w).item())
    return w


w0 = train_scratch(0)
w3 = train_scratch(3)
print(w3[:5].T)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    trainer = torch.optim.SGD(
        [{"params": net[0].weight, "weight_decay": wd}, {"params": net[0].bias}], lr=0.003
    )
    for epoch in range(30):
        perm = torch.randperm(n_train)
        for i in range(0, n_train, batch_size):
            idx = perm[i : i + batch_size]
            trainer.zero_grad()
            l = loss(net(train_X[idx]), train_y[idx])
            l.mean().backward()
            trainer.step()
    print("wd", wd, "w norm:", net[0].weight.norm().item(), "bias:", net[0].bias.data)
    return net


net = train_concise(0)
net = train_concise(3)
print(net)
print(torch.optim.SGD(net.parameters(), lr=0.1, weight_decay=1e-3))


# ---- dropout from scratch ----
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.0))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.0))

num_inputs, num_outputs, num_hiddens1, num_hiddens2 = 16, 4, 32, 32
dropout1, dropout2 = 0.2, 0.5


class Net(nn.Module):
    def __init__(self, is_training=True):
        super().__init__()
        self.training = is_training
        self.lin1 = nn.Linear(num_inputs, num_hiddens1)
        self.lin2 = nn.Linear(num_hiddens1, num_hiddens2)
        self.lin3 = nn.Linear(num_hiddens2, num_outputs)
        self.relu = nn.ReLU()

    def forward(self, X):
        H1 = self.relu(self.lin1(X.reshape((-1, num_inputs))))
        if self.training:
            H1 = dropout_layer(H1, dropout1)
        H2 = self.relu(self.lin2(H1))
        if self.training:
            H2 = dropout_layer(H2, dropout2)
        return self.lin3(H2)


Xc = torch.randn(64, num_inputs)
yc = (Xc[:, :4].argmax(1) + (Xc[:, 4] > 0).long()) % num_outputs
scratch = Net()
concise = nn.Sequential(
    nn.Flatten(),
    nn.Linear(num_inputs, num_hiddens1),
    nn.ReLU(),
    nn.Dropout(dropout1),
    nn.Linear(num_hiddens1, num_hiddens2),
    nn.ReLU(),
    nn.Dropout(dropout2),
    nn.Linear(num_hiddens2, num_outputs),
)
print(concise)
for model in (scratch, concise):
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(20):
        model.train()
        for i in range(0, 64, 16):
            opt.zero_grad()
            l = loss_fn(model(Xc[i : i + 16]), yc[i : i + 16])
            l.backward()
            opt.step()
        if epoch % 5 == 4:
            model.eval()
            with torch.no_grad():
                acc = (model(Xc).argmax(1) == yc).float().mean()
            print(f"{type(model).__name__} epoch {epoch + 1} loss {l.item():.4f} acc {acc:.3f}")
model.train()
print(concise[3], concise[3].p, concise[3].training)
print(concise(Xc[:2]))
concise.eval()
print(concise(Xc[:2]))
