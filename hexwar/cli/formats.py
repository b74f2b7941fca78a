"""``hexwar import``, ``hexwar export``, ``hexwar schema`` and ``hexwar migrate`` (issue 19).

- ``hexwar import tiled FILE.tmx|FILE.tmj --out MAP.json [--terrain TABLE.toml] [--force]``
- ``hexwar import wesnoth FILE.map --out MAP.json [--terrain TABLE.toml] [--force]``
- ``hexwar export tiled MAP --out FILE.tmj|FILE.tmx [--force]``
- ``hexwar schema KIND`` (``hexwar.formats.schema.SCHEMA_KINDS``: map, scenario, lines, save,
  protocol, cards, campaign, campaign-save, deck, terrain, wrecks, effects, looks)
- ``hexwar migrate FILE [--in-place | --out NEW]``

An import writes nothing when any problem is found (every problem is printed at once); an
existing ``--out`` file is replaced only with ``--force``. Files are written atomically.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import HexwarError
from ..formats.kinds import SCHEMA_KINDS

__all__ = ["import_group", "export_group", "schema", "migrate"]


def _check_out(out: str, force: bool, suffixes: tuple[str, ...]) -> Path:
    p = Path(out)
    if p.suffix.lower() not in suffixes:
        raise HexwarError(f"--out {out}: expected a file name ending in {' or '.join(suffixes)}")
    if p.exists() and not force:
        raise HexwarError(f"{out} exists: give --force to replace it, or another --out")
    if not (p.parent if str(p.parent) else Path(".")).is_dir():
        raise HexwarError(f"--out {out}: the folder {p.parent} does not exist")
    return p


def _report(m: object, out: Path, notes: list[str]) -> None:
    from ..model.maps import BattleMap

    assert isinstance(m, BattleMap)
    for n in notes:
        click.echo(f"note: {n}", err=True)
    s = m.summary()
    zones = ", ".join(f"{k} {len(v)} hexes" for k, v in m.deploy.items()) or "none"
    click.echo(
        f"wrote {out}: {s['width']} x {s['height']} hexes; terrain "
        + ", ".join(f"{k} {v}" for k, v in s["terrain"].items())
        + f"; deploy zones: {zones}"
    )


@click.group("import")
def import_group() -> None:
    """Bring a map made in another editor into hexwar (Tiled, Wesnoth)."""


@import_group.command("tiled")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option(
    "--out", "out", required=True, type=click.Path(dir_okay=False), help="The hexwar map to write (.json)."
)
@click.option(
    "--terrain",
    "table",
    type=click.Path(dir_okay=False),
    default=None,
    help="TOML table: tileset name + tile id -> hexwar terrain (wins over tile properties).",
)
@click.option(
    "--layer",
    "layer",
    default=None,
    metavar="NAME",
    help="The tile layer that holds the ground (default: the layer named terrain, or the only one).",
)
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
def import_tiled_cmd(source: str, out: str, table: str | None, force: bool, layer: str | None = None) -> None:
    """Import a Tiled hexagonal map (.tmx or .tmj, flat-topped: Stagger Axis X)."""
    from ..formats.tiled import import_tiled, load_tile_table

    target = _check_out(out, force, (".json",))
    res = import_tiled(source, load_tile_table(table) if table else None, layer=layer)
    res.map.save(target)
    _report(res.map, target, res.notes)


@import_group.command("wesnoth")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option(
    "--out", "out", required=True, type=click.Path(dir_okay=False), help="The hexwar map to write (.json)."
)
@click.option(
    "--terrain",
    "table",
    type=click.Path(dir_okay=False),
    default=None,
    help="TOML [codes] table: Wesnoth terrain code -> hexwar terrain (wins over the shipped table).",
)
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
def import_wesnoth_cmd(source: str, out: str, table: str | None, force: bool) -> None:
    """Import a Wesnoth .map (border ring removed, starting positions 1 and 2 as deploy zones)."""
    from ..formats.wesnoth import import_wesnoth, load_code_table

    target = _check_out(out, force, (".json",))
    res = import_wesnoth(source, load_code_table(table) if table else None)
    res.map.save(target)
    _report(res.map, target, res.notes)


@click.group("export")
def export_group() -> None:
    """Write a hexwar map for another editor (Tiled)."""


@export_group.command("tiled")
@click.argument("map_name", metavar="MAP")
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    help="The Tiled map to write: .tmj (JSON) or .tmx (XML); the tileset PNG goes beside it.",
)
@click.option("--force", is_flag=True, help="Replace --out (and its tileset image) if they exist.")
def export_tiled_cmd(map_name: str, out: str, force: bool) -> None:
    """Export a map (file, shipped name or a scenario's map) as a Tiled hexagonal map."""
    from ..formats.tiled import export_tiled
    from .basic import resolve_map

    _check_out(out, True, (".tmj", ".tmx"))
    written = export_tiled(resolve_map(map_name), out, force=force)
    click.echo("wrote " + ", ".join(str(p) for p in written))


@click.command()
@click.argument(
    "kind",
    type=click.Choice(list(SCHEMA_KINDS)),
)
def schema(kind: str) -> None:
    """Print the JSON Schema (draft 2020-12) of a hexwar file kind or of the network messages.

    Every schema is generated from the kind's typed model (``hexwar.formats.schema``).
    """
    from ..formats.schema import schema_text

    click.echo(schema_text(kind), nl=False)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--in-place", "in_place", is_flag=True, help="Replace FILE with the upgraded file.")
@click.option(
    "--out", "out", type=click.Path(dir_okay=False), default=None, help="Write the upgraded file here."
)
def migrate(file: str, in_place: bool, out: str | None) -> None:
    """Upgrade a map, scenario or save to this hexwar's schema version (atomically).

    Without --in-place or --out the upgraded file is printed.
    """
    from ..formats.migrate import CURRENT, migrate_file, upgraded_text

    if in_place and out:
        raise HexwarError("give --in-place or --out, not both")
    if out is not None and Path(out).resolve() == Path(file).resolve():
        raise HexwarError(
            f"--out {out} is {file} itself: give --in-place to replace it (so that it is asked for)"
        )
    if in_place or out:
        kind, steps, _ = migrate_file(file, None if in_place else out)
        where = file if in_place else out
        done = (
            " -> ".join(str(v) for v in steps + [CURRENT[kind]])
            if steps
            else f"already version {CURRENT[kind]}"
        )
        click.echo(f"ok   {file} ({kind}): {done}; wrote {where}")
        return
    click.echo(upgraded_text(file)[2], nl=False)
