"""Architecture guard (DESIGN.md): the core layers never import pyglet, and nothing runs at import."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import hexwar

CORE_PREFIXES = (
    "hexwar.model.hexgrid",
    "hexwar.model.maps",
    "hexwar.model.terrain",
    "hexwar.model.los",
    "hexwar.rules",
    "hexwar.game",
    "hexwar.sim",
    "hexwar.errors",
    "hexwar.fileio",
)


def core_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(hexwar.__path__, "hexwar."):
        if info.name.startswith(CORE_PREFIXES):
            names.append(info.name)
    return sorted(names)


def test_core_layers_never_import_pyglet():
    mods = core_modules()
    assert "hexwar.model.hexgrid" in mods and "hexwar.model.maps" in mods
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
    code = "import sys\nfrom hexwar.cli import main\nmain(['--help'])\nprint('pyglet' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().endswith("False"), out.stdout + out.stderr


# -- the layer table of docs/architecture.md, checked on every import statement (ast) ----------
import ast  # noqa: E402
import fnmatch  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def _block(text: str, name: str) -> str:
    m = re.search(rf"<!-- {name}:begin -->(.*?)<!-- {name}:end -->", text, re.S)
    assert m, f"docs/architecture.md has no <!-- {name}:begin --> ... <!-- {name}:end --> block"
    return m.group(1)


def layer_table(text: str) -> tuple[dict[str, tuple[str, int]], list[tuple[str, str]]]:
    """``pattern -> (layer, rank)`` and the allowed sideways ``(importer, imported)`` pairs."""
    table: dict[str, tuple[str, int]] = {}
    for line in _block(text, "layers").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].isdigit():
            continue
        for pat in re.findall(r"`([^`]+)`", cells[2]):
            assert pat not in table, f"{pat} listed twice in the layer table"
            table[pat] = (cells[0], int(cells[1]))
    side = [(a, b) for a, b in re.findall(r"`([^`]+)`\s*->\s*`([^`]+)`", _block(text, "sideways"))]
    return table, side


def _matches(module: str, pattern: str) -> bool:
    if "*" in pattern:
        head = module.split(".")
        return any(fnmatch.fnmatchcase(".".join(head[: i + 1]), pattern) for i in range(len(head)))
    return module == pattern or module.startswith(pattern + ".")


def layer_of(module: str, table: dict[str, tuple[str, int]]) -> tuple[str, tuple[str, int]] | None:
    """The longest table pattern ``module`` falls under, with its layer."""
    hits = [p for p in table if _matches(module, p)]
    if not hits:
        return None
    best = max(hits, key=lambda p: (len(p.replace("*", "")), p))
    return best, table[best]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every hexwar module ``source`` imports, anywhere in the file: ``(line, name)``."""
    pkg = module if is_package else module.rsplit(".", 1)[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "hexwar"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "hexwar":
                continue
            # `from hexwar.x import y` may name a submodule y: check the finer name
            out += [(node.lineno, f"{target}.{a.name}") for a in node.names]
    return out


def violations(root: Path, table: dict[str, tuple[str, int]], sideways: list[tuple[str, str]]) -> list[str]:
    """Every upward or sideways import of the package under ``root`` (``.../hexwar``)."""
    bad: list[str] = []
    base = root.parent
    for path in sorted(root.rglob("*.py")):
        mod = module_name(path, base)
        mine = layer_of(mod, table)
        if mine is None:
            bad.append(f"{mod}: in no layer of the table")
            continue
        for line, target in imports_of(path.read_text(encoding="utf-8"), mod, path.name == "__init__.py"):
            theirs = layer_of(target, table) or layer_of(target.rsplit(".", 1)[0], table)
            if theirs is None:
                bad.append(f"{mod}:{line} imports {target}, which is in no layer")
                continue
            (_, (la, ra)), (_, (lb, rb)) = mine, theirs
            if la == lb or rb < ra:
                continue
            if any(_matches(mod, a) and _matches(target, b) for a, b in sideways):
                continue
            kind = "upward" if rb > ra else "sideways"
            bad.append(f"{mod}:{line} imports {target}: {kind} ({la} {ra} -> {lb} {rb})")
    return bad


def test_every_import_in_hexwar_follows_the_layer_table_in_architecture_md():
    table, side = layer_table(DOC.read_text(encoding="utf-8"))
    assert {"cli", "ui", "editor", "render", "sim", "game", "rules", "model"} <= {
        v[0] for v in table.values()
    }
    bad = violations(Path(hexwar.__file__).parent, table, side)
    assert not bad, "imports against the layer table (docs/architecture.md):\n" + "\n".join(bad)


def test_the_layer_check_catches_upward_and_sideways_imports_even_inside_functions(tmp_path):
    pkg = tmp_path / "hexwar"
    for d in ("render", "ui", "editor", "game"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "cli").mkdir()
    (pkg / "cli" / "__init__.py").write_text("")
    (pkg / "cli" / "x.py").write_text("from ..render import scene\n")  # downward: fine
    (pkg / "render" / "scene.py").write_text("def f():\n    from ..cli.x import g\n")  # upward, in a function
    (pkg / "ui" / "w.py").write_text("from hexwar.editor import overlays\n")  # sideways
    (pkg / "editor" / "overlays.py").write_text("from ..ui.widgets import Rect\nfrom ..game import state\n")
    (pkg / "game" / "state.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import hexwar.ui.w\n"
    )  # upward, type-only
    table, side = layer_table(DOC.read_text(encoding="utf-8"))
    bad = violations(pkg, table, side)
    assert any(b.startswith("hexwar.render.scene:2 imports hexwar.cli.x.g: upward") for b in bad), bad
    assert any(b.startswith("hexwar.ui.w:1 imports hexwar.editor.overlays: sideways") for b in bad), bad
    assert any(b.startswith("hexwar.game.state:3 imports hexwar.ui.w: upward") for b in bad), bad
    assert len(bad) == 3, bad  # editor -> ui.widgets is a documented sideways import; cli -> render is down


def test_no_module_of_hexwar_is_over_600_lines_without_a_reason_in_the_architecture_doc():
    # issue 14: a long module is a decision, written down (either list of docs/architecture.md)
    doc = DOC.read_text(encoding="utf-8")
    start = doc.index("## Modules over 600 lines, and why")
    reasons = doc[start : doc.index("\n## ", start + 1)]
    game_rules = doc[doc.index("**Modules over 600 lines**") :]
    reasons += game_rules[: game_rules.index("\n\n")]
    pkg = Path(hexwar.__file__).parent
    long = sorted(p for p in pkg.rglob("*.py") if len(p.read_text(encoding="utf-8").splitlines()) > 600)
    missing = [
        p.relative_to(pkg.parent).as_posix()
        for p in long
        if f"`{p.relative_to(pkg.parent).as_posix()}`" not in reasons
        and f"`{p.relative_to(pkg).as_posix()}`" not in reasons
    ]
    assert missing == [], f"modules over 600 lines with no reason in docs/architecture.md: {missing}"
