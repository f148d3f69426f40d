# Models: the PyTorch "Neural Transfer Using PyTorch" tutorial in miniature -- a small frozen
# conv feature extractor standing in for VGG, a Normalization module, ContentLoss and
# StyleLoss modules inserted into an nn.Sequential rebuilt by iterating children(), Gram
# matrices via bmm/mm, an input image optimised directly with LBFGS and a closure that clamps
# with torch.no_grad, plus a total-variation regulariser.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
imsize = 16
style_img = torch.rand(1, 3, imsize, imsize)
content_img = torch.rand(1, 3, imsize, imsize)
cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1),
                    nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                    nn.Conv2d(16, 16, 3, padding=1)).eval()
for p in cnn.parameters():
    p.requires_grad_(False)
cnn_normalization_mean = torch.tensor([0.485, 0.456, 0.406])
cnn_normalization_std = torch.tensor([0.229, 0.224, 0.225])


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


content_layers_default = ["conv_4"]
style_layers_default = ["conv_1", "conv_2", "conv_3", "conv_4"]


def get_style_model_and_losses(cnn, mean, std, style_img, content_img):
    normalization = Normalization(mean, std)
    content_losses, style_losses = [], []
    model = nn.Sequential(normalization)
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f"conv_{i}"
        elif isinstance(layer, nn.ReLU):
            name = f"relu_{i}"
            layer = nn.ReLU(inplace=False)
        elif isinstance(layer, nn.MaxPool2d):
            name = f"pool_{i}"
        else:
            raise RuntimeError(f"Unrecognized layer: {layer.__class__.__name__}")
        model.add_module(name, layer)
        if name in content_layers_default:
            target = model(content_img).detach()
            content_loss = ContentLoss(target)
            model.add_module(f"content_loss_{i}", content_loss)
            content_losses.append(content_loss)
        if name in style_layers_default:
            target_feature = model(style_img).detach()
            style_loss = StyleLoss(target_feature)
            model.add_module(f"style_loss_{i}", style_loss)
            style_losses.append(style_loss)
    for i in range(len(model) - 1, -1, -1):
        if isinstance(model[i], ContentLoss) or isinstance(model[i], StyleLoss):
            break
    model = model[:(i + 1)]
    return model, style_losses, content_losses


def tv_loss(img):
    return (img[..., 1:, :] - img[..., :-1, :]).abs().mean() + \
        (img[..., :, 1:] - img[..., :, :-1]).abs().mean()


model, style_losses, content_losses = get_style_model_and_losses(
    cnn, cnn_normalization_mean, cnn_normalization_std, style_img, content_img)
print(model)
input_img = content_img.clone()
input_img.requires_grad_(True)
model.eval()
model.requires_grad_(False)
optimizer = torch.optim.LBFGS([input_img], lr=0.5, max_iter=4)
style_weight, content_weight = 1e4, 1
run = [0]
for outer in range(3):
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * style_weight
        content_score = sum(cl.loss for cl in content_losses) * content_weight
        loss = style_score + content_score + 0.1 * tv_loss(input_img)
        loss.backward()
        run[0] += 1
        return style_score + content_score

    loss = optimizer.step(closure)
    print(f"outer {outer} closure calls {run[0]} loss {loss.item():.6f}")
with torch.no_grad():
    input_img.clamp_(0, 1)
print("final", input_img.min().item() >= 0, input_img.max().item() <= 1,
      input_img.mean().item())
state = optimizer.state[input_img]
print(sorted(state.keys()), state["n_iter"], state["func_evals"])
print(gram_matrix(style_img).shape, gram_matrix(style_img).trace())
