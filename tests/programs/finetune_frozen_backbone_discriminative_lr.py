# Models: the transfer-learning "fine-tuning" recipe (d2l's fine-tuning chapter and the PyTorch
# finetuning tutorial) on a toy CNN: pretrain a backbone, replace the head, freeze the backbone
# with requires_grad_(False) and train only the head, then unfreeze with discriminative learning
# rates in parameter groups (10x for the head), BatchNorm kept in eval mode while frozen, and
# parameter counts that require grad at each stage.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def backbone():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten())


def make_data(n, n_classes, shift):
    x = torch.randn(n, 1, 8, 8)
    y = torch.randint(0, n_classes, (n,))
    for c in range(n_classes):
        x[y == c, :, c % 8, :] += shift
    return x, y


# "pretraining" on a 4-class source task
src_x, src_y = make_data(128, 4, 1.5)
pre = nn.Sequential(backbone(), nn.Linear(16, 4))
opt = torch.optim.Adam(pre.parameters(), lr=0.01)
for epoch in range(15):
    loss = F.cross_entropy(pre(src_x), src_y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"source task loss {loss.item():.4f} acc "
      f"{(pre(src_x).argmax(1) == src_y).float().mean().item():.4f}")
pretrained = pre[0].state_dict()

# target task: 3 classes, few examples
tgt_x, tgt_y = make_data(48, 3, 1.0)
val_x, val_y = make_data(48, 3, 1.0)
finetune_net = nn.Sequential(backbone(), nn.Linear(16, 3))
finetune_net[0].load_state_dict(pretrained)
nn.init.xavier_uniform_(finetune_net[1].weight)
scratch_net = nn.Sequential(backbone(), nn.Linear(16, 3))


def n_trainable(m):
    return sum(p.numel() for p in m.parameters() if p.requires_grad)


print("trainable before freezing", n_trainable(finetune_net))
finetune_net[0].requires_grad_(False)
print("trainable with frozen backbone", n_trainable(finetune_net))
print("frozen conv weight grad:", finetune_net[0][0].weight.requires_grad)


def train(net, params, epochs, freeze_bn=False):
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=1e-3)
    for epoch in range(epochs):
        net.train()
        if freeze_bn:
            for m in net.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()
        loss = F.cross_entropy(net(tgt_x), tgt_y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    with torch.no_grad():
        acc = (net(val_x).argmax(1) == val_y).float().mean().item()
    return loss.item(), acc, opt


before = finetune_net[0][1].running_mean.clone()
loss, acc, _ = train(finetune_net, [p for p in finetune_net.parameters() if p.requires_grad],
                     10, freeze_bn=True)
print(f"head only: loss {loss:.4f} val acc {acc:.4f}")
print("BN running stats unchanged:", torch.equal(before, finetune_net[0][1].running_mean))
print("backbone grads are None:", all(p.grad is None for p in finetune_net[0].parameters()))

finetune_net[0].requires_grad_(True)
groups = [{"params": finetune_net[0].parameters(), "lr": 0.005},
          {"params": finetune_net[1].parameters()}]
loss, acc, opt = train(finetune_net, groups, 10)
print(f"full fine-tune: loss {loss:.4f} val acc {acc:.4f}")
print("param group lrs", [g["lr"] for g in opt.param_groups],
      "sizes", [sum(p.numel() for p in g["params"]) for g in opt.param_groups])
loss, acc, _ = train(scratch_net, scratch_net.parameters(), 20)
print(f"from scratch: loss {loss:.4f} val acc {acc:.4f}")
print("weight change in first conv:",
      (finetune_net[0][0].weight - pretrained["0.weight"]).norm().item())
