# Models: the PyTorch recipe "PyTorch Benchmark" (torch.utils.benchmark.Timer with stmt,
# setup, globals, label/sub_label/description, num_threads; blocked_autorange/timeit returning
# Measurement objects) — printing the structure of the results, not the timings.
import torch
import torch.utils.benchmark as benchmark


def batched_dot_mul_sum(a, b):
    return a.mul(b).sum(-1)


def batched_dot_bmm(a, b):
    a = a.reshape(-1, 1, a.shape[-1])
    b = b.reshape(-1, b.shape[-1], 1)
    return torch.bmm(a, b).flatten(-3)


torch.manual_seed(0)
x = torch.randn(100, 64)
assert batched_dot_mul_sum(x, x).allclose(batched_dot_bmm(x, x))
print(batched_dot_mul_sum(x[:3], x[:3]))

t0 = benchmark.Timer(
    stmt="batched_dot_mul_sum(x, x)",
    setup="from __main__ import batched_dot_mul_sum",
    globals={"x": x, "batched_dot_mul_sum": batched_dot_mul_sum},
)
m0 = t0.timeit(5)
print(type(m0).__name__, m0.number_per_run, len(m0.times))
print(m0.stmt)
print(m0.mean > 0, m0.median > 0)

t1 = benchmark.Timer(
    stmt="batched_dot_bmm(x, x)",
    globals={"x": x, "batched_dot_bmm": batched_dot_bmm},
    label="Batched dot",
    sub_label="[100, 64]",
    description="bmm",
    num_threads=1,
)
m1 = t1.timeit(3)
print(m1.label, m1.sub_label, m1.description, m1.num_threads)
print(m1.task_spec.stmt)
print(m1.title)
