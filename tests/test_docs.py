"""The README's examples and the public docstrings' examples, run as doctests."""

from __future__ import annotations

import doctest
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODULES = ["ember._dtype", "ember._factories", "ember._tensor", "ember.autograd",
           "ember.autograd.grad_mode", "ember.autograd.function",
           "ember.autograd.gradcheck", "ember.autograd.variable",
           "ember.ao.quantization._tensor"]


@pytest.mark.parametrize("page", ["README.md", *sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_page_examples(page):
    r = doctest.testfile(str(ROOT / page), module_relative=False,
                         optionflags=doctest.ELLIPSIS)
    assert r.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    r = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert r.failed == 0
