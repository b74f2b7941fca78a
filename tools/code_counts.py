#!/usr/bin/env python3
"""Counts of the code's shape that issue 34 tracks, printed as a Markdown block.

- hand-written problem sites: calls that build a problem report by hand, the pattern
  ``problems.append(`` (any ``*problems`` list) or ``bad(`` (the local reporter of a loader,
  ``self.bad(`` included) in ``hexwar/``: a typed model reports structure by itself, so these
  are what the loaders still check by hand (target: at most half of the 378 before issue 34);
- modules over 800 lines (target: none over 1,000; the architecture document says why for
  each one over 800);
- functions over 100 lines (target: none over 150);
- import loops: strongly connected groups of ``hexwar`` modules that import each other,
  reading every ``import`` with ``ast`` (at the top, inside functions, under
  ``TYPE_CHECKING``), as tests/test_layers.py reads them. An import of a package counts as an
  import of its ``__init__``; ``from . import x`` of a submodule counts as an import of it.
  An import of a compiled extension (``from . import _ckernel``) is not one of its package.
  Loops through an action registry (``hexwar.game.actions`` and its siblings: the package
  imports every action, each action the state) are the issue's allowed exception and are
  counted apart; the directly mutual pairs are listed too.

Usage::

    python tools/code_counts.py            # the block for docs/architecture.md
    python tools/code_counts.py --json     # the same figures as JSON
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "hexwar"
PROBLEM_SITE = re.compile(r"[a-z_]*problems\.append\(|\bbad\(")
MODULE_LIMIT = 800
FUNCTION_LIMIT = 100
#: the action registries (an ``actions`` package imports every action, each action the state)
REGISTRY = re.compile(r"\.actions$")


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def problem_sites(files: dict[str, Path]) -> dict[str, int]:
    """Module -> hand-written problem sites in it (only modules that have any)."""
    out = {}
    for name, p in files.items():
        n = len(PROBLEM_SITE.findall(p.read_text(encoding="utf-8")))
        if n:
            out[name] = n
    return out


def long_functions(files: dict[str, Path]) -> list[tuple[int, str]]:
    """``(lines, "module:qualified.name")`` of every function over the limit, longest first."""
    out = []
    for name, p in files.items():
        tree = ast.parse(p.read_text(encoding="utf-8"))

        def walk(node: ast.AST, prefix: str, name: str = name) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    n = (child.end_lineno or child.lineno) - child.lineno + 1
                    q = f"{prefix}{child.name}"
                    if n > FUNCTION_LIMIT:
                        out.append((n, f"{name}:{q}"))
                    walk(child, q + ".")
                elif isinstance(child, ast.ClassDef):
                    walk(child, f"{prefix}{child.name}.")
                else:
                    walk(child, prefix)

        walk(tree, "")
    return sorted(out, reverse=True)


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``hexwar`` modules ``name`` imports anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in known:
                    out.add(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pkg = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join(pkg + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                sub = f"{mod}.{a.name}"
                if sub in known:
                    out.add(sub)
                elif mod in known and not extension_module(mod, a.name):
                    out.add(mod)
    out.discard(name)
    return out


def extension_module(package: str, name: str) -> bool:
    """True when ``name`` in ``package`` is a compiled extension (its C source or built
    library beside the package's modules): ``from . import _ckernel`` imports that extension,
    not the package's ``__init__``, so it closes no loop.

    >>> extension_module("hexwar.model.los", "_ckernel"), extension_module("hexwar.model.los", "single")
    (True, False)
    """
    folder = ROOT.joinpath(*package.split("."))
    if not folder.is_dir():
        return False
    return (
        (folder / f"{name}.c").is_file()
        or any(folder.glob(f"{name}.*.so"))
        or any(folder.glob(f"{name}.*.pyd"))
    )


def import_graph(files: dict[str, Path]) -> dict[str, list[str]]:
    """Module -> the ``hexwar`` modules it imports."""
    known = set(files)
    return {n: sorted(imports(n, p, known)) for n, p in files.items()}


def mutual_pairs(graph: dict[str, list[str]]) -> list[list[str]]:
    """Pairs of modules that import each other directly."""
    return sorted({tuple(sorted((a, b))) for a in graph for b in graph[a] if a in graph.get(b, ())})  # type: ignore[misc]


def import_loops(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected groups (two or more modules) of the import graph (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(groups)


def counts() -> dict[str, object]:
    """Every figure, JSON-ready."""
    files = modules()
    sites = problem_sites(files)
    sizes = {n: len(p.read_text(encoding="utf-8").splitlines()) for n, p in files.items()}
    big = sorted(((v, n) for n, v in sizes.items() if v > MODULE_LIMIT), reverse=True)
    funcs = long_functions(files)
    graph = import_graph(files)
    loops = import_loops(graph)
    return {
        "problem_sites": sum(sites.values()),
        "problem_sites_by_module": dict(sorted(sites.items(), key=lambda kv: -kv[1])),
        "modules_over_800": [[n, v] for v, n in big],
        "functions_over_100": [[q, n] for n, q in funcs],
        "import_loops": loops,
        "import_loops_outside_registries": [g for g in loops if not any(REGISTRY.search(m) for m in g)],
        "mutual_imports": [list(x) for x in mutual_pairs(graph)],
    }


def markdown(c: dict[str, object]) -> str:
    """The block for docs/architecture.md."""
    sites = c["problem_sites_by_module"]
    assert isinstance(sites, dict)
    big = c["modules_over_800"]
    funcs = c["functions_over_100"]
    loops = c["import_loops"]
    outside = c["import_loops_outside_registries"]
    pairs = c["mutual_imports"]
    assert isinstance(big, list) and isinstance(funcs, list) and isinstance(loops, list)
    assert isinstance(outside, list) and isinstance(pairs, list)
    top = ", ".join(f"{n} {v}" for n, v in list(sites.items())[:8])
    lines = [
        f"- hand-written problem sites (`problems.append(` / `bad(`): **{c['problem_sites']}** "
        f"(issue 34 started at 378); most in {top}",
        f"- modules over 800 lines: **{len(big)}**"
        + (": " + ", ".join(f"{n} {v}" for n, v in big) if big else ""),
        f"- functions over 100 lines: **{len(funcs)}**"
        + (
            " (over 150: " + ", ".join(f"{q} {n}" for q, n in funcs if n > 150) + ")"
            if any(n > 150 for _, n in funcs)
            else " (none over 150)"
        ),
        f"- import loops (groups of modules that reach each other): **{len(loops)}**, "
        f"{len(loops) - len(outside)} of them through an action registry"
        + ("; outside the registries: " + "; ".join(" <-> ".join(g) for g in outside) if outside else ""),
        f"- modules that import each other directly: **{len(pairs)}** pairs"
        + (": " + ", ".join(f"{a} <-> {b}" for a, b in pairs) if pairs else ""),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the counts (Markdown, or JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    c = counts()
    print(json.dumps(c, indent=2) if args.json else markdown(c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
