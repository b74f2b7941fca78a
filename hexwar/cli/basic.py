"""``hexwar info`` and ``hexwar validate``, and map lookup by path or shipped name."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import HexwarError, ValidationError
from ..model.maps import BattleMap
from ..paths import find_content
from . import echo_json

if TYPE_CHECKING:  # pragma: no cover
    from ..game.scenario import Scenario

__all__ = ["info", "validate", "load_map_or_scenario", "resolve_map"]


def load_map_or_scenario(name: str) -> tuple[BattleMap, Scenario | None]:
    """Load ``name``: a map or scenario file, or a shipped map or scenario name.

    Returns:
        ``(battlemap, scenario)``; ``scenario`` is ``None`` for a bare map, else the map is the
        scenario's own (as loaded, with its fires, rubble and wrecks).

    Raises:
        HexwarError: when nothing by that name exists or the file is another kind (a save);
            ValidationError listing every problem of a broken file.
    """
    from ..validate import detect_kind

    p = Path(name)
    if not p.is_file():
        found = find_content("maps", name) or find_content("scenarios", name)
        if found is None:
            raise HexwarError(
                f"{name!r} is neither a map or scenario file nor a shipped map or scenario name"
            )
        p = Path(found)
    kind = detect_kind(str(p))
    if kind == "hexwar-map":
        return BattleMap.load(p), None
    if kind == "hexwar-scenario":
        from ..game.scenario import load_scenario

        scen = load_scenario(p)
        return scen.battlemap, scen
    raise HexwarError(f"{name}: a {kind} file; give a map or a scenario")


def resolve_map(name: str) -> BattleMap:
    """The map of ``name`` (a map, or a scenario's map), by path or shipped name.

    Raises:
        HexwarError: when nothing by that name exists; ValidationError for a broken file.
    """
    return load_map_or_scenario(name)[0]


@click.command()
@click.argument("map_name", metavar="MAP")
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON with width, height, terrain counts, buildings."
)
def info(map_name: str, as_json: bool) -> None:
    """Print a map's size, terrain counts and buildings (R2.4)."""
    m = resolve_map(map_name)
    s = m.summary()
    if as_json:
        echo_json(s)
        return
    click.echo(f"{s['name']}: {s['width']} x {s['height']} hexes ({s['hexes']})")
    click.echo("terrain:   " + ", ".join(f"{k} {v}" for k, v in s["terrain"].items()))
    click.echo("buildings: " + (", ".join(f"DR{k} {v}" for k, v in s["buildings"].items()) or "none"))
    click.echo("levels:    " + ", ".join(f"{k}: {v}" for k, v in s["levels"].items()))
    click.echo(f"roads {s['roads']}, wrecks {s['wrecks']}, rubble {s['rubble']}, fires {s['fires']}")


def _expand(paths: tuple[str, ...]) -> list[tuple[str, str | None]]:
    """Each path, or each ``.json`` / ``.toml`` file under a folder (sorted, recursive), paired
    with a problem to report instead of validating (an empty folder)."""
    from pathlib import Path

    out: list[tuple[str, str | None]] = []
    for f in paths:
        p = Path(f)
        if not p.exists():  # a shipped map or scenario name, as every other command takes
            shipped = find_content("scenarios", f) or find_content("maps", f)
            out.append((str(shipped), None) if shipped is not None else (f, None))
            continue
        if not p.is_dir():
            out.append((f, None))
            continue
        found = sorted(str(x) for x in p.rglob("*") if x.suffix.lower() in (".json", ".toml") and x.is_file())
        if not found:
            out.append((f, "is a folder with no .json or .toml files"))
        out.extend((x, None) for x in found)
    return out


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE_OR_NAME...")
def validate(files: tuple[str, ...]) -> None:
    """Check map, scenario and save files; print every problem; exit 1 if any.

    A folder stands for every .json and .toml file in it and its subfolders; a shipped map or
    scenario name for its file. A save is replayed against a scenario from its own folder, the
    shipped scenarios or the scenario files given in the same command.
    """
    from ..validate import validate_file

    failed = 0
    todo = _expand(files)
    scenario_paths = tuple(
        f for f, prob in todo if prob is None and f.lower().endswith(".toml") and Path(f).is_file()
    )
    for f, problem in todo:
        if problem is not None:
            failed += 1
            click.echo(f"FAIL {f}\n  - {f}: {problem}")
            continue
        try:
            kind = validate_file(f, scenario_paths=scenario_paths)
        except ValidationError as exc:
            failed += 1
            click.echo(f"FAIL {f}", err=False)
            for p in exc.problems:
                click.echo(f"  - {p}")
        except HexwarError as exc:
            failed += 1
            click.echo(f"FAIL {f}\n  - {exc}")
        else:
            click.echo(f"ok   {f} ({kind})")
    if failed:
        click.echo(f"{failed} of {len(todo)} file(s) have problems")
        raise click.exceptions.Exit(1)
