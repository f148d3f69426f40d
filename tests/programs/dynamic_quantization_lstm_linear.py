# Models: the PyTorch tutorial "Dynamic quantization on an LSTM word language model":
# torch.ao.quantization.quantize_dynamic over {nn.LSTM, nn.Linear}, printing the quantized
# model, comparing outputs with the float model and the state_dict sizes.
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class LSTMModel(nn.Module):
    def __init__(self, ntoken=20, ninp=8, nhid=12, nlayers=2):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, input, hidden):
        emb = self.encoder(input)
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (
            weight.new_zeros(self.nlayers, bsz, self.nhid),
            weight.new_zeros(self.nlayers, bsz, self.nhid),
        )


model = LSTMModel()
model.eval()
qmodel = torch.ao.quantization.quantize_dynamic(model, {nn.LSTM, nn.Linear}, dtype=torch.qint8)
print(qmodel)


def size_of(m):
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    return buf.tell()


print("float larger:", size_of(model) > size_of(qmodel))
inp = torch.randint(0, 20, (5, 3))
with torch.no_grad():
    out_f, _ = model(inp, model.init_hidden(3))
    out_q, (h, c) = qmodel(inp, qmodel.init_hidden(3))
print(out_f.shape, out_q.shape, h.shape)
print("max abs diff < 0.1:", (out_f - out_q).abs().max().item() < 0.1)
print(out_f.argmax(-1).eq(out_q.argmax(-1)).float().mean() > 0.5)
print(type(qmodel.decoder).__module__, type(qmodel.decoder).__name__)
w = qmodel.decoder.weight()
print(w.dtype, w.qscheme(), w.shape)
