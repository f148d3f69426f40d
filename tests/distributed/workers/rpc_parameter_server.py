"""The PyTorch tutorial "Implementing a Parameter Server Using Distributed RPC Framework",
on synthetic MNIST-shaped data: rank 0 holds the model (a small CNN) as the parameter server,
the other ranks are trainers that run its forward remotely, backpropagate with distributed
autograd and step a DistributedOptimizer. Started with torchrun (or Ember's launcher)."""

import os
import sys
import threading

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.distributed.optim import DistributedOptimizer


def say(*what):
    # one write per line: torchrun's workers write unbuffered into one pipe
    sys.stdout.write(" ".join(map(str, what)) + "\n")
    sys.stdout.flush()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


class ParameterServer(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.model = Net()

    def forward(self, inp):
        return self.model(inp)

    def get_param_rrefs(self):
        return [rpc.RRef(param) for param in self.model.parameters()]


param_server = None
global_lock = threading.Lock()


def get_parameter_server():
    global param_server
    with global_lock:
        if not param_server:
            param_server = ParameterServer()
        return param_server


def run_parameter_server(rank, world_size):
    rpc.init_rpc(name="parameter_server", rank=rank, world_size=world_size)
    rpc.shutdown()


class TrainerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.param_server_rref = rpc.remote("parameter_server", get_parameter_server)

    def get_global_param_rrefs(self):
        return rpc.rpc_sync(self.param_server_rref.owner(), _param_rrefs,
                            args=(self.param_server_rref,))

    def forward(self, x):
        return rpc.rpc_sync(self.param_server_rref.owner(), _forward,
                            args=(self.param_server_rref, x))


def _forward(ps_rref, x):
    return ps_rref.local_value().forward(x)


def _param_rrefs(ps_rref):
    return ps_rref.local_value().get_param_rrefs()


def _weights(ps_rref):
    return [p.detach().clone() for p in ps_rref.local_value().model.parameters()]


def run_training_loop(rank, steps):
    net = TrainerNet()
    param_rrefs = net.get_global_param_rrefs()
    opt = DistributedOptimizer(optim.SGD, param_rrefs, lr=0.03, momentum=0.5)
    gen = torch.Generator().manual_seed(rank)
    for i in range(steps):
        data = torch.randn(16, 1, 14, 14, generator=gen)
        target = torch.randint(0, 10, (16,), generator=gen)
        with dist_autograd.context() as cid:
            model_output = net(data)
            loss = F.nll_loss(model_output, target)
            dist_autograd.backward(cid, [loss])
            grads = dist_autograd.get_gradients(cid)
            assert all(p.grad is None for p in grads)
            opt.step(cid)
        say(f"R{rank} step {i} loss {loss.item()!r}")
    weights = rpc.rpc_sync("parameter_server", _weights, args=(net.param_server_rref,))
    say(f"R{rank} weights", [round(w.sum().item(), 6) for w in weights])


def run_worker(rank, world_size, steps):
    rpc.init_rpc(name=f"trainer_{rank}", rank=rank, world_size=world_size)
    run_training_loop(rank, steps)
    rpc.shutdown()


if __name__ == "__main__":
    rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    if rank == 0:
        run_parameter_server(0, world_size)
    else:
        run_worker(rank, world_size, steps=8)
    say(f"R{rank} done")
