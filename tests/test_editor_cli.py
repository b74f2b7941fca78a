"""``hexwar edit``: clear errors, never a traceback; a headless screenshot (issue 8)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hexwar.cli.edit import parse_size
from hexwar.errors import HexwarError
from hexwar.model.maps import BattleMap


def run(
    args: list[str], env_extra: dict[str, str] | None = None, drop_display: bool = True
) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if drop_display:
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
    env.pop("HEXWAR_HEADLESS", None)
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "hexwar.cli", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_no_display_gives_one_sentence_and_status_2(tmp_path):
    p = tmp_path / "m.json"
    BattleMap.new(5, 5).save(p)
    out = run(["edit", str(p)])
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = [x for x in out.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "needs a display" in lines[0]


@pytest.mark.parametrize(
    "args, words",
    [
        (["edit", "no-such-map.json"], "not found"),
        (["edit", "--new", "0x9"], "1..500"),
        (["edit", "--new", "banana"], "WIDTHxHEIGHT"),
        # found by trying hexwar as a new user: a FileNotFoundError traceback from pyglet's save
        (["edit", "--new", "8x6", "--screenshot", "/no-such-dir-hexwar/x.png"], "does not exist"),
    ],
)
def test_bad_arguments_are_clear_errors(args, words):
    out = run(args)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr


def test_broken_map_lists_its_problems(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"format": "hexwar-map", "schema_version": 1, "width": 2, "height": 1, "terrain": ["Q."]}')
    out = run(["edit", str(p)])
    assert out.returncode == 2 and "unknown terrain code 'Q'" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.ui
def test_screenshot_headless_writes_png(tmp_path):
    p = tmp_path / "m.json"
    BattleMap.new(8, 6).save(p)
    png = tmp_path / "shot.png"
    out = run(
        ["edit", str(p), "--screenshot", str(png), "--size", "800x600"],
        env_extra={"HEXWAR_RECOVERY_DIR": str(tmp_path / "rec")},
    )
    assert out.returncode == 0, out.stderr
    from PIL import Image

    with Image.open(png) as im:
        assert im.size == (800, 600)


def test_parse_size():
    assert parse_size("30x20") == (30, 20)
    with pytest.raises(HexwarError, match="1..500"):
        parse_size("501x2")
