#!/usr/bin/env python3
"""Compile the shipped documents: ``hexwar/data/compiled/<sha256>.json`` (issue 35).

Validates every shipped hex scenario, lines scenario, map and rules table (terrain, wrecks,
effects) by its typed model, exactly as its loader does, and writes the validated value with the
fingerprint of the code that read it (:mod:`hexwar.model.compiled_docs`). A game's start then
reads that instead of parsing and validating the file again, as long as neither the file's bytes
nor that code changed; it imports no pydantic. Run it after editing a shipped scenario, map or
table, or the models; ``tests/test_compiled_docs.py`` fails while a compiled document is stale
or missing (a stale one is never used: the start validates the file as before). The folder is
written whole: files of documents no longer shipped are removed.

Usage::

    python tools/compile_docs.py            # write them
    python tools/compile_docs.py --check    # exit 1 when one is stale, missing or left over
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexwar.errors import ValidationError  # noqa: E402
from hexwar.fileio import atomic_write_text, loads_json, loads_toml, read_text  # noqa: E402
from hexwar.model import compiled_docs  # noqa: E402
from hexwar.paths import content_dir  # noqa: E402

#: the rules tables of the package's data folder: file -> (kind, model in hexwar.model.terrain_file
#: or hexwar.formats.effects_file)
TABLES = {
    "terrain.toml": ("terrain", "TerrainTableFile"),
    "wrecks.toml": ("wrecks", "WreckPoolsFile"),
    "effects.toml": ("effects", "EffectsFile"),
}


def shipped_documents() -> list[tuple[str, Path]]:
    """``(kind, path)`` of every shipped document that a start reads: the scenarios (hex or lines
    by their ``mode``), the maps and the rules tables."""
    out: list[tuple[str, Path]] = []
    for p in sorted(content_dir("scenarios").glob("*.toml")):
        data = loads_toml(read_text(p, kind="hexwar-scenario"), str(p))
        out.append(("lines-scenario" if data.get("mode") == "lines" else "scenario", p))
    out += [("map", p) for p in sorted(content_dir("maps").glob("*.json"))]
    data_dir = ROOT / "hexwar" / "data"
    out += [(kind, data_dir / name) for name, (kind, _) in TABLES.items()]
    return out


def validated_value(kind: str, text: str, src: str) -> Any:
    """The model value of document ``text`` of ``kind``, read as its loader reads it (the same
    upgrade, the same model); only a document without a problem is compiled.

    Raises:
        ValidationError: the document's problems.
        ValueError: for an unknown kind.
    """
    from hexwar.model.documents import check, read_lenient

    if kind == "scenario":
        from hexwar.formats import scenario_file
        from hexwar.formats.migrate import upgrade

        data = {k: v for k, v in loads_toml(text, src).items() if k != "mode"}
        data, _ = upgrade(data, "scenario", src)
        read = read_lenient(scenario_file.ScenarioFile, data, src)
        if read.problems or read.value is None:
            raise ValidationError(read.problems)
        return read.value
    if kind == "lines-scenario":
        from hexwar.formats import lines_file

        read = read_lenient(lines_file.LinesScenarioFile, loads_toml(text, src), src)
        if read.problems or read.value is None:
            raise ValidationError(read.problems)
        return read.value
    if kind == "map":
        from hexwar.model.documents import upgrade_document
        from hexwar.model.map_format import MAP_MIGRATIONS, MAP_SCHEMA_VERSION
        from hexwar.model.map_reader import read_model

        data, _ = upgrade_document(loads_json(text, src), MAP_SCHEMA_VERSION, MAP_MIGRATIONS, src)
        doc, problems, raw, index = read_model(data, src, lean=False)  # the model's own value
        if doc is None or problems or raw or index is not None:
            raise ValidationError(problems)
        return doc
    for _name, (k, model) in TABLES.items():
        if k == kind:
            if kind == "effects":
                from hexwar.formats import effects_file as models
            else:
                from hexwar.model import terrain_file as models  # type: ignore[no-redef]
            doc, problems = check(getattr(models, model), loads_toml(text, src), src)
            if doc is None:
                raise ValidationError(problems)
            return doc
    raise ValueError(f"unknown document kind {kind!r}")


def compiled_texts() -> dict[str, str]:
    """File name -> compiled text of every shipped document (what ``main`` writes)."""
    out: dict[str, str] = {}
    for kind, path in shipped_documents():
        text = read_text(path, kind="data" if kind in ("terrain", "wrecks", "effects") else None)
        value = validated_value(kind, text, str(path))
        out[compiled_docs.document_file(text).name] = compiled_docs.compiled_document(kind, text, value)
    return out


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the compiled documents; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when one is stale, missing or left over")
    args = ap.parse_args(argv)
    folder = compiled_docs.compiled_dir()
    want = compiled_texts()
    have = {p.name: p for p in folder.glob("*.json")} if folder.is_dir() else {}
    if args.check:
        bad = sorted(n for n, t in want.items() if n not in have or have[n].read_text(encoding="utf-8") != t)
        extra = sorted(set(have) - set(want))
        for n in bad:
            print(f"{folder / n}: STALE or missing")
        for n in extra:
            print(f"{folder / n}: left over (no shipped document has these bytes)")
        print(
            f"{len(want)} documents: {'current' if not bad and not extra else 'run python tools/compile_docs.py'}"
        )
        return 0 if not bad and not extra else 1
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in want.items():
        if name not in have or have[name].read_text(encoding="utf-8") != text:
            atomic_write_text(folder / name, text)
    for name in set(have) - set(want):
        have[name].unlink()
    print(f"wrote {len(want)} compiled documents to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
