# Models: torch.export deployment tutorial -- a small CNN classifier (Conv2d/BatchNorm2d/ReLU/
# MaxPool2d/Dropout/Linear) and a pre-norm causal self-attention block (scaled_dot_product_
# attention, GELU MLP), exported with dynamic batch/sequence Dims, printed (ATen graph, graph
# signature, range constraints, the unlifted module's code), decomposed to core ATen, saved and
# loaded back, and run at other sizes against eager.
import io
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim, export


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(16 * 2 * 2, 10)

    def forward(self, images):
        x = self.pool(F.relu(self.bn1(self.conv1(images))))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc(self.drop(x)), dim=1)


class AttentionBlock(nn.Module):
    def __init__(self, dim=16, heads=2):
        super().__init__()
        self.heads = heads
        self.ln = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln(x)).split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).reshape(B, T, C)
        x = x + self.proj(y)
        return x + self.mlp(x)


# torch's pickling of tree specs warns about a deprecated check
warnings.filterwarnings("ignore", category=FutureWarning)


def report(name, ep):
    print(f"== {name}")
    print(ep.graph)
    print(ep.graph_signature)
    print("range constraints:", ep.range_constraints)
    print("state:", list(ep.state_dict))


torch.manual_seed(0)

# --- a CNN in eval mode with a dynamic batch
cnn = SmallCNN().eval()
batch = Dim("batch", min=1, max=128)
ep = export(cnn, (torch.randn(4, 1, 8, 8),), dynamic_shapes={"images": {0: batch}})
report("cnn", ep)
module = ep.module()
print(module)
for n in (1, 3, 7):
    images = torch.randn(n, 1, 8, 8)
    with torch.no_grad():
        got, want = module(images), cnn(images)
    print(n, tuple(got.shape), torch.equal(got, want), got.argmax(dim=1).tolist())
try:
    module(torch.randn(2, 1, 9, 8))
except AssertionError as e:
    print("guard:", e)

core = ep.run_decompositions()
print(core.graph_module.code)
print(core.graph_signature)

# --- the same CNN in training mode: batch norm updates its buffers
train_cnn = SmallCNN().train()
ep_train = export(train_cnn, (torch.randn(4, 1, 8, 8),))
report("cnn (train)", ep_train)
core_train = ep_train.run_decompositions()
print(core_train.graph_module.code)
print(core_train.graph_signature)

# --- an attention block with dynamic batch and sequence length
block = AttentionBlock().eval()
B, T = Dim("B", max=32), Dim("T", max=64)
ep_block = export(block, (torch.randn(2, 6, 16),), dynamic_shapes=({0: B, 1: T},))
report("attention block", ep_block)
x = torch.randn(3, 9, 16)
with torch.no_grad():
    print("block:", torch.equal(ep_block.module()(x), block(x)),
          round(ep_block.module()(x).sum().item(), 4))

# --- save and load back
buffer = io.BytesIO()
torch.export.save(ep, buffer)
buffer.seek(0)
loaded = torch.export.load(buffer)
print(loaded.graph_signature)
print(loaded.range_constraints)
images = torch.randn(5, 1, 8, 8)
with torch.no_grad():
    print("loaded:", torch.equal(loaded.module()(images), cnn(images)))

