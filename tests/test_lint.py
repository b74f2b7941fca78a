"""Lint over the whole tree (DESIGN.md: ruff enforces style and docstrings on the public API)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> list[str]:
    """``python -m NAME`` of the interpreter running the tests: the [test] extra installs ruff
    and mypy into it, so they are found even when its bin folder is not on PATH (a venv used
    without activating it). Skips only when the tool is truly not installed."""
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (it comes with the [test] extra)")
    return [sys.executable, "-m", name]


def test_ruff_is_clean_including_public_docstrings():
    out = subprocess.run(
        [*tool("ruff"), "check", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_is_clean_on_all_of_hexwar():
    """Issue 14: the whole package type-checks (the lines mode's overrides live in pyproject)."""
    out = subprocess.run(
        [*tool("mypy"), "--no-error-summary", "hexwar"], cwd=ROOT, capture_output=True, text=True, timeout=900
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
    out = subprocess.run(
        [*tool("ruff"), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
