"""Ember, torch and other Python autograd libraries on the workloads of bench/run.py.

    python bench/peers.py [--repeat N] [--only SUBSTR] [--libs ember,torch,autograd,...]

Libraries: ember, torch, HIPS ``autograd``, ``mygrad`` and ``tinygrad`` (``pip install
'ember[bench]'``); one missing is skipped and said so. Every (library, workload) pair runs in its
own interpreter with one thread (OMP/MKL/OpenBLAS, ``torch.set_num_threads(1)``), from the same
NumPy-made inputs and weights. Before it is timed, its numbers are compared with torch's (within
a float32 tolerance; random draws by their moments, ember's bit for bit); a library that cannot
express a workload, or gives other numbers, is reported instead of timed. ratio = time / torch's
time (lower is better); the machine may be shared and noisy, so compare ratios.

The start-up rows (``import`` and ``cold_first_step_mlp``) time fresh interpreters, which load
each library's bytecode: pip-installed peers ship it compiled, so ember's package (and this
file, which the cold row imports) is compiled first, whether or not the environment sets
PYTHONDONTWRITEBYTECODE. The harness's own modules (subprocess, argparse, json) load only
where they are used, so a cold child's ``import peers`` costs the workload code alone.

tinygrad uses the device it finds; without a C compiler that is only its PYTHON emulator, far
too slow for anything but the op chain, and the other workloads are skipped there.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"

import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

LIBS = ("ember", "torch", "autograd", "mygrad", "tinygrad")
MODULE = {"ember": "ember", "torch": "torch", "autograd": "autograd", "mygrad": "mygrad",
          "tinygrad": "tinygrad"}
TIMEOUT = 300.0             # seconds one (library, workload) child may take


# ----------------------------------------------------------------------------- shared data

def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def mlp_data(batch: int = 128, sizes=(784, 256, 256, 10)):
    rng = _rng()
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        bound = 1 / np.sqrt(n_in)
        params += [rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32),
                   rng.uniform(-bound, bound, n_out).astype(np.float32)]
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y = rng.integers(0, sizes[-1], batch)
    return params, x, y


def cnn_data(batch: int = 32):
    rng = _rng()
    shapes = [(8, 1, 3, 3), (8,), (16, 8, 3, 3), (16,), (10, 16 * 7 * 7), (10,)]
    fan_in = [9, 9, 72, 72, 784, 784]
    params = [rng.uniform(-1, 1, s).astype(np.float32) / np.float32(np.sqrt(f))
              for s, f in zip(shapes, fan_in)]
    x = rng.standard_normal((batch, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, batch)
    return params, x, y


def chain_data():
    return _rng().standard_normal((4, 4)).astype(np.float32)


def matmul_data(n: int = 1024):
    rng = _rng()
    return (rng.standard_normal((n, n)).astype(np.float32),
            rng.standard_normal((n, n)).astype(np.float32))


LR, MOMENTUM = 0.01, 0.9
ADAM = dict(lr=1e-3, b1=0.9, b2=0.999, eps=1e-8)


def adam_numpy(state, params, grads):
    """torch's Adam update on NumPy arrays (for the libraries without an optimizer)."""
    state["t"] = t = state.get("t", 0) + 1
    b1, b2, lr, eps = ADAM["b1"], ADAM["b2"], ADAM["lr"], ADAM["eps"]
    ms = state.setdefault("m", [np.zeros_like(p) for p in params])
    vs = state.setdefault("v", [np.zeros_like(p) for p in params])
    out = []
    for p, g, m, v in zip(params, grads, ms, vs):
        m *= b1
        m += (1 - b1) * g
        v *= b2
        v += (1 - b2) * g * g
        denom = np.sqrt(v) / np.sqrt(1 - b2 ** t) + eps
        out.append((p - (lr / (1 - b1 ** t)) * m / denom).astype(np.float32))
    return out


def sgd_numpy(state, params, grads):
    """torch's SGD with momentum on NumPy arrays."""
    bufs = state.get("buf")
    bufs = state["buf"] = list(grads) if bufs is None else [MOMENTUM * b + g
                                                           for b, g in zip(bufs, grads)]
    return [(p - LR * b).astype(np.float32) for p, b in zip(params, bufs)]


# ----------------------------------------------------------------------------- torch and ember

def _torchlike(name):
    lib = __import__(name)
    if name == "torch":
        lib.set_num_threads(1)
    return lib


def _load(lib, module, arrays):
    with lib.no_grad():
        for p, a in zip(module.parameters(), arrays):
            p.copy_(lib.tensor(a))


def tl_chain(lib):
    x = lib.tensor(chain_data(), requires_grad=True)

    def run(out=False):
        x.grad = None
        y = x
        for _ in range(50):
            y = y * 1.0001
            y = y + 0.5
            y = y.tanh()
            y = y - 0.25
        y.sum().backward()
        return [x.grad.numpy()] if out else None
    return run


def tl_mlp_model(lib):
    nn = lib.nn
    params, x, y = mlp_data()
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                          nn.Linear(256, 10))
    _load(lib, model, params)
    return model, lib.tensor(x), lib.tensor(y)


def tl_mlp(lib):
    model, x, y = tl_mlp_model(lib)
    opt = lib.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)

    def run(out=False):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return [loss.detach().numpy(), model[4].weight.detach().numpy()] if out else None
    return run


def tl_cnn(lib):
    nn = lib.nn
    params, x, y = cnn_data()
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(16 * 7 * 7, 10))
    _load(lib, model, params)
    opt = lib.optim.Adam(model.parameters(), lr=ADAM["lr"], betas=(ADAM["b1"], ADAM["b2"]),
                         eps=ADAM["eps"])
    x, y = lib.tensor(x), lib.tensor(y)

    def run(out=False):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return [loss.detach().numpy(), model[0].weight.detach().numpy()] if out else None
    return run


def tl_matmul(lib):
    a_np, b_np = matmul_data()
    a = lib.tensor(a_np, requires_grad=True)
    b = lib.tensor(b_np, requires_grad=True)

    def run(out=False):
        a.grad = b.grad = None
        (a @ b).sum().backward()
        return [a.grad.numpy()[:4], b.grad.numpy()[:, :4]] if out else None
    return run


def tl_random(lib, kind):
    fn = getattr(lib, kind)

    def run(out=False):
        r = fn(10 ** 6)
        if out:
            lib.manual_seed(0)
            return [fn(10 ** 6).numpy()]
        return r
    return run


def tl_forward(lib, grad):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                          nn.Linear(1024, 10))
    params, x, _ = mlp_data(4096, (784, 1024, 1024, 10))
    _load(lib, model, params)
    x = lib.tensor(x)

    def run():
        if grad:
            return model(x).sum()
        with lib.no_grad():
            return model(x).sum()
    return run, lambda out: float(out.detach())


# ----------------------------------------------------------------------------- HIPS autograd

def ag_chain(_):
    import autograd.numpy as anp
    from autograd import grad

    def f(x):
        y = x
        for _ in range(50):
            y = anp.tanh(y * np.float32(1.0001) + np.float32(0.5)) - np.float32(0.25)
        return anp.sum(y)
    df, x = grad(f), chain_data()

    def run(out=False):
        g = df(x)
        return [g] if out else None
    return run


def _ag_ce(anp, z, y):
    m = anp.max(z, axis=1, keepdims=True)
    lse = m[:, 0] + anp.log(anp.sum(anp.exp(z - m), axis=1))
    return anp.mean(lse - z[np.arange(len(y)), y])


def _ag_mlp_loss(anp, params, x, y):
    h = x
    for i in range(0, len(params), 2):
        h = anp.dot(h, params[i].T) + params[i + 1]
        if i + 2 < len(params):
            h = anp.maximum(h, 0)
    return h


def ag_mlp(_):
    import autograd.numpy as anp
    from autograd import value_and_grad
    params, x, y = mlp_data()
    vg = value_and_grad(lambda ps: _ag_ce(anp, _ag_mlp_loss(anp, ps, x, y), y))
    state = {"p": params}
    opt: dict = {}

    def run(out=False):
        loss, grads = vg(state["p"])
        state["p"] = sgd_numpy(opt, state["p"], grads)
        return [np.float32(loss), state["p"][4]] if out else None
    return run


def _ag_conv(anp, x, w, b):
    """3x3 convolution, padding 1, as nine shifted slices and one einsum."""
    n, c, hh, ww = x.shape
    xp = anp.concatenate([anp.zeros((n, c, 1, ww), np.float32), x,
                          anp.zeros((n, c, 1, ww), np.float32)], axis=2)
    xp = anp.concatenate([anp.zeros((n, c, hh + 2, 1), np.float32), xp,
                          anp.zeros((n, c, hh + 2, 1), np.float32)], axis=3)
    patches = anp.stack([xp[:, :, i:i + hh, j:j + ww] for i in range(3) for j in range(3)])
    out = anp.einsum("ock,knchw->nohw", anp.reshape(w, (w.shape[0], c, 9)), patches)
    return out + anp.reshape(b, (1, -1, 1, 1))


def _ag_pool(anp, x):
    n, c, hh, ww = x.shape
    return anp.max(anp.reshape(x, (n, c, hh // 2, 2, ww // 2, 2)), axis=(3, 5))


def ag_cnn(_):
    import autograd.numpy as anp
    from autograd import value_and_grad
    params, x, y = cnn_data()

    def loss(ps):
        h = _ag_pool(anp, anp.maximum(_ag_conv(anp, x, ps[0], ps[1]), 0))
        h = _ag_pool(anp, anp.maximum(_ag_conv(anp, h, ps[2], ps[3]), 0))
        z = anp.dot(anp.reshape(h, (h.shape[0], -1)), ps[4].T) + ps[5]
        return _ag_ce(anp, z, y)
    vg = value_and_grad(loss)
    state, opt = {"p": params}, {}

    def run(out=False):
        value, grads = vg(state["p"])
        state["p"] = adam_numpy(opt, state["p"], grads)
        return [np.float32(value), state["p"][0]] if out else None
    return run


def ag_matmul(_):
    import autograd.numpy as anp
    from autograd import grad
    a, b = matmul_data()
    df = grad(lambda a, b: anp.sum(anp.dot(a, b)), argnum=(0, 1))

    def run(out=False):
        ga, gb = df(a, b)
        return [ga[:4], gb[:, :4]] if out else None
    return run


def np_random(kind):
    fn = np.random.randn if kind == "randn" else np.random.rand

    def run(out=False):
        r = fn(10 ** 6).astype(np.float32)
        return [r] if out else None
    return run


def ag_forward(grad):
    import autograd.numpy as anp
    from autograd import make_vjp
    params, x, _ = mlp_data(4096, (784, 1024, 1024, 10))
    f = lambda ps: anp.sum(_ag_mlp_loss(anp, ps, x, None))  # noqa: E731

    def run():
        if grad:
            return make_vjp(f)(params)       # the forward, keeping what the backward needs
        return f(params)
    return run, lambda out: float(out[1] if isinstance(out, tuple) else out)


# ----------------------------------------------------------------------------- mygrad

def mg_chain(_):
    import mygrad as mg
    x = mg.Tensor(chain_data())

    def run(out=False):
        y = x
        for _ in range(50):
            y = mg.tanh(y * 1.0001 + 0.5) - 0.25
        mg.sum(y).backward()
        return [np.array(x.grad)] if out else None
    return run


def _mg_forward(mg, ps, x):
    h = x
    for i in range(0, len(ps), 2):
        h = mg.matmul(h, ps[i].T) + ps[i + 1]
        if i + 2 < len(ps):
            h = mg.maximum(h, 0)
    return h


def mg_mlp(_):
    import mygrad as mg
    from mygrad.nnet.losses import softmax_crossentropy
    params, x, y = mlp_data()
    state, opt = {"p": params}, {}

    def run(out=False):
        ps = [mg.Tensor(p) for p in state["p"]]
        loss = softmax_crossentropy(_mg_forward(mg, ps, x), y)
        loss.backward()
        state["p"] = sgd_numpy(opt, state["p"], [np.asarray(p.grad) for p in ps])
        return [np.float32(loss.item()), state["p"][4]] if out else None
    return run


def mg_cnn(_):
    import mygrad as mg
    from mygrad.nnet.layers import conv_nd, max_pool
    from mygrad.nnet.losses import softmax_crossentropy
    params, x, y = cnn_data()
    state, opt = {"p": params}, {}

    def run(out=False):
        ps = [mg.Tensor(p) for p in state["p"]]
        h = conv_nd(x, ps[0], stride=1, padding=1) + ps[1].reshape(1, -1, 1, 1)
        h = max_pool(mg.maximum(h, 0), (2, 2), 2)
        h = conv_nd(h, ps[2], stride=1, padding=1) + ps[3].reshape(1, -1, 1, 1)
        h = max_pool(mg.maximum(h, 0), (2, 2), 2)
        z = mg.matmul(h.reshape(h.shape[0], -1), ps[4].T) + ps[5]
        loss = softmax_crossentropy(z, y)
        loss.backward()
        state["p"] = adam_numpy(opt, state["p"], [np.asarray(p.grad) for p in ps])
        return [np.float32(loss.item()), state["p"][0]] if out else None
    return run


def mg_matmul(_):
    import mygrad as mg
    a_np, b_np = matmul_data()
    a, b = mg.Tensor(a_np), mg.Tensor(b_np)

    def run(out=False):
        mg.sum(mg.matmul(a, b)).backward()
        return [np.array(a.grad[:4]), np.array(b.grad[:, :4])] if out else None
    return run


def mg_forward(grad):
    import mygrad as mg
    params, x, _ = mlp_data(4096, (784, 1024, 1024, 10))

    def run():
        if grad:
            return mg.sum(_mg_forward(mg, [mg.Tensor(p) for p in params], x))
        with mg.no_autodiff:
            return mg.sum(_mg_forward(mg, params, x))
    return run, lambda out: float(np.asarray(out))


# ----------------------------------------------------------------------------- tinygrad

def _tiny():
    from tinygrad import Device, Tensor
    return Tensor, Device.DEFAULT


def tg_feasible() -> bool:
    """Whether tinygrad has a compiled device (not only its PYTHON emulator)."""
    return _tiny()[1] != "PYTHON"


def tg_chain(_):
    Tensor, _ = _tiny()
    x = Tensor(chain_data()).realize()

    def run(out=False):
        x.grad = None
        y = x
        for _ in range(50):
            y = (y * 1.0001 + 0.5).tanh() - 0.25
        y.sum().backward()
        g = x.grad.numpy()
        return [g] if out else None
    return run


def tg_mlp(_):
    Tensor, _ = _tiny()
    params, x_np, y_np = mlp_data()
    ps = [Tensor(p).realize() for p in params]
    bufs: list = []
    x, y = Tensor(x_np), Tensor(y_np.astype(np.int32))

    def run(out=False):
        for p in ps:
            p.grad = None
        h = x
        for i in range(0, 6, 2):
            h = h.matmul(ps[i].T) + ps[i + 1]
            if i < 4:
                h = h.relu()
        loss = h.sparse_categorical_crossentropy(y)
        loss.backward()
        if not bufs:
            bufs.extend(p.grad.contiguous().realize() for p in ps)
        else:
            for b, p in zip(bufs, ps):
                b.assign(b * MOMENTUM + p.grad).realize()
        for p, b in zip(ps, bufs):
            p.assign(p - b * LR).realize()
        return [np.float32(loss.item()), ps[4].numpy()] if out else None
    return run


def tg_cnn(_):
    Tensor, _ = _tiny()
    params, x_np, y_np = cnn_data()
    ps = [Tensor(p).realize() for p in params]
    x, y = Tensor(x_np), Tensor(y_np.astype(np.int32))
    opt: dict = {}

    def run(out=False):
        for p in ps:
            p.grad = None
        h = x.conv2d(ps[0], ps[1], padding=1).relu().max_pool2d(2)
        h = h.conv2d(ps[2], ps[3], padding=1).relu().max_pool2d(2)
        loss = (h.flatten(1).matmul(ps[4].T) + ps[5]).sparse_categorical_crossentropy(y)
        loss.backward()
        new = adam_numpy(opt, [p.numpy() for p in ps], [p.grad.numpy() for p in ps])
        for p, n in zip(ps, new):
            p.assign(Tensor(n)).realize()
        return [np.float32(loss.item()), new[0]] if out else None
    return run


def tg_matmul(_):
    Tensor, _ = _tiny()
    a_np, b_np = matmul_data()
    a, b = Tensor(a_np).realize(), Tensor(b_np).realize()

    def run(out=False):
        a.grad = b.grad = None
        (a @ b).sum().backward()
        ga, gb = a.grad.realize(), b.grad.realize()
        return [ga.numpy()[:4], gb.numpy()[:, :4]] if out else None
    return run


def tg_random(kind):
    Tensor, _ = _tiny()
    fn = Tensor.randn if kind == "randn" else Tensor.rand

    def run(out=False):
        r = fn(10 ** 6).realize()
        return [r.numpy()] if out else None
    return run


# ----------------------------------------------------------------------------- the table

def _cold_mlp_src(lib: str) -> str:
    """A fresh interpreter's import + model + one SGD step, timed from before the import."""
    body = {
        "torch": "lib.set_num_threads(1)\nrun = peers.tl_mlp(lib)",
        "ember": "run = peers.tl_mlp(lib)",
        "autograd": "run = peers.ag_mlp(lib)",
        "mygrad": "run = peers.mg_mlp(lib)",
        "tinygrad": "run = peers.tg_mlp(lib)",
    }[lib]
    return (f"import time\nt0 = time.perf_counter()\nimport {MODULE[lib]} as lib\n"
            f"import peers\n{body}\nres = run(out=True)\nt1 = time.perf_counter()\n")


WORKLOADS = {
    "op_chain_4x4_200ops_fwd_bwd": {"torch": tl_chain, "ember": tl_chain, "autograd": ag_chain,
                                    "mygrad": mg_chain, "tinygrad": tg_chain},
    "mlp_train_step_b128_sgd": {"torch": tl_mlp, "ember": tl_mlp, "autograd": ag_mlp,
                                "mygrad": mg_mlp, "tinygrad": tg_mlp},
    "cnn_train_step_b32_adam": {"torch": tl_cnn, "ember": tl_cnn, "autograd": ag_cnn,
                                "mygrad": mg_cnn, "tinygrad": tg_cnn},
    "matmul_1024_fwd_bwd": {"torch": tl_matmul, "ember": tl_matmul, "autograd": ag_matmul,
                            "mygrad": mg_matmul, "tinygrad": tg_matmul},
    "randn_1e6": {"torch": lambda lib: tl_random(lib, "randn"),
                  "ember": lambda lib: tl_random(lib, "randn"),
                  "autograd": lambda _: np_random("randn"),
                  "mygrad": lambda _: np_random("randn"),
                  "tinygrad": lambda _: tg_random("randn")},
    "rand_1e6": {"torch": lambda lib: tl_random(lib, "rand"),
                 "ember": lambda lib: tl_random(lib, "rand"),
                 "autograd": lambda _: np_random("rand"),
                 "mygrad": lambda _: np_random("rand"),
                 "tinygrad": lambda _: tg_random("rand")},
    "cold_first_step_mlp": "cold",
    "import": "import",
    "mlp_forward_b4096_no_grad_peak_MB": "memory",
    "mlp_forward_b4096_grad_peak_MB": "memory",
}
FORWARD = {"torch": tl_forward, "ember": tl_forward, "autograd": lambda _, g: ag_forward(g),
           "mygrad": lambda _, g: mg_forward(g)}
NOTES = {"randn_1e6": "NumPy's generator for autograd/mygrad; checked by moments",
         "rand_1e6": "NumPy's generator for autograd/mygrad; checked by moments",
         "import": "`import X` in a fresh interpreter, best of --repeat (bytecode compiled)",
         "cold_first_step_mlp": "import + model + one SGD step, fresh interpreter (bytecode "
                                "compiled)"}


def best_time(fn, repeat: int) -> float:
    """Best per-call time over ``repeat`` rounds of about 50 ms each."""
    t0 = time.perf_counter()
    fn()
    once = time.perf_counter() - t0
    number = max(1, int(0.05 / max(once, 1e-6)))
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def _rss_peak() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024
    return 0


def child(lib: str, workload: str, repeat: int) -> dict:
    """One measurement, in this (fresh) interpreter."""
    kind = WORKLOADS[workload]
    if lib == "tinygrad" and workload != "op_chain_4x4_200ops_fwd_bwd" and not tg_feasible():
        return {"skip": "PYTHON device only (no clang here): too slow"}
    if kind == "memory":
        if lib not in FORWARD:
            return {"skip": "lazy device buffers: not comparable"}
        grad = not workload.endswith("no_grad_peak_MB")
        module = _torchlike(lib) if lib in ("torch", "ember") else None
        run, value = FORWARD[lib](module, grad)
        try:
            import ctypes
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):
            pass
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = _rss_peak()
        out = run()
        return {"value": _rss_peak() - before, "check": [[value(out)]]}
    module = _torchlike(lib) if lib in ("torch", "ember") else __import__(MODULE[lib])
    run = kind[lib](module)
    check = [np.asarray(a, np.float64).tolist() for a in run(out=True)]
    return {"value": best_time(run, repeat), "check": check}


def _spawn(args: list[str], timeout: float = TIMEOUT) -> dict:
    import json
    import subprocess
    env = dict(os.environ)
    here = os.path.dirname(os.path.abspath(__file__))
    env["PYTHONPATH"] = os.pathsep.join([here, *filter(None, [env.get("PYTHONPATH")])])
    try:
        res = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                             timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"skip": f"over {timeout:.0f} s"}
    if res.returncode != 0:
        last = (res.stderr.strip().splitlines() or ["?"])[-1]
        return {"skip": f"fails: {last[:60]}"}
    return json.loads(res.stdout.strip().splitlines()[-1])


def measure(lib: str, workload: str, repeat: int) -> dict:
    kind = WORKLOADS[workload]
    if kind == "import":
        times = []
        for _ in range(repeat):
            r = _spawn(["-c", f"import time\nt0 = time.perf_counter()\nimport {MODULE[lib]}\n"
                              "print(time.perf_counter() - t0)"])
            if isinstance(r, dict):
                return r
            times.append(float(r))
        return {"value": min(times)}
    if kind == "cold":
        feasible = "import peers; print(int(peers.tg_feasible()))"
        if lib == "tinygrad" and not _spawn(["-c", feasible]):
            return {"skip": "PYTHON device only (no clang here): too slow"}
        src = _cold_mlp_src(lib) + ("import json, numpy as np\nprint(json.dumps({'value': t1 - t0,"
                                    " 'check': [np.asarray(res[0], float).tolist()]}))")
        best: dict = {}
        for _ in range(max(1, repeat // 2)):
            r = _spawn(["-c", src])
            if "skip" in r:
                return r
            if not best or r["value"] < best["value"]:
                best = r
        return best
    return _spawn([os.path.abspath(__file__), "--child", lib, workload, "--repeat", str(repeat)])


def agrees(workload: str, lib: str, got: list, want: list | None) -> str | None:
    """None when ``got`` matches torch's ``want``; else what differs."""
    if workload in ("randn_1e6", "rand_1e6"):
        a = np.asarray(got[0])
        if lib == "ember":
            return None if np.array_equal(a, np.asarray(want[0])) else "not torch's stream"
        mean, std = (0.0, 1.0) if workload == "randn_1e6" else (0.5, 12 ** -0.5)
        ok = a.size == 10 ** 6 and abs(a.mean() - mean) < 5e-3 and abs(a.std() - std) < 5e-3
        return None if ok else f"moments {a.mean():.4f}, {a.std():.4f}"
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape:
            return f"shape {g.shape} vs {w.shape}"
        scale = max(1.0, float(np.abs(w).max(initial=0)))
        if not np.allclose(g, w, rtol=1e-3, atol=1e-4 * scale):
            return f"differs by {float(np.abs(g - w).max()):.2g}"
    return None


def compile_bytecode(libs) -> None:
    """Write the bytecode of ember's package and of this file, as an installed package has
    it, so that the start-up rows do not time ember compiling its sources."""
    import compileall
    import importlib.util
    if "ember" in libs:
        spec = importlib.util.find_spec("ember")
        if spec is not None and spec.submodule_search_locations:
            for path in spec.submodule_search_locations:
                compileall.compile_dir(path, quiet=1)
    compileall.compile_file(os.path.abspath(__file__), quiet=1)


def main(argv=None) -> int:
    import argparse
    import json
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default=None, help="substring of workload names to run")
    parser.add_argument("--libs", default=",".join(LIBS))
    parser.add_argument("--child", nargs=2, metavar=("LIB", "WORKLOAD"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child, args.repeat)))
        return 0
    import importlib.util
    libs = [lib for lib in args.libs.split(",") if lib]
    missing = {lib for lib in libs if importlib.util.find_spec(MODULE[lib]) is None}
    if "torch" in missing:
        print("torch is not installed: pip install 'ember[bench]'", file=sys.stderr)
        return 1
    if "tinygrad" in libs and "tinygrad" not in missing and "DEV" not in os.environ:
        probe = _spawn(["-c", "import json\nfrom tinygrad import Device, Tensor\n"
                              "Tensor([1.0]).realize()\nprint(json.dumps(Device.DEFAULT))"])
        if isinstance(probe, dict):      # no compiled device works: the emulator
            os.environ["DEV"] = "PYTHON"
    if any(WORKLOADS[w] in ("import", "cold") for w in WORKLOADS
           if not args.only or args.only in w):
        compile_bytecode(libs)
    print(f"{'workload':34s} " + " ".join(f"{lib:>17s}" for lib in libs))
    footnotes = []
    for workload in WORKLOADS:
        if args.only and args.only not in workload:
            continue
        memory = WORKLOADS[workload] == "memory"
        ref = measure("torch", workload, args.repeat)
        cells = []
        for lib in libs:
            r = ref if lib == "torch" else (
                {"skip": "not installed"} if lib in missing else
                measure(lib, workload, args.repeat))
            bad = None if "skip" in r or "check" not in r or lib == "torch" else \
                agrees(workload, lib, r["check"], ref.get("check"))
            if "skip" in r or bad:
                footnotes.append(f"[{len(footnotes) + 1}] {lib} {workload}: {r.get('skip', bad)}")
                cells.append(f"{'-- [' + str(len(footnotes)) + ']':>17s}")
                continue
            v = r["value"] / 2 ** 20 if memory else r["value"] * 1e3
            ratio = r["value"] / ref["value"] if ref.get("value") else float("nan")
            cells.append(f"{v:10.2f} {ratio:5.2f}x")
        print(f"{workload:34s} " + " ".join(cells), flush=True)
    print("\ncells: milliseconds (MB for *_peak_MB) and the ratio to torch")
    for note in footnotes:
        print(note)
    for workload, note in NOTES.items():
        print(f"{workload}: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
