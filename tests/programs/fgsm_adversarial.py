# Models: the PyTorch "Adversarial Example Generation" (FGSM) tutorial: a small LeNet-style CNN
# with dropout trained briefly, then fgsm_attack (sign of the input gradient, clamp to [0, 1])
# over a list of epsilons, init_pred/final_pred via max(1, keepdim=True), denormalisation with
# transforms-style mean/std, accuracy per epsilon and a few adversarial examples kept.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)

# synthetic 1x12x12 "digits": class k lights up a k-dependent band of rows
n_cls, n = 4, 160
labels = torch.randint(0, n_cls, (n,))
images = torch.rand(n, 1, 12, 12) * 0.3
for i in range(n):
    r = 3 * labels[i].item()
    images[i, 0, r : r + 3, 2:10] += 0.6
images = images.clamp(0, 1)
MEAN, STD = 0.1307, 0.3081


def normalize(x):
    return (x - MEAN) / STD


def denorm(batch, mean=(MEAN,), std=(STD,)):
    mean = torch.tensor(mean).view(1, -1, 1, 1)
    std = torch.tensor(std).view(1, -1, 1, 1)
    return batch * std + mean


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, 1)
        self.conv2 = nn.Conv2d(6, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, n_cls)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


model = Net()
print(model)
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
for epoch in range(1, 4):
    model.train()
    perm = torch.randperm(n)
    for b in range(0, n, 32):
        idx = perm[b : b + 32]
        opt.zero_grad()
        loss = F.nll_loss(model(normalize(images[idx])), labels[idx])
        loss.backward()
        opt.step()
    sched.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}")


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


def test(model, epsilon, count=40):
    correct = 0
    adv_examples = []
    for i in range(count):
        data = normalize(images[i : i + 1]).clone()
        target = labels[i : i + 1]
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        data_denorm = denorm(data)
        perturbed_data = fgsm_attack(data_denorm, epsilon, data_grad)
        perturbed_data_normalized = normalize(perturbed_data)
        output = model(perturbed_data_normalized)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
            if epsilon == 0 and len(adv_examples) < 2:
                adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
        elif len(adv_examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
    final_acc = correct / float(count)
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {count} = {final_acc}")
    return final_acc, adv_examples


model.eval()
epsilons = [0, 0.05, 0.1, 0.2, 0.3]
accuracies, examples = [], []
for eps in epsilons:
    acc, ex = test(model, eps)
    accuracies.append(acc)
    examples.append(ex)
print("accuracies:", accuracies)
for eps, ex in zip(epsilons, examples):
    for orig, adv, img in ex:
        print(
            f"eps {eps}: {orig} -> {adv}, shape {img.shape}, dtype {img.dtype}, "
            f"min {img.min():.4f} max {img.max():.4f} mean {img.mean():.4f}"
        )

# the perturbation itself: bounded by epsilon in the pixel domain, before clamping
x = images[:1].clone().requires_grad_()
loss = F.nll_loss(model(normalize(x)), labels[:1])
(g,) = torch.autograd.grad(loss, x)
adv = fgsm_attack(x.detach(), 0.1, g)
print(
    "grad sign counts:",
    (g.sign() == 1).sum().item(),
    (g.sign() == -1).sum().item(),
    (g.sign() == 0).sum().item(),
)
print("max |delta|:", (adv - x.detach()).abs().max().item())
print("loss before/after:", loss.item(), F.nll_loss(model(normalize(adv)), labels[:1]).item())
print(g[0, 0, 3:6, 2:6])
