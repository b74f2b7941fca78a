"""``hexwar edit [MAP_OR_SCENARIO] [--new WxH | --generate WxH]``: the map and scenario editor (issue 8).

Opens a map (``.json``) or a scenario (``.toml``, with its map) in the editor window, or a new
map (``--new 30x20``; a ``.toml`` name makes a new scenario), or a generated one
(``--generate 30x24 --seed 7 --style river``, :mod:`hexwar.mapgen`; with ``--out MAP.json`` it
is written without opening a window). With no display it says so in one
sentence; ``--screenshot FILE`` draws the editor headless to a PNG instead of opening a window.
An autosave from an editor that did not quit cleanly is offered at start.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from ..errors import HexwarError

__all__ = ["edit", "parse_size"]

NO_DISPLAY = (
    "hexwar edit needs a display and none is available "
    "(use `hexwar edit FILE --screenshot OUT.png` or `hexwar render` to draw headless)"
)


def parse_size(
    text: str, option: str = "--new", lo: int = 1, hi: int = 500, unit: str = "hexes"
) -> tuple[int, int]:
    """``"30x20"`` -> ``(30, 20)``.

    Args:
        option: the option name for messages; lo, hi: allowed side range; unit: for messages.

    Raises:
        HexwarError: naming the input when it is not ``WIDTHxHEIGHT`` with sides lo..hi.

    >>> parse_size("30x20"), parse_size(" 12 X 8 ")
    ((30, 20), (12, 8))
    """
    m = re.fullmatch(r"\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*", text or "")
    if not m:
        raise HexwarError(f"{option} {text!r}: expected WIDTHxHEIGHT in {unit}, like 30x20")
    w, h = int(m.group(1)), int(m.group(2))
    if not (lo <= w <= hi and lo <= h <= hi):
        raise HexwarError(f"{option} {text!r}: each side must be {lo}..{hi} {unit}")
    return w, h


def _resolve(target: str) -> Path | None:
    from ..paths import find_content

    p = Path(target)
    if p.exists():
        return p
    kind = "scenarios" if target.endswith(".toml") else "maps"
    found = find_content(kind, target)
    if found is None and kind == "maps":
        found = find_content("scenarios", target)
    return found


@click.command()
@click.argument("target", required=False, metavar="[MAP_OR_SCENARIO]")
@click.option("--new", "new_size", metavar="WxH", help="Start a new map of this size (hexes), e.g. 30x20.")
@click.option("--fill", default="clear", show_default=True, help="Terrain of a new map.")
@click.option(
    "--generate", "gen_size", metavar="WxH", help="Start on a generated map of this size (hexes), e.g. 30x24."
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Seed of the generated map (the same seed gives the same map).",
)
@click.option(
    "--style",
    type=click.Choice(["steppe", "village", "city", "river", "forest"]),
    default="village",
    show_default=True,
    help="Kind of generated map.",
)
@click.option(
    "--out",
    "gen_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="With --generate: write the map here (.json) and exit, no window.",
)
@click.option("--force", is_flag=True, help="With --generate --out: replace the file if it exists.")
@click.option(
    "--new-scenario",
    "new_scenario",
    is_flag=True,
    help="Start a scenario on the map MAP.json: deploy zones and objectives from its markers "
    "(saved as MAP.toml beside it).",
)
@click.option(
    "--screenshot",
    "shot",
    type=click.Path(dir_okay=False),
    help="Draw the editor headless to this PNG and exit.",
)
@click.option(
    "--size", "win_size", default="1280x800", show_default=True, metavar="WxH", help="Window size in points."
)
def edit(
    target: str | None,
    new_size: str | None,
    fill: str,
    gen_size: str | None,
    seed: int,
    style: str,
    gen_out: str | None,
    force: bool,
    shot: str | None,
    win_size: str,
    new_scenario: bool = False,
) -> None:
    """Edit a map or scenario: terrain, buildings, roads, wrecks, zones, units (H for help)."""
    opened = _open_document(target, new_size, fill, gen_size, seed, style, gen_out, force)
    if opened is None:
        return  # a generated map written to --out
    doc, path = opened
    if new_scenario:  # issue 32: a scenario draft from the map's deploy and objective markers
        if doc.scenario is not None:
            raise HexwarError(
                f"--new-scenario starts a scenario on a map: {target} is already a scenario (open it without the flag)"
            )
        for note in doc.new_scenario_on_map():
            click.echo(f"note: {note}", err=True)
        click.echo(
            f"new scenario on {doc.map.name}: Save writes {doc.path or 'a file you name (Save As)'}", err=True
        )
    ww, wh = parse_size(win_size, "--size", 320, 8192, "points")
    if shot:
        if not shot.lower().endswith(".png"):  # never replace a map or scenario with an image
            raise HexwarError(f"--screenshot {shot}: expected a file name ending in .png")
        folder = Path(shot).parent
        if not folder.is_dir():
            raise HexwarError(f"--screenshot {shot}: the folder {folder} does not exist")

    from ..render import backend

    if shot:
        backend.configure(True)
    else:
        try:
            backend.configure(False)
        except backend.NoDisplayError:
            raise HexwarError(NO_DISPLAY) from None

    from ..editor.recovery import find_recoveries

    recoveries = [] if shot else find_recoveries(path)
    import pyglet

    from ..editor.window import EditorWindow

    try:
        win = EditorWindow(
            doc, width=ww, height=wh, visible=not shot, recoveries=recoveries, schedule=not shot
        )
    except HexwarError:
        raise
    except Exception as exc:  # pyglet raises several types when no GL context can be made
        raise HexwarError(f"cannot open the editor window: {exc}") from None
    if shot:
        win.screenshot(shot)
        win.autosaver.discard()
        win.close()
        click.echo(f"wrote {shot}")
        return
    for note in doc.scenario.warnings if doc.scenario is not None else ():
        click.echo(f"note: {note}", err=True)
    pyglet.app.run()


def _open_document(
    target: str | None,
    new_size: str | None,
    fill: str,
    gen_size: str | None,
    seed: int,
    style: str,
    gen_out: str | None,
    force: bool,
) -> tuple[Any, Path | None] | None:
    """The document ``hexwar edit`` opens and the file it saves to: a generated map
    (``--generate``), a new map or scenario (``--new``), a file or shipped map, or an empty
    30 x 20 map. ``None`` when a generated map was only written to ``--out``.

    Raises:
        HexwarError: for a bad combination of options, an existing file a new map would
            replace, or a map or scenario that cannot be read.
    """
    from ..editor.model import EditorDocument
    from ..model.maps import MapError

    path: Path | None = None
    if gen_out is not None and gen_size is None:
        raise HexwarError("--out writes a generated map: give --generate WxH with it")
    if gen_size is not None and new_size is not None:
        raise HexwarError("give --new or --generate, not both")
    try:
        if gen_size is not None:
            from ..mapgen import MIN_SIDE, generate

            w, h = parse_size(gen_size, "--generate", MIN_SIDE)
            if target and target.lower().endswith(".toml"):
                raise HexwarError("--generate makes a map: give a .json file name (or none)")
            if gen_out is not None:
                out = Path(gen_out)
                if out.suffix.lower() != ".json":
                    raise HexwarError(f"--out {gen_out}: expected a file name ending in .json")
                if out.exists() and not force:
                    raise HexwarError(f"{out} exists: give --force to replace it, or another --out")
            m = generate(w, h, seed, style)
            if gen_out is not None:
                m.save(gen_out)
                zones = ", ".join(f"{k} {len(v)} hexes" for k, v in m.deploy.items())
                click.echo(f"wrote {gen_out}: {m.name}, {w} x {h} hexes, deploy zones {zones}")
                return None
            doc = EditorDocument(m)
            if target:
                path = Path(target)
                if path.exists():
                    raise HexwarError(
                        f"{path} already exists: open it without --generate, or give a new file name"
                    )
                doc.path = path
        elif new_size is not None:
            w, h = parse_size(new_size)
            is_scn = bool(target and target.lower().endswith(".toml"))
            name = Path(target).stem if target else "Untitled"
            doc = EditorDocument.new(w, h, fill=fill, name=name, scenario=is_scn)
            if target:
                path = Path(target)
                if path.exists():
                    raise HexwarError(
                        f"{path} already exists: open it without --new, or give a new file name"
                    )
                doc.path = path
        elif target:
            found = _resolve(target)
            if found is None:
                raise HexwarError(
                    f"{target!r} not found: give a map (.json) or scenario (.toml) path, "
                    "a shipped map name, or --new WxH to start one"
                )
            path = found
            doc = EditorDocument.open(found)
        else:
            doc = EditorDocument.new(30, 20, fill=fill)
    except MapError as exc:
        raise HexwarError(str(exc)) from None
    return doc, path
