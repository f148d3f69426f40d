# Models: the "Saving and Loading Models" tutorial -- state_dict of a model and its optimizer,
# a general checkpoint dict with the epoch and loss, resuming training, and saving tensors.
import torch
import torch.nn as nn
import torch.optim as optim


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.bn = nn.BatchNorm1d(12)
        self.fc2 = nn.Linear(12, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


torch.manual_seed(0)
model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x, y = torch.randn(20, 6), torch.randint(0, 2, (20,))
for _ in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

torch.save(model.state_dict(), "model_weights.pth")
model2 = TheModelClass()
print(model2.load_state_dict(torch.load("model_weights.pth", weights_only=True)))
model2.eval()
model.eval()
print(torch.equal(model(x), model2(x)))

model.train()
torch.save({"epoch": 3, "model_state_dict": model.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": loss}, "checkpoint.tar")
model3 = TheModelClass()
optimizer3 = optim.SGD(model3.parameters(), lr=0.5)
checkpoint = torch.load("checkpoint.tar")
model3.load_state_dict(checkpoint["model_state_dict"])
optimizer3.load_state_dict(checkpoint["optimizer_state_dict"])
print(checkpoint["epoch"], checkpoint["loss"], optimizer3.param_groups[0]["lr"])
for m, opt in ((model, optimizer), (model3, optimizer3)):
    m.train()
    for _ in range(2):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
    print(f"{loss.item():.6f}")
torch.save({"a": torch.arange(5), "b": [torch.ones(2, 2), 3.5]}, "tensors.pt")
loaded = torch.load("tensors.pt")
print(loaded)
print(model.bn.running_mean, model.bn.num_batches_tracked)
missing = model2.load_state_dict({k: v for k, v in model.state_dict().items()
                                  if not k.startswith("fc2")}, strict=False)
print(missing)
