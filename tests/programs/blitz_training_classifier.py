# Models: the 60-minute blitz "Neural Networks" and "Training a Classifier" pieces: LeNet on
# CIFAR-shaped random images, manual backward with a random gradient, SGD with momentum and
# per-class accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
inp = torch.randn(1, 3, 32, 32)
out = net(inp)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
print(net.conv1.bias.grad)

target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(net(inp), target)
print(loss)
print(loss.grad_fn.name())
print(loss.grad_fn.next_functions[0][0].name())
print(loss.grad_fn.next_functions[0][0].next_functions[0][0].name())
net.zero_grad()
print("conv1.bias.grad before backward")
print(net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward")
print(net.conv1.bias.grad)

learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

classes = ("plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")
images = torch.rand(160, 3, 32, 32) * 2 - 1
labels = torch.randint(0, 10, (160,))
images[torch.arange(160), labels % 3] += 0.5
trainloader = DataLoader(TensorDataset(images, labels), batch_size=4, shuffle=True)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, lbls = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, lbls)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 20 == 19:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 20:.3f}")
            running_loss = 0.0
print("Finished Training")

dataiter = iter(DataLoader(TensorDataset(images, labels), batch_size=4))
imgs, lbls = next(dataiter)
print("GroundTruth: ", " ".join(f"{classes[lbls[j]]:5s}" for j in range(4)))
outputs = net(imgs)
_, predicted = torch.max(outputs, 1)
print("Predicted: ", " ".join(f"{classes[predicted[j]]:5s}" for j in range(4)))

correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in DataLoader(TensorDataset(images, labels), batch_size=16):
        ims, lb = data
        _, predictions = torch.max(net(ims), 1)
        for label, prediction in zip(lb, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    accuracy = 100 * float(correct_count) / max(total_pred[classname], 1)
    print(f"Accuracy for class: {classname:5s} is {accuracy:.1f} %")
torch.save(net.state_dict(), "./cifar_net.pth")
net2 = Net()
print(net2.load_state_dict(torch.load("./cifar_net.pth", weights_only=True)))
print(torch.equal(net2(imgs), net(imgs)))
