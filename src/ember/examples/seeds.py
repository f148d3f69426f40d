"""The seed lessons as a narrated walkthrough: ``python -m ember.examples.seeds``.

requires_grad and is_leaf, retain_grad, gradient accumulation and zeroing, the legacy
Variable and volatile, no_grad and detach — each step printed with what it shows.
"""

from __future__ import annotations

import warnings

import ember as torch
from ember.autograd import Variable


def say(text: str) -> None:
    print()
    print("# " + text)


def show(expr: str, env: dict) -> None:
    print(">>> " + expr)
    value = eval(expr, env)  # noqa: S307 - the walkthrough shows fixed expressions
    if value is not None:
        print(repr(value))


def run(stmt: str, env: dict) -> None:
    lines = stmt.split("\n")
    print(">>> " + lines[0])
    for line in lines[1:]:
        print("... " + line)
    exec(stmt, env)  # noqa: S102


def main() -> None:
    warnings.simplefilter("ignore")
    env = {"torch": torch, "Variable": Variable}
    say("1. requires_grad is an attribute; requires_grad_() sets it in place and returns self")
    run("torch.manual_seed(seed=20200910)", env)
    run("a = torch.randn(3, 5)", env)
    show("a", env)
    show("a.requires_grad", env)
    show("a.requires_grad_()", env)
    show("a.requires_grad_(requires_grad=False).requires_grad", env)

    say("2. gradients are kept only on leaves, unless retain_grad() asks for them")
    run("torch.manual_seed(seed=20200910)", env)
    run("data_in = torch.randn(3, 5, requires_grad=True)", env)
    run("data_mean = data_in.mean()", env)
    show("data_mean", env)
    run("data_1 = data_mean * 20200910.0", env)
    run("data_2 = data_1 * 15.0", env)
    run("data_2.retain_grad()", env)
    run("data_3 = 2 * (data_2 + 55.0)", env)
    run("loss = data_3 / 2.0 + 89.2", env)
    show("loss", env)
    run("loss.backward()", env)
    show("data_in.grad", env)
    show("data_2.grad", env)
    show("print(data_mean.grad, data_1.grad, data_3.grad, loss.grad)", env)
    show("[t.is_leaf for t in (data_in, data_mean, data_1, data_2, data_3, loss)]", env)

    say("3. gradients accumulate; zero them in place (in-place methods end in '_')")
    run("x = Variable(torch.ones(2, 2), requires_grad=True)   # a Variable is a Tensor", env)
    run("y = x.sum()", env)
    show("y.grad_fn", env)
    run("y.backward(); y.backward()   # SumBackward0 saved nothing: it may run twice", env)
    show("x.grad", env)
    show("x.grad.data.zero_()", env)
    run("z = (x * x).sum(); z.backward()", env)
    print(">>> z.backward()")
    try:
        env["z"].backward()
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:72] + "...")

    say("4. volatile is gone: it warns and does nothing; use no_grad instead")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run("v = Variable(torch.ones(1), volatile=True)", env)
    print("UserWarning:", caught[0].message)
    show("v.requires_grad", env)

    say("5. under no_grad nothing is recorded: no graph, no saved buffers")
    run("x = torch.tensor([1.0], requires_grad=True)", env)
    run("with torch.no_grad():\n    y = x * 2", env)
    show("y.requires_grad, y.grad_fn", env)

    say("6. detach() shares storage but is cut from the graph; it can become a new leaf")
    run("d = x.detach().requires_grad_()", env)
    run("(d * 3).sum().backward()", env)
    show("d.grad, x.grad", env)


if __name__ == "__main__":
    main()
