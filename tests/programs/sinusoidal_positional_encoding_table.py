# Models: "The Annotated Transformer" positional encoding cell: the sinusoidal table built with
# exp/log div_term, registered as a buffer, added to embeddings with dropout off, printing the
# first rows, the dot products between positions (depending only on offset), and its shape.
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout, max_len=50):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)].requires_grad_(False)
        return self.dropout(x)


pe = PositionalEncoding(8, 0.0)
print(pe.pe.shape, sorted(dict(pe.named_buffers())))
torch.set_printoptions(precision=4)
print(pe.pe[0, :4])
P = pe.pe[0]
dots = P @ P.T
print("dot(0,k)", dots[0, :6])
print("dot(10,10+k)", dots[10, 10:16])
print("offset invariant", torch.allclose(dots[0, 1:6], dots[10, 11:16], atol=1e-5))
x = torch.zeros(2, 5, 8)
y = pe(x)
print(y.shape, torch.equal(y[0], P[:5]), y.requires_grad)
torch.set_printoptions(profile="default")
print(pe.state_dict()["pe"].shape)
