"""docs/parity.md is generated from the code and the tests, and claims nothing untested."""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import parity  # noqa: E402


def test_parity_table_is_up_to_date():
    assert parity.own_part((ROOT / "docs" / "parity.md").read_text()) == parity.table(), \
        "docs/parity.md is stale: run python tools/parity.py"


def test_nothing_supported_is_untested():
    assert parity.untested_supported() == []
