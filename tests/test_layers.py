"""Architecture guard (DESIGN.md): the core layers never import pyglet, and nothing runs at import."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import hexwar

CORE_PREFIXES = ("hexwar.hexgrid", "hexwar.maps", "hexwar.terrain", "hexwar.los", "hexwar.rules",
                 "hexwar.game", "hexwar.sim", "hexwar.errors", "hexwar.fileio")


def core_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(hexwar.__path__, "hexwar."):
        if info.name.startswith(CORE_PREFIXES):
            names.append(info.name)
    return sorted(names)


def test_core_layers_never_import_pyglet():
    mods = core_modules()
    assert "hexwar.hexgrid" in mods and "hexwar.maps" in mods
    code = (
        "import importlib, sys\n"
        f"for m in {mods!r}:\n"
        "    importlib.import_module(m)\n"
        "bad = sorted(k for k in sys.modules if k == 'pyglet' or k.startswith('pyglet.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"pyglet imported by the core: {out.stdout}"


def test_cli_info_does_not_load_pyglet():
    code = (
        "import sys\nfrom hexwar.cli import main\n"
        "main(['--help'])\nprint('pyglet' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().endswith("False"), out.stdout + out.stderr
