"""The usage-weighted API coverage (tools/coverage.py) does not drop, and what it lacks is said."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest
import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import coverage  # noqa: E402

import ember  # noqa: E402


@pytest.fixture(scope="module")
def result():
    """The measurement, made in an interpreter of its own: the smoke calls make Tensor
    subclasses (DTensor, CausalBias …) whose first instance switches ``__torch_function__``
    dispatch on for the rest of the process."""
    code = ("import json, sys\n"
            f"sys.path.insert(0, {str(ROOT / 'tools')!r})\n"
            "import coverage\n"
            "print(json.dumps(coverage.measure()))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=3000)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout.splitlines()[-1])


def test_every_counted_name_is_measured(result):
    assert len(result["rows"]) == len(coverage.usage()) == 826


def test_figure_does_not_drop_below_the_recorded_floor(result):
    floor = json.loads((ROOT / "tests" / "data" / "coverage.json").read_text())["floor"]
    assert result["weighted"] >= floor, \
        f"usage-weighted coverage {result['weighted']:.2f} % fell below {floor} %"


def test_names_used_ten_times_are_supported_or_listed(result):
    listed = set(re.findall(r"`([\w.]+)`", (ROOT / "docs" / "differences.md").read_text()))
    unlisted = [r["name"] for r in result["rows"]
                if r["uses"] >= 10 and r["status"] != coverage.SUPPORTED
                and r["name"] not in listed]
    assert unlisted == [], f"not supported and not in docs/differences.md: {unlisted}"


def test_names_used_five_times_have_a_smoke_call(result):
    assert [r["name"] for r in result["rows"]
            if r["uses"] >= 5 and r["status"] == coverage.PRESENT] == []


def test_smoke_results_compare_values_dtypes_and_errors():
    def same(src_t, src_e=None):
        return coverage._same(coverage.run_smoke(src_t, "t", torch, "/tmp"),
                              coverage.run_smoke(src_e or src_t, "t", ember, "/tmp"))
    assert same("torch.ones(2) * 2")
    assert not same("torch.ones(2)", "torch.ones(2, dtype=torch.float64)")
    assert not same("torch.ones(2)", "torch.ones(3)")
    assert not same("torch.ones(2)", "torch.ones(2) + 1e-3")
    assert not same("x.sum()", "x.sum().item()")
    assert same("torch.zeros(2).view(3)")           # both raise RuntimeError
    assert not same("torch.zeros(2).view(3)", "torch.zeros(2).view(2)")
    assert not same("1", "1.0") and not same("True", "1")
    assert coverage._same(coverage.normalise(np.float32(1), torch), ("ndarray", "float32", (),
                                                                       np.float32(1)))


def test_the_parity_page_keeps_its_generated_section():
    text = (ROOT / "docs" / "parity.md").read_text()
    assert coverage.BEGIN in text and coverage.END in text
    assert coverage.splice(text, "NEW").count("NEW") == 1
