"""Complete PyTorch programs, unchanged, print under Ember what they print under torch.

Every ``tests/programs/*.py`` is a plain ``import torch`` script written in the manner of
public PyTorch code (each names the kind of program it models in its first comment). Each runs
twice, under ``python -m ember`` and under real torch, each in a forked child of
``programs/_runner.py`` (which imports the library once: 50-odd programs cost one import per
library; the two runners, and Ember's children, run in parallel). Both runs must exit 0 and
print the same output, compared token by token:

* text between numbers must be identical, up to whitespace (tensor printing pads columns to the
  widest element, so one number whose rounding differs in the last printed digit can move the
  padding of its neighbours; the number of lines must still agree);
* an integer token (no decimal point or exponent) must be identical: counts, indices, shapes,
  epochs and argmax predictions are exact;
* a float token ``a`` from Ember must match torch's ``b`` within
  ``REL * max(|a|, |b|) + ABS + unit``, where ``unit`` is one unit in the last printed place
  when the token is printed to a fixed precision of at least four decimals (two values within
  tolerance can round to neighbouring last digits) and zero otherwise (Python's float repr is
  exact; an integral tensor printed as ``3.`` is exact).

Calibration: Ember's RNG, initialisation, shuffling and dropout masks are bit-exact with
torch's, and so are elementwise float32 ops; what differs is the last bits of some float
kernels (sums, softmax, transcendentals and BLAS products on OpenBLAS vs MKL), a few ulps,
which a training loop amplifies step by step. Over the programs here the largest relative
difference observed is ~1e-6 (the summed losses of the polynomial fits after hundreds of
steps; almost all agree to 1e-7), so ``REL = 1e-4`` leaves a margin of about a hundred while
still catching any real discrepancy: a wrong formula, a missed term or a different random draw
changes values at 1e-2 or more. (Optimizers that normalise steps by the gradient's size amplify
round-off fastest: ``polynomial_tensors``' RMSprop fit reached 5e-5 at step 500 and stops at
400.) A parameter whose gradient is zero up to round-off (a convolution's bias before a
BatchNorm) takes Adam steps of size ``lr`` in a direction set by round-off alone; the programs
leave such parameters out, as real code does (``bias=False``). Most programs print
byte-identical output (all 364 in a run when this was written, on an AMD CPU); one,
``sindy_sparse_regression``, prints torch's digits only as often as torch itself does: its
``lstsq`` (``gelsy``) pivots its first matrix as uninitialized memory says
(docs/differences.md).
``ABS = 1e-6`` absorbs float32 round-off in quantities that are zero up to cancellation
(gradients of ~1e-8, means of normalised activations). ``test_tolerance_catches_real_changes``
checks the comparison itself.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
PROGRAMS = sorted(p for p in (HERE / "programs").glob("*.py") if not p.name.startswith("_"))
SRC = HERE.parent / "src"
RUNNER = HERE / "programs" / "_runner.py"
REL, ABS = 1e-4, 1e-6
# The runners' wall-clock limit, a guard against a hung runner (each program has its own 240 s
# limit in _runner.py), so it scales with the number of programs. Measured on a 2-core Intel
# Xeon shared with other jobs (load average 6-8): 100 of the 697 programs took Ember's runner
# (2 children) 117 s of wall time for 66 s of CPU, torch's 68 s for 14 s; all 697 thus take
# ~460 CPU-s under Ember and ~820 s of wall time at that load, and 1200 s was exceeded under
# heavier load. 5 s a program (3485 s for 697) is 4x the loaded wall time and 15x the CPU time
# on two idle cores, room for a slower or busier CI machine.
TIMEOUT_S = max(1200, 5 * len(PROGRAMS))
RUNNER_CHECK = "save_load_checkpoint"    # the program the runner test also runs alone

_NUMBER = re.compile(r"[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|inf|nan)(?![\w.])")


def _env(**extra) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _start(root: pathlib.Path, lib: str, jobs: int,
           programs: list[pathlib.Path]) -> tuple[subprocess.Popen, pathlib.Path]:
    """Start ``_runner.py`` over ``programs`` under ``lib`` (``ember`` or ``torch``)."""
    dest = root / f"{lib}.json"
    launcher = ["-m", "ember"] if lib == "ember" else []
    cmd = [sys.executable, *launcher, str(RUNNER), str(dest), str(root / lib), str(jobs),
           *map(str, programs)]
    return subprocess.Popen(cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE), dest


def _collect(proc: subprocess.Popen, dest: pathlib.Path) -> dict:
    _, err = proc.communicate(timeout=TIMEOUT_S)
    assert proc.returncode == 0, err.decode()
    return json.loads(dest.read_text())


def _selected(session) -> list[pathlib.Path]:
    """The programs whose tests this run collected (``-k NAME`` runs only those), and the one
    the runner test reads."""
    names = {item.callspec.params["name"] for item in session.items
             if item.path == pathlib.Path(__file__) and hasattr(item, "callspec")
             and "name" in item.callspec.params}
    names.add(RUNNER_CHECK)
    return [p for p in PROGRAMS if p.stem in names]


@pytest.fixture(scope="session")
def outputs(tmp_path_factory, request):
    """{name: (ember result, torch result)}, each selected program run once under each, both at
    once.

    Each result is ``[returncode, stdout, stderr, cpu_seconds]``. Ember, the slower side, gets
    as many parallel children as there are cores; torch one at a time.
    """
    pytest.importorskip("torch")
    root = tmp_path_factory.mktemp("programs")
    programs = _selected(request.session)
    torch_run = _start(root, "torch", 1, programs)
    ember_run = _start(root, "ember", max(1, os.cpu_count() or 1), programs)
    ember, torch = _collect(*ember_run), _collect(*torch_run)
    return {name: (ember[name], torch[name]) for name in ember}


def _tokens(text: str) -> list[str]:
    """Alternating text and number tokens; text with its whitespace removed."""
    parts = _NUMBER.split(text)
    nums = _NUMBER.findall(text)
    out = []
    for i, part in enumerate(parts):
        out.append("".join(part.split()))
        if i < len(nums):
            out.append(nums[i])
    return out


def _unit(tok: str) -> float:
    mant, _, exp = tok.lower().partition("e")
    decimals = len(mant.partition(".")[2]) if "." in mant else 0
    return 10.0 ** (int(exp or 0) - decimals) if decimals >= 4 else 0.0


def _is_int(tok: str) -> bool:
    return not any(c in tok.lower() for c in ".en")


def compare(got: str, want: str) -> str | None:
    """None if ``got`` matches ``want`` (see the module docstring), else the first difference."""
    if got == want:
        return None
    if got.count("\n") != want.count("\n"):
        return f"{got.count(chr(10))} lines printed, torch printed {want.count(chr(10))}"
    g_lines, w_lines = got.splitlines(), want.splitlines()
    for lineno, (gl, wl) in enumerate(zip(g_lines, w_lines), 1):
        gt, wt = _tokens(gl), _tokens(wl)
        if len(gt) != len(wt):
            return f"line {lineno}: {gl!r} != torch's {wl!r}"
        for k, (a, b) in enumerate(zip(gt, wt)):
            if k % 2 == 0 or _is_int(a) or _is_int(b):
                if a != b:
                    return f"line {lineno}: {a!r} != torch's {b!r} in {gl!r} / {wl!r}"
                continue
            x, y = float(a), float(b)
            if x != x or y != y or x in (float("inf"), float("-inf")):
                if a.lstrip("+") != b.lstrip("+"):
                    return f"line {lineno}: {a} != torch's {b}"
                continue
            tol = REL * max(abs(x), abs(y)) + ABS + max(_unit(a), _unit(b))
            if abs(x - y) > tol:
                return f"line {lineno}: {a} != torch's {b} (|diff| {abs(x - y):.3g} > {tol:.3g})"
    return None


@pytest.mark.parametrize("name", [p.stem for p in PROGRAMS])
def test_program_prints_what_torch_prints(outputs, name):
    (e_rc, e_out, e_err, _), (t_rc, t_out, t_err, _) = outputs[name]
    assert t_rc == 0, f"torch run failed:\n{t_err}"
    assert e_rc == 0, f"ember run failed:\n{e_err}"
    difference = compare(e_out, t_out)
    assert difference is None, difference


def test_the_runner_runs_a_program_as_python_m_ember_runs_it(outputs, tmp_path):
    """The shared-import runner and a plain ``python -m ember PROGRAM`` print the same."""
    program = HERE / "programs" / f"{RUNNER_CHECK}.py"
    r = subprocess.run([sys.executable, "-m", "ember", str(program)], cwd=tmp_path, env=_env(),
                       capture_output=True, text=True, timeout=TIMEOUT_S)
    assert (r.returncode, r.stdout, r.stderr) == tuple(outputs[program.stem][0][:3])


def test_there_are_enough_programs_and_each_says_what_it_models():
    assert len(PROGRAMS) >= 50
    for p in PROGRAMS:
        assert p.read_text().startswith("# Models: "), p.name


def test_tolerance_catches_real_changes():
    want = "epoch 3 loss 0.123456789\ntensor([[ 1.0000, -0.2500]])\nacc 0.9375 n=12\n"
    assert compare(want, want) is None
    assert compare("epoch 3 loss 0.123457\ntensor([[ 1.0001, -0.2500]])\nacc 0.9375 n=12\n",
                   want) is None                      # within REL / one printed unit
    assert compare(want.replace("0.123456789", "0.1236"), want) is not None
    assert compare(want.replace("epoch 3", "epoch 4"), want) is not None
    assert compare(want.replace("n=12", "n=13"), want) is not None
    assert compare(want.replace("loss", "lost"), want) is not None
    assert compare(want.replace("-0.2500", "-0.2503"), want) is not None
    assert compare(want + "extra\n", want) is not None
    assert compare("tensor([1., 2.])", "tensor([1., 3.])") is not None
    assert compare("x 1.2346e+03", "x 1.2345e+03") is None
    assert compare("x 1.2346e+03", "x 1.2355e+03") is not None
