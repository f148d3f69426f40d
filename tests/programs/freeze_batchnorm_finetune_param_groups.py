# Models: transfer-learning code that freezes a backbone: requires_grad_(False) on early layers,
# BatchNorm kept in eval mode during training (overriding train()), only trainable params to the
# optimizer, and checks that frozen weights and running stats did not move.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
)
head = nn.Linear(8, 4)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone, self.head = backbone, head

    def forward(self, x):
        return self.head(self.backbone(x))

    def train(self, mode=True):
        super().train(mode)
        for m in self.backbone.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()
        return self


net = Net()
for p in net.backbone[:3].parameters():
    p.requires_grad_(False)
print([n for n, p in net.named_parameters() if not p.requires_grad])
trainable = [p for p in net.parameters() if p.requires_grad]
print(len(trainable), sum(p.numel() for p in trainable))
opt = torch.optim.SGD(
    [
        {"params": [p for p in net.backbone.parameters() if p.requires_grad], "lr": 1e-3},
        {"params": net.head.parameters(), "lr": 1e-2},
    ],
    momentum=0.9,
)
w0 = net.backbone[0].weight.clone()
rm0 = net.backbone[1].running_mean.clone()
w3 = net.backbone[3].weight.clone()
x = torch.randn(6, 3, 8, 8)
y = torch.randint(0, 4, (6,))
net.train()
print(net.training, net.backbone[1].training, net.backbone[4].training)
for it in range(5):
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.5f}")
print(torch.equal(w0, net.backbone[0].weight), torch.equal(rm0, net.backbone[1].running_mean))
print(torch.equal(w3, net.backbone[3].weight), net.backbone[4].num_batches_tracked)
print(net.backbone[0].weight.grad, net.backbone[3].weight.grad.shape)
print(opt.state_dict()["param_groups"])
