"""Lint over the whole tree (DESIGN.md: ruff enforces style and docstrings on the public API)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean_including_public_docstrings():
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (it comes with the [test] extra)")
    out = subprocess.run(
        ["ruff", "check", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_is_clean_on_all_of_hexwar():
    """Issue 14: the whole package type-checks (the lines mode's overrides live in pyproject)."""
    if shutil.which("mypy") is None:
        pytest.skip("mypy is not installed (it comes with the [test] extra)")
    out = subprocess.run(
        ["mypy", "--no-error-summary", "hexwar"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_no_module_does_io_or_prints_at_import():
    code = (
        "import io, contextlib, importlib, pkgutil, hexwar\nbuf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        "    for m in pkgutil.walk_packages(hexwar.__path__, 'hexwar.'):\n"
        "        if not m.name.startswith(('hexwar.ui', 'hexwar.editor.window', 'hexwar.render')):\n"
        "            importlib.import_module(m.name)\n"
        "print(repr(buf.getvalue()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "''"


def test_ruff_format_check_is_clean():
    """Issue 14: the whole tree is in ruff's format (line length 110, pyproject)."""
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (it comes with the [test] extra)")
    out = subprocess.run(
        ["ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
