# Models: the "Training a Classifier" (CIFAR-10) tutorial's Net -- conv, max-pool, three fully
# connected layers, SGD with momentum -- on synthetic 3x32x32 images, then per-class accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
classes = ("plane", "car", "bird", "cat")
images = torch.randn(32, 3, 32, 32)
labels = torch.randint(0, 4, (32,))
images += labels.view(-1, 1, 1, 1).float() * 0.3


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 4)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
print(net)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for epoch in range(3):
    running_loss = 0.0
    for i in range(4):
        inputs, lab = images[i * 8:(i + 1) * 8], labels[i * 8:(i + 1) * 8]
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, lab)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(f"[{epoch + 1}] loss: {running_loss / 4:.4f}")
print("Finished Training")
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    outputs = net(images)
    _, predictions = torch.max(outputs, 1)
    for label, prediction in zip(labels, predictions):
        if label == prediction:
            correct_pred[classes[label]] += 1
        total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    print(f"Accuracy for class: {classname:5s} is {correct_count} / {total_pred[classname]}")
print(outputs[:2])
