"""The README's Quick start and CI stay in step (the brief: keep the two command lines true)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start_lines() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [ln.strip() for ln in block.strip().splitlines() if ln.strip()]


def test_quick_start_is_two_lines_play_and_test():
    lines = quick_start_lines()
    assert len(lines) == 2
    assert lines[0].endswith("hexwar play")
    assert "pip install -e '.[test]'" in lines[1] and "pytest" in lines[1]


def test_ci_runs_the_readme_test_line():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "grep -m1 -F \"pip install -e '.[test]'\" README.md" in ci
