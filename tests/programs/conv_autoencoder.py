# Models: a convolutional autoencoder tutorial -- Conv2d/ReLU/MaxPool encoder, ConvTranspose2d
# decoder with a sigmoid, MSE reconstruction loss with Adam on synthetic 1x16x16 images.
import torch
import torch.nn as nn

torch.manual_seed(3)
imgs = torch.zeros(12, 1, 16, 16)
for i in range(12):
    r, c = torch.randint(2, 12, (2,)).tolist()
    imgs[i, 0, r:r + 4, c:c + 4] = 1.0


class ConvAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(8, 4, 2, stride=2), nn.ReLU(),
            nn.ConvTranspose2d(4, 1, 2, stride=2), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = ConvAutoencoder()
print(model)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(1, 9):
    out = model(imgs)
    loss = criterion(out, imgs)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 2 == 0:
        print(f"Epoch: {epoch} \tTraining Loss: {loss.item():.6f}")
with torch.no_grad():
    code = model.encoder(imgs[:1])
    print(code.shape, code.flatten()[:8])
    print(model(imgs[:1])[0, 0, 4:8, 4:8])
