# Models: the pytorch/examples VAE (encoder to mu/logvar, reparameterisation with randn_like,
# decoder with sigmoid output, BCE + KL loss) on synthetic binary 8x8 "images".
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(1)
data = (torch.rand(64, 64) > 0.6).float()


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(1, 6):
    model.train()
    train_loss = 0
    for batch_idx in range(4):
        x = data[batch_idx * 16:(batch_idx + 1) * 16]
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(x)
        loss = loss_function(recon_batch, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(data):.4f}")
model.eval()
with torch.no_grad():
    sample = torch.randn(3, 4)
    sample = model.decode(sample)
    print(sample[:, :6])
    recon, mu, logvar = model(data[:2])
    print(mu, logvar.exp())
