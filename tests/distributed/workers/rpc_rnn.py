"""The distributed RNN of PyTorch's "Getting Started with Distributed RPC Framework"
tutorial: the embedding table (a RemoteModule) and the decoder (an RRef made by
``rpc.remote``) live on the parameter server, rank 1; the LSTM runs on the trainer, rank 0,
which trains all three with distributed autograd and a DistributedOptimizer. Every line it
prints starts with the worker's rank."""

import os
import sys

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
import torch.nn as nn
from torch.distributed.nn import RemoteModule
from torch.distributed.optim import DistributedOptimizer

R, W = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


def _call_method(method, rref, *args, **kwargs):
    return method(rref.local_value(), *args, **kwargs)


def _remote_method(method, rref, *args, **kwargs):
    args = [method, rref] + list(args)
    return rpc.rpc_sync(rref.owner(), _call_method, args=args, kwargs=kwargs)


def _parameter_rrefs(module):
    return [rpc.RRef(p) for p in module.parameters()]


def say(*what):
    # one write per line: torchrun's workers write unbuffered into one pipe
    sys.stdout.write(" ".join(map(str, what)) + "\n")
    sys.stdout.flush()


class EmbeddingTable(nn.Module):
    def __init__(self, ntoken, ninp, dropout):
        super().__init__()
        torch.manual_seed(1)
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)

    def forward(self, input):
        return self.drop(self.encoder(input))


class Decoder(nn.Module):
    def __init__(self, ntoken, nhid, dropout):
        super().__init__()
        torch.manual_seed(2)
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def forward(self, output):
        return self.decoder(self.drop(output))


class RNNModel(nn.Module):
    def __init__(self, ps, ntoken, ninp, nhid, nlayers, dropout=0.0):
        super().__init__()
        self.emb_table = RemoteModule(f"{ps}/cpu", EmbeddingTable, args=(ntoken, ninp, dropout))
        # both modules seed the global generator on the server: made one after the other
        # (remote calls run at once on the server's threads), so that the weights are fixed
        self.emb_table.remote_parameters()
        torch.manual_seed(3)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder_rref = rpc.remote(ps, Decoder, args=(ntoken, nhid, dropout))

    def forward(self, input, hidden):
        emb = self.emb_table(input)
        output, hidden = self.rnn(emb, hidden)
        decoded = _remote_method(Decoder.forward, self.decoder_rref, output)
        return decoded, hidden

    def parameter_rrefs(self):
        remote_params = list(self.emb_table.remote_parameters())
        remote_params.extend(_parameter_rrefs(self.rnn))
        remote_params.extend(_remote_method(_parameter_rrefs, self.decoder_rref))
        return remote_params


def _weight_sums(rref):
    return [round(p.sum().item(), 5) for p in rref.local_value().parameters()]


rpc.init_rpc(f"worker{R}", rank=R, world_size=W)
if R == 0:
    ntoken, ninp, nhid, nlayers, batch, bptt = 12, 6, 8, 2, 3, 5
    model = RNNModel("worker1", ntoken, ninp, nhid, nlayers)
    opt = DistributedOptimizer(torch.optim.SGD, model.parameter_rrefs(), lr=0.05)
    criterion = torch.nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(0)
    for step in range(6):
        with dist_autograd.context() as context_id:
            data = torch.randint(0, ntoken, (bptt, batch), generator=gen)
            target = torch.randint(0, ntoken, (bptt, batch), generator=gen)
            hidden = (torch.zeros(nlayers, batch, nhid), torch.zeros(nlayers, batch, nhid))
            output, hidden = model(data, hidden)
            loss = criterion(output.view(-1, ntoken), target.view(-1))
            dist_autograd.backward(context_id, [loss])
            opt.step(context_id)
        say(f"R0 step {step} loss {loss.item()!r}")
    say("R0 rnn", [round(p.sum().item(), 5) for p in model.rnn.parameters()])
    say("R0 decoder", rpc.rpc_sync("worker1", _weight_sums, args=(model.decoder_rref,)))
    say("R0 table", rpc.rpc_sync("worker1", _weight_sums,
                                 args=(model.emb_table.get_module_rref(),)))
    for name in ("parameters", "state_dict", "to"):
        try:
            getattr(model.emb_table, name)()
        except ValueError as e:
            say("R0 remote module:", e)
rpc.shutdown()
