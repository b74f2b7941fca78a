"""``hexwar render MAP_OR_SCENARIO_OR_SAVE --out FILE.png [--size WxH]``: draw headless to a PNG.

Works with no display (pyglet headless over EGL). Maps are given as a path or a shipped map
name (``kharkov``), scenarios as a path or a shipped scenario name (``skirmish``: drawn at
their start with their starting units), saves as a path (replayed to their last position).
File kinds are recognised by :func:`hexwar.validate.detect_kind` and loaded through
:data:`SCENE_LOADERS`, which turn them into a map with its units as
:class:`~hexwar.render.counters.CounterView` lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import HexwarError
from ..model.maps import BattleMap
from ..render.scene import Scene

__all__ = ["Scene", "SCENE_LOADERS", "load_scene", "parse_size", "render"]

_SIZE_RE = re.compile(r"^\s*([0-9]{1,6})\s*[xX]\s*([0-9]{1,6})\s*$")
MIN_SIDE, MAX_SIDE = 16, 8192


def _map_scene(path: str) -> Scene:
    m = BattleMap.load(path)
    return Scene(m, [], m.name)


#: File kind -> loader ``(path) -> Scene``, or ``"module:function"`` imported on first use.
#: A scenario loads to its starting state, a save replays to its last state; both give the
#: units as counters (:mod:`hexwar.render.gamescene`). New file kinds plug in here.
SCENE_LOADERS: dict[str, Callable[[str], Scene] | str | None] = {
    "hexwar-map": _map_scene,
    "hexwar-scenario": "hexwar.render.gamescene:scenario_scene",
    "hexwar-save": "hexwar.render.gamescene:save_scene",
}

_KIND_NAMES = {"hexwar-scenario": "scenario", "hexwar-save": "save", "hexwar-map": "map"}


def _target_hex(scene: Scene, label: str) -> Any:
    from ..model.maps import MapError

    try:
        return scene.bmap.hex_at(label)
    except MapError as exc:
        raise HexwarError(f"--target: {exc}") from None


def load_scene(target: str) -> Scene:
    """Load a map, scenario or save by path, or a shipped map by name, as a :class:`Scene`.

    Raises:
        HexwarError: when nothing by that name exists, the kind cannot be drawn yet, or
            the file is broken (``ValidationError`` listing every problem).
    """
    from ..validate import detect_kind
    from .basic import resolve_map

    p = Path(target)
    if not p.is_file():
        from ..paths import find_content

        sc = find_content("scenarios", target)  # a shipped scenario name ("skirmish")
        if sc is not None and sc.is_file() and sc.suffix == ".toml":
            p = sc
        else:
            m = resolve_map(target)  # shipped map names; raises a clear HexwarError otherwise
            return Scene(m, [], m.name)
    kind = detect_kind(str(p))
    loader = SCENE_LOADERS.get(kind)
    if isinstance(loader, str):
        import importlib

        mod, attr = loader.split(":")
        try:
            loader = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError):
            loader = None
    if loader is None:
        what = _KIND_NAMES.get(kind, kind)
        raise HexwarError(
            f"{target}: drawing {what} files is not supported yet; give a map file or a shipped map name"
        )
    assert callable(loader)
    return loader(str(p))


#: hex size (centre to corner, points) of ``--size auto``: hex labels (R2.2) stay readable
AUTO_HEX_SIZE = 32.0


def auto_size(width: int, height: int) -> tuple[int, int]:
    """Image size in points that draws a ``width`` x ``height`` hex map at :data:`AUTO_HEX_SIZE`
    (flat-top hexes: 1.5 sizes a column, sqrt(3) sizes a row), 640..4096 points each way.

    >>> auto_size(30, 24)
    (1488, 1401)
    """
    s = AUTO_HEX_SIZE
    w = int((1.5 * width + 0.5) * s + 32)
    h = int(3**0.5 * (height + 0.5) * s + 44)
    return (max(640, min(4096, w)), max(640, min(4096, h)))


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``"WxH"`` (screen points) such as ``"1280x800"``.

    Raises:
        HexwarError: naming the text when it is not two integers 16..8192 joined by ``x``.

    >>> parse_size("1280x800")
    (1280, 800)
    """
    m = _SIZE_RE.match(text or "")
    if not m:
        shown = text if len(text or "") <= 40 else text[:37] + "..."
        raise HexwarError(f"--size {shown!r}: expected WIDTHxHEIGHT in points, like 1280x800")
    w, h = int(m.group(1)), int(m.group(2))
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise HexwarError(f"--size {text!r}: each side must be {MIN_SIDE}..{MAX_SIDE} points")
    return w, h


def _is_campaign_save(target: str) -> bool:
    """Whether ``target`` is a campaign save (``"format": "hexwar-campaign-save"``)."""
    if not target.lower().endswith(".json"):
        return False
    from ..fileio import read_json

    try:
        data = read_json(target)
    except HexwarError:
        return False
    return isinstance(data, dict) and data.get("format") == "hexwar-campaign-save"


@click.command()
@click.argument("target", metavar="MAP_OR_SCENARIO_OR_SAVE")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="PNG file to write.")
@click.option(
    "--size",
    "size",
    default="auto",
    show_default=True,
    help="Image size WIDTHxHEIGHT in points; 'auto' gives every hex 64 points across, so hex labels are readable.",
)
@click.option(
    "--pixel-ratio",
    "pixel_ratio",
    default=1.0,
    show_default=True,
    type=click.FloatRange(0.25, 4.0),
    help="Pixels per point (2 = a HiDPI screen; the PNG is that much larger).",
)
@click.option(
    "--hex", "center", default=None, help="Centre the view on this hex (e.g. D07) instead of fitting the map."
)
@click.option(
    "--zoom",
    "zoom",
    default=None,
    type=click.FloatRange(0.02, 8.0),
    help="Zoom (1 = hexes 64 points wide); default fit.",
)
@click.option("--no-labels", is_flag=True, help="Leave out hex labels.")
@click.option("--no-grid", is_flag=True, help="Leave out the hex grid.")
@click.option(
    "--screen",
    "screen",
    type=click.Choice(["map", "play", "battle", "deck", "campaign", "replay", "table", "card"]),
    default="map",
    show_default=True,
    help="'play'/'battle': the whole play screen mid-game (scenarios and saves; hexwar.ui.render_state); "
    "'deck': the setup's deck builder page of a point-budget scenario (standard); "
    "'campaign': the campaign screen (target 'campaign' or a campaign save); 'replay': the replay "
    "viewer of a save of any game at its rarest roll (hexwar.ui.replay_window); 'table': the card "
    "table of a line scenario or save; 'card': its cards drawn as cards (hexwar.ui.card_face).",
)
@click.option("--force", is_flag=True, help="Replace an existing --out file that hexwar did not write.")
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="HEX",
    help="Mark an artillery target hex (R9.3); repeat for more.",
)
@click.option(
    "--plan",
    "plan",
    default=None,
    type=click.Path(dir_okay=False, exists=True),
    help="Mark the artillery targets of a `hexwar sim scenario` plan file (scenarios only).",
)
def render(
    target: str,
    out: str,
    size: str,
    pixel_ratio: float,
    center: str | None,
    zoom: float | None,
    no_labels: bool,
    no_grid: bool,
    screen: str = "map",
    force: bool = False,
    targets: tuple[str, ...] = (),
    plan: str | None = None,
) -> None:
    """Draw a map (or a scenario or save, with its units) to a PNG, headless."""
    from ..outputs import check_outputs, record_output

    if not out.lower().endswith(".png"):  # never replace a scenario, map or save with an image
        raise HexwarError(f"--out {out}: expected a file name ending in .png")
    check_outputs(force, out=out)
    w, h = (1280, 800) if size == "auto" else parse_size(size)  # auto: the screens' default
    if screen == "replay":
        from ..ui.replay_window import render_replay

        pw, ph = render_replay(target, out, (w, h), pixel_ratio)
        record_output(out)
        click.echo(f"wrote {out} ({pw} x {ph} pixels)")
        return
    if screen == "campaign" or _is_campaign_save(target):
        try:
            from ..ui.campaign_screen import render_campaign
        except ImportError:
            raise HexwarError(
                "the campaign screen needs the widget toolkit hexwar/ui/widgets, which this build "
                "does not have yet; play the campaign with hexwar campaign --headless"
            ) from None
        pw, ph = render_campaign(target, out, (w, h), pixel_ratio)
        record_output(out)
        click.echo(f"wrote {out} ({pw} x {ph} pixels)")
        return
    from ..lines.render import is_lines_target

    if is_lines_target(target):  # R11.1: a line scenario or save is drawn as the card table
        from ..ui.lines_render import render_table

        pw, ph = render_table(target, out, (w, h), pixel_ratio, screen)
        record_output(out)
        click.echo(f"wrote {out} ({pw} x {ph} pixels)")
        return
    if screen != "map":
        from ..ui.render_state import render_screen

        pw, ph = render_screen(target, out, (w, h), pixel_ratio, screen)
        record_output(out)
        click.echo(f"wrote {out} ({pw} x {ph} pixels)")
        return
    scene = load_scene(target)
    if size == "auto":
        w, h = auto_size(scene.bmap.width, scene.bmap.height)
    marks = [_target_hex(scene, t) for t in targets]
    if plan is not None:
        from ..game.scenario import load_scenario
        from ..sim.scenario import load_plan

        p = Path(target)
        if not p.is_file():
            from ..paths import find_content

            p = find_content("scenarios", target) or p
        if p.suffix.lower() != ".toml":
            raise HexwarError(f"--plan {plan}: plans belong to a scenario, not {target}")
        marks += [m.hex for m in load_plan(plan, load_scenario(p)).missions]
    if marks:
        from ..render.regions import TargetOverlay

        scene.overlays.append(("targets", TargetOverlay(tuple(dict.fromkeys(marks)))))
    from ..render import backend

    backend.configure(None)
    from ..render.camera import Camera
    from ..render.mapview import MapView
    from ..render.offscreen import hidden_window, render_view, save_png

    cam = Camera(viewport=(float(w), float(h)), pixel_ratio=pixel_ratio)
    cam.fit_map(scene.bmap.width, scene.bmap.height)
    if center is not None:
        from ..model.maps import MapError

        try:
            cam.center_on(scene.bmap.hex_at(center))
        except MapError as exc:
            raise HexwarError(f"--hex: {exc}") from None
    if zoom is not None:
        cam.zoom = max(cam.min_zoom, min(cam.max_zoom, zoom))
    win = hidden_window()
    view = MapView(
        scene.bmap, win, camera=cam, show_labels=not no_labels, show_grid=not no_grid, use_cache=False
    )
    try:
        view.set_counters(scene.counters)
        for name, ov in scene.overlays:
            view.set_overlay(name, ov)
        img = render_view(view)
    finally:
        view.delete()
    save_png(img, out)
    record_output(out)
    click.echo(f"wrote {out} ({img.shape[1]} x {img.shape[0]} pixels)")
