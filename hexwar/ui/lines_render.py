"""``hexwar render`` of the card table (split from :mod:`hexwar.ui.lines_screen`): the table of
a line scenario or save (:func:`table_image`) and a sheet of its cards drawn as cards
(:func:`paint_card_sheet`, :func:`card_sheet_image`; ``--screen card``), headless, to PNG
(:func:`render_table`).
"""

from __future__ import annotations

import os
from typing import Any

from ..lines.rules import card, cards
from ..lines.table import TableController
from .lines_screen import TABLE_BG, _TableView, in_play_of
from .widgets import Painter, theme

__all__ = ["paint_card_sheet", "card_sheet_image", "table_image", "render_table"]


def paint_card_sheet(p: Painter, state: Any, width: float, height: float) -> None:
    """A sheet of the game's cards drawn as cards (``hexwar render lines --screen card``): the
    units in play with their current Endurance and Damage cards, then a unit card, a Command
    card, a Damage card and (when ``width`` has room for four) an Event card as printed
    (:mod:`hexwar.ui.card_face`)."""
    from ..lines.view import seat_view
    from .card_face import UNIT_CARD_SIZE, paint_card, paint_unit_card

    p.rect(0, 0, width, height, TABLE_BG)
    cw, ch = UNIT_CARD_SIZE
    v = seat_view(state, None)
    units = [u for side in ("german", "soviet") for ln in ("front", "rear", "air") for u in v.lines[side][ln]]
    units.sort(key=lambda u: (u.damage is None, u.uid))  # a damaged one first: its Damage card shows
    p.text(
        "Cards in play (current Endurance, crew, Damage card)", 16, height - 20, 13, theme.TEXT, style="bold"
    )
    x, y = 16.0, height - 40 - ch
    for u in units[: max(1, int((width - 16) // (cw + 16)))]:
        h = max(ch, 22 + 16 + 13 * (len(card(u.uid).weapons) + 1) + 8 + 16 + 6 + (26 if u.damage else 0))
        paint_unit_card(p, card(u.uid), x, height - 40 - h, cw, h, in_play=in_play_of(u))
        x += cw + 16
    four = width >= 16 + 4 * (cw + 16)  # room for an Event card too
    p.text("As printed: a unit card, a Command card, a Damage card" + (", an Event card" if four else "")
           + " (001 Card Types Detailed)", 16, y - 44, 13, theme.TEXT, style="bold")  # fmt: skip
    y2 = y - 64 - ch
    cs = cards()
    shown = next((c for c in ("de_pz_iv_g", "su_t34_76") if c in cs.units), next(iter(cs.units)))
    paint_card(p, cs.unit(shown), 16, y2, cw, ch)
    cmd = cs.command.get("hull_down") or next(iter(cs.command.values()), None)
    if cmd is not None:
        paint_card(p, cmd, 32 + cw, y2, cw, ch, rules=cs.rules)
    dmg = next(iter(cs.damage.values()), None)
    if dmg is not None:
        paint_card(p, dmg, 48 + 2 * cw, y2 - 56, cw, ch + 56, rules=cs.rules)
    ev = cs.events.get("ev_morning_mist") or next(iter(cs.events.values()), None)
    if four and ev is not None:
        paint_card(p, ev, 64 + 3 * cw, y2, cw, ch, rules=cs.rules)


def card_sheet_image(state: Any, size: tuple[int, int] = (1400, 900), pixel_ratio: float = 1.0) -> Any:
    """:func:`paint_card_sheet` of ``state`` as ``uint8 [H, W, 4]`` (headless).

    Raises:
        HexwarError: when no GL context can be made.
    """
    from ..render import backend

    backend.configure(None)
    from ..render.offscreen import hidden_window, render_view

    win = hidden_window()
    try:
        view = _TableView(win, None, size[0], size[1], pixel_ratio)
        view.overlay = lambda p, w, h: paint_card_sheet(p, state, w, h)
        return render_view(view, size=(float(size[0]), float(size[1])), pixel_ratio=pixel_ratio)  # type: ignore[arg-type]
    finally:
        win.close()


def table_image(
    state: Any, size: tuple[int, int] = (1400, 900), pixel_ratio: float = 1.0, viewer: str | None = None
) -> Any:
    """The card table of ``state`` as ``uint8 [H, W, 4]`` (headless; ``hexwar render``).

    Raises:
        HexwarError: when no GL context can be made.
    """
    from ..render import backend

    backend.configure(None)
    from ..render.offscreen import hidden_window, render_view

    win = hidden_window()
    try:
        ctl = TableController(state, ai={}, viewer=viewer)
        view = _TableView(win, ctl, size[0], size[1], pixel_ratio)
        return render_view(view, size=(float(size[0]), float(size[1])), pixel_ratio=pixel_ratio)  # type: ignore[arg-type]
    finally:
        win.close()


def render_table(
    target: str, out: str | os.PathLike[str], size: tuple[int, int], pixel_ratio: float, screen: str
) -> tuple[int, int]:
    """Draw the card table of a line scenario or save ``target`` to the PNG ``out``; returns its
    size in pixels (``hexwar render lines --screen play``).

    Raises:
        HexwarError: when there is no GL context or ``out`` cannot be written.
    """
    from ..lines.render import lines_game_for
    from ..render.offscreen import save_png

    if screen == "card":
        img = card_sheet_image(lines_game_for(target), size, pixel_ratio)
    else:
        img = table_image(lines_game_for(target), size, pixel_ratio)
    save_png(img, out)
    return int(img.shape[1]), int(img.shape[0])
