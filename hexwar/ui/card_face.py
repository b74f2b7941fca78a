"""Cards drawn as cards (issue 36): the one card-drawing module of the card table, the hex
window's panels, the deck builder and ``hexwar render --screen card``.

A unit card is laid out as 001 "Card Types Detailed" describes it (R4.1, R4.2):

* upper left: the Unit Type icon, the Required Crew icon (when the unit needs a crew card) and
  the Defense; the title with the Commitment Line (Frontline / Rear Line) or, for aircraft, the
  Turns of Flight; upper right: the Cost / Point Value, with Half and Full Endurance below it;
* the Armament table: the weapons down the left, each with its Rate of Fire multiplier
  (``2x``), the Attack Value per target type (Infantry, Vehicle, Gun, Aircraft; a blank where
  the weapon cannot affect that type), underscored values underlined (R4.2: no effect on a base
  Defense of 2 or more), and the Damage Index at the far right;
* for a card in play, the current Endurance (a bar against Full, red from Half down) and the
  Damage card under it (its edge for the unit's type, with its built-in counter).

Command, Event and Damage cards are drawn as paper cards with their title, what they apply to,
when they are played and their effect text. No text is drawn smaller than :data:`MIN_TEXT`
points; a card too small for its table keeps the header and the Endurance and says so.
:data:`UNIT_CARD_SIZE` is the size at which every part of a unit card shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .widgets import theme as T
from .widgets.cards import paint_nato
from .widgets.text import ellipsize, wrap

__all__ = [
    "MIN_TEXT",
    "UNIT_CARD_SIZE",
    "InPlay",
    "armament_rows",
    "paint_card",
    "paint_paper_card",
    "paint_unit_card",
    "unit_card_height",
]

#: The smallest text on a card, in points (the layout test's floor).
MIN_TEXT = 10.0
#: ``(width, height)`` in points at which a unit card with three weapons shows every part.
UNIT_CARD_SIZE = (236.0, 132.0)

_COLS = (("infantry", "Inf"), ("vehicle", "Veh"), ("gun", "Gun"), ("aircraft", "Air"))
_LINE = {"frontline": "Frontline", "rear": "Rear Line", "frontline_or_rear": "Frontline or Rear Line"}
_SIDE = {"german": (96, 124, 170, 255), "soviet": (200, 70, 60, 255)}
_INK = T.DARK
_PAPER = T.PARCHMENT
#: a card in play's tag (whose card it is, 4 players)
_TAG = (120, 70, 20, 255)
_DAMAGE = (160, 36, 32, 255)

HEAD_H = 22.0
SUB_H = 16.0
#: the second line of a long name in the header (points)
NAME_LINE = 12.0
ROW_H = 13.0
FOOT_H = 16.0


@dataclass(frozen=True)
class InPlay:
    """What a card in play shows beyond its printed face.

    Attributes:
        endurance: Current Endurance (R6.5).
        crew: the riding crew's name (or ``"no crew"``), or None.
        damage: the Damage card's edge for the unit's type: ``(title, effect text, turns left
            or None)`` (R6.6), or None.
        flight_turns: Turns of Flight left (aircraft aloft), or None.
        extra: one more short line (Command cards under it), or "".
        tag: shown in place of the printed line in the card's second row (the line is the row
            the card lies in): whose card it is in a 4-player game, ``captured``; or "".
        alert: the tag is drawn in the error colour (a captured unit).
    """

    endurance: int
    crew: str | None = None
    damage: tuple[str, str, int | None] | None = None
    flight_turns: int | None = None
    extra: str = ""
    tag: str = ""
    alert: bool = False


class _Covered:
    """A painter for a card partly covered by the next card of a fan: texts and lines reaching
    past ``clip_x`` are left out (they would show through the covering card, whose text is
    drawn above every card's shapes); everything else goes to ``p``."""

    def __init__(self, p: Any, clip_x: float) -> None:
        self._p, self._clip = p, clip_x

    def __getattr__(self, name: str) -> Any:
        return getattr(self._p, name)

    def text(self, s: str, x: float, *a: Any, **k: Any) -> float:
        """Draw ``s`` when it ends left of the covering card; a left-aligned text reaching
        under it is shortened with an ellipsis to end there (a name is never silently cut),
        a centred or right-aligned one (a number) is left out."""
        size = a[1] if len(a) > 1 else k.get("size", 13.0)
        style = k.get("style", "regular")
        w = self._p.measure(s, size, style)
        ax = k.get("ax", a[3] if len(a) > 3 else "left")
        left = x - (w if ax == "right" else w / 2 if ax == "center" else 0.0)
        if left + w > self._clip:
            if ax != "left":
                return 0.0
            s = ellipsize(self._p.atlas, s, self._clip - x - 2, size, style)
            if len(s) < 2:  # nothing but the ellipsis: leave it out
                return 0.0
        return float(self._p.text(s, x, *a, **k))

    def line(self, x0: float, y0: float, x1: float, *a: Any, **k: Any) -> Any:
        """A line only when it ends left of the covering card."""
        if max(x0, x1) > self._clip:
            return None
        return self._p.line(x0, y0, x1, *a, **k)


def armament_rows(card: Any) -> list[tuple[str, str, list[tuple[str, bool]], str]]:
    """The Armament table of a unit card: per weapon ``(name, rate of fire "2x" or "",
    [(attack value or "", underscored) per target type in Inf/Veh/Gun/Air order], Damage
    Index)`` (R4.2).

    >>> from hexwar.rules.cards import default_cards
    >>> rows = armament_rows(default_cards().unit("de_pz_iv_g"))
    >>> rows[0][0], rows[0][2][1], rows[0][3]
    ('7.5 cm KwK 40 L/43', ('9', False), '8')
    """
    out = []
    for w in card.weapons:
        vals = []
        for tt, _ in _COLS:
            v = w.attack_value(tt)
            vals.append(("" if v is None else str(v), bool(w.underscored and v is not None)))
        rof = f"{w.rate_of_fire}x" if w.rate_of_fire > 1 else ""
        out.append((w.name, rof, vals, str(w.damage_index)))
    return out


def _fit(p: Any, s: str, w: float, size: float, style: str = "regular") -> str:
    """``s`` shortened with an ellipsis to ``w`` points (never squeezed below ``size``)."""
    return ellipsize(p.atlas, s, max(1.0, w), size, style)


def unit_card_height(card: Any, in_play: bool = False) -> float:
    """The height in points a unit card needs to show every part (its weapons' rows)."""
    rows = max(1, len(card.weapons))
    return HEAD_H + SUB_H + ROW_H * (rows + 1) + 8 + (FOOT_H if in_play else 0) + 6


def _side_colour(card: Any, looks: Any) -> tuple[Any, Any, Any]:
    """``(band, band text, symbol fill)`` for the card's side."""
    if looks is not None and getattr(looks, "sides", None) and card.side in looks.sides:
        sl = looks.sides[card.side]
        text = (250, 248, 240, 255) if card.side == "soviet" else sl.text
        return sl.band, text, sl.symbol_fill
    return _SIDE.get(card.side, T.SECTION), T.TEXT, (235, 235, 225, 255)


def paint_unit_card(
    p: Any,
    card: Any,
    x: float,
    y: float,
    w: float,
    h: float,
    looks: Any = None,
    in_play: InPlay | None = None,
    edge: Any = None,
    z: int = 0,
    clip_x: float | None = None,
) -> None:
    """Draw unit card ``card`` (a :class:`~hexwar.rules.cards.UnitCard`) in the rectangle
    ``(x, y)``-``(x + w, y + h)`` (points, y up) on painter ``p`` (see the module text);
    ``clip_x``: a fanned card covered from there on shows no text or line past it.

    Args:
        looks: the renderer's looks (side colours), or None for the UI side colours.
        in_play: current Endurance, crew and Damage card of a card in play, or None.
        edge: the frame colour (a selection or target highlight), or None.
    """
    if clip_x is not None:
        p = _Covered(p, clip_x)
    band, band_text, sym_fill = _side_colour(card, looks)
    p.rect(x + 2, y - 3, x + w + 2, y + h - 3, (0, 0, 0, 80), z)
    p.rect(x, y, x + w, y + h, edge or (20, 20, 20, 255), z)
    p.rect(x + 1.5, y + 1.5, x + w - 1.5, y + h - 1.5, _PAPER, z)
    top = y + h
    # header: type icon, crew icon, Defense | title | cost; a name too long for its line takes
    # a second one when the card has the height to spare (a narrow hand card at 800x600 was
    # "Gre…" with room below it: fresh-user pass 2, item 6)
    name_x = x + 26 + (18 if card.needs_crew else 0) + 21
    cost_w = p.measure(str(card.cost), 12, "bold") + 10
    name_room = x + w - cost_w - 10 - name_x
    # below the header: the second row, the strips in play and the armament table's heading
    # and one row (the note of a card too narrow for the table: one line)
    col_min = w - 12 - 22.0 - max(19.0, min(23.0, (w - 12 - 22.0 - 40) / len(_COLS))) * len(_COLS)
    below = SUB_H + (FOOT_H if in_play is not None else 0.0) + (26.0 if in_play and in_play.damage else 0.0)
    below += (2 * ROW_H + 8 if col_min >= 40 else 18.0) if card.weapons else 0.0
    two = (
        p.measure(card.name, 11, "bold") > name_room
        and h - HEAD_H - NAME_LINE - below >= 0
        and name_room > 20
    )
    head_h = HEAD_H + (NAME_LINE if two else 0.0)
    p.rect(x + 1.5, top - head_h, x + w - 1.5, top - 1.5, band, z)
    cy = top - head_h / 2 - 0.5
    paint_nato(p, x + 14, cy, 20, 14, card.unit_type, sym_fill, _INK, z)
    ix = x + 26
    if card.needs_crew:
        paint_nato(p, ix + 8, cy, 14, 11, card.crew, sym_fill, _INK, z)
        ix += 18
    p.circle(ix + 9, cy, 8.5, _PAPER, z)
    p.text(str(card.defense), ix + 9, cy, 11, _INK, ax="center", style="bold", z=z)
    ix += 21
    p.rect(x + w - cost_w - 4, cy - HEAD_H / 2 + 3.5, x + w - 4, cy + HEAD_H / 2 - 3.5, _PAPER, z)
    p.text(str(card.cost), x + w - 4 - cost_w / 2, cy, 12, _INK, ax="center", style="bold", z=z)
    if two:
        names = wrap(p.atlas, card.name, name_room, 11, "bold")
        if len(names) > 2:
            names = [names[0], ellipsize(p.atlas, " ".join(names[1:]), name_room, 11, "bold")]
        for k, ln in enumerate(names[:2]):
            p.text(_fit(p, ln, name_room, 11, "bold"), ix, cy + NAME_LINE / 2 - k * NAME_LINE, 11, band_text,
                   style="bold", z=z)  # fmt: skip
    else:
        p.text(
            _fit(p, card.name, x + w - cost_w - 10 - ix, 11, "bold"), ix, cy, 11, band_text, style="bold", z=z
        )
    # line or Turns of Flight | Half / Full Endurance
    sy = top - head_h - SUB_H / 2 - 1
    if card.line == "aircraft":
        line = f"{card.turns_of_flight} Turns of Flight"
    elif getattr(card, "is_crew", False) or card.unit_type in ("tank_crew", "artillery_crew", "pilot"):
        line = f"crew ({card.quality})" if getattr(card, "quality", None) else "crew"
    else:
        line = _LINE.get(card.line, card.line.replace("_", " "))
    endu = f"Half {card.endurance_half} / Full {card.endurance_full}"
    foot = FOOT_H if in_play is not None else 0.0
    dmg_h = 26.0 if in_play is not None and in_play.damage is not None else 0.0
    if dmg_h and h < head_h + foot + dmg_h:  # squeezed: the Damage card's title only (its
        dmg_h = 14.0  # effect is in the side panel), so the strips stay under the header
    # a card squeezed below its header, this row and its in-play strips (a crowded line at
    # 800x600) leaves this row out: the current Endurance in the strip below says more
    # armament table geometry (below): with no room for the table nor for its one-line note,
    # the second row names the weapons' count instead of the line (the table's row says it)
    ty = top - head_h - SUB_H - 4
    n_weapons = len(card.weapons)
    di_w = 22.0
    col_w = max(19.0, min(23.0, (w - 12 - di_w - 40) / len(_COLS)))
    name_w = w - 12 - di_w - col_w * len(_COLS)
    room = int((ty - (y + foot + dmg_h + 4)) // ROW_H) - 1  # rows of weapons that fit under the header
    table_fits = n_weapons and room >= 1 and name_w >= 40
    note_fits = n_weapons and ty - 14 > y + foot + dmg_h + 4
    count = (
        f"{n_weapons} weapon{'s' if n_weapons != 1 else ''}"
        if n_weapons and not table_fits and not note_fits
        else ""
    )
    if top - head_h - SUB_H >= y + foot + dmg_h:
        ew = p.measure(endu, 10)
        ink = _INK
        if count and in_play is not None:
            line = count  # the line is the table row's: the weapons' count says more
        elif count:
            line = f"{line}, {count}"
        if in_play is not None and in_play.tag:
            line, ink = in_play.tag + (f", {count}" if count else ""), (T.ERROR if in_play.alert else _TAG)
        if count and in_play is not None and p.measure(line, 10, "bold") > w - ew - 18:
            ew = -6.0  # a card in play: its count wins over the printed Half / Full (the strip has End)
        else:
            p.text(endu, x + w - 6, sy, 10, _INK, ax="right", z=z)
        p.text(_fit(p, line, w - ew - 18, 10, "bold"), x + 6, sy, 10, ink, style="bold", z=z)
    # armament table (a narrow card, a fanned hand, narrows the value columns, down to 19
    # points with one-letter headings, before it gives up the table)
    rows = armament_rows(card)
    heads = [lab if col_w >= 22 else lab[0] for _, lab in _COLS]
    if rows and room >= 1 and name_w >= 40:
        p.line(x + 4, ty, x + w - 4, ty, 0.8, (150, 128, 86, 255), z)
        hy = ty - ROW_H / 2
        head = (
            "Armament" if p.measure("Armament", 10, "bold") <= name_w - 4 else "Arms"
        )  # (hexwin: never under 10 pt)
        if len(rows) > room == 1:  # one row shown, no slot for "+N more": the heading says it
            k = len(rows) - 1
            head = next(
                (h for h in (f"{head} (+{k} more)", f"+{k} more weapon{'s' if k > 1 else ''}", f"+{k} more")
                 if p.measure(h, 10, "bold") <= name_w - 4),
                f"+{k}",
            )  # fmt: skip
        p.text(_fit(p, head, name_w - 4, 10, "bold"), x + 6, hy, 10, (90, 70, 40, 255), style="bold", z=z)
        for k, lab in enumerate(heads):
            p.text(lab, x + 6 + name_w + col_w * (k + 0.5), hy, 10, (90, 70, 40, 255), ax="center", z=z)
        p.text("DI", x + w - 6 - di_w / 2, hy, 10, (90, 70, 40, 255), ax="center", style="bold", z=z)
        # too many rows: the last slot says how many are left (with room for two rows or more)
        shown = rows[:room] if len(rows) <= room or room < 2 else rows[: room - 1]
        for i, (name, rof, vals, di) in enumerate(shown):
            ry = hy - ROW_H * (i + 1)
            label = f"{rof} {name}" if rof else name
            p.text(_fit(p, label, name_w - 4, 10), x + 6, ry, 10, _INK, z=z)
            for k, (v, under) in enumerate(vals):
                if not v:
                    continue
                cx = x + 6 + name_w + col_w * (k + 0.5)
                p.text(v, cx, ry, 10, _INK, ax="center", style="bold", z=z)
                if under:  # R4.2: an underscored value, underlined as printed
                    vw = p.measure(v, 10, "bold")
                    p.line(cx - vw / 2, ry - 6, cx + vw / 2, ry - 6, 1.0, _INK, z)
            p.text(di, x + w - 6 - di_w / 2, ry, 10, _INK, ax="center", style="bold", z=z)
        if len(rows) > len(shown) and room >= 2:
            more = f"+{len(rows) - len(shown)} more weapon{'s' if len(rows) - len(shown) > 1 else ''}"
            p.text(more, x + 6, hy - ROW_H * (len(shown) + 1), 10, (90, 70, 40, 255), z=z)
    elif rows and ty - 14 > y + foot + dmg_h + 4:
        n = len(rows)
        p.text(_fit(p, f"{n} weapon{'s' if n != 1 else ''} (card too small for the table)", w - 12, 10), x + 6, ty - 8, 10,
               (90, 70, 40, 255), z=z)  # fmt: skip
    if in_play is not None:
        _paint_in_play(p, card, in_play, x, y, w, dmg_h, z)


def _paint_in_play(p: Any, card: Any, ip: InPlay, x: float, y: float, w: float, dmg_h: float, z: int) -> None:
    """Current Endurance (bar against Full; red from Half down), crew, Damage card strip."""
    fy = y + dmg_h + 3
    full = max(1, card.endurance_full)
    frac = max(0.0, min(1.0, ip.endurance / full))
    label = f"End {ip.endurance}/{card.endurance_full}"
    lw = p.measure(label, 10, "bold") + 8
    p.text(label, x + 6, fy + 6, 10, _INK, style="bold", z=z)
    bx0, bx1 = x + 6 + lw, x + w - 6
    right = ip.crew or (f"{ip.flight_turns} ToF left" if ip.flight_turns is not None else "")
    if right:
        need = p.measure(right, 10) + 6
        rw = need if need <= (bx1 - bx0) * 0.6 else min(need, bx1 - bx0)  # a long crew name wins over the bar
        p.text(_fit(p, right, rw - 4, 10), x + w - 6, fy + 6, 10, _INK, ax="right", z=z)
        bx1 -= rw
    if bx1 - bx0 > 12:
        p.rect(bx0, fy + 3, bx1, fy + 9, (120, 110, 90, 255), z)
        bar = T.GOOD if ip.endurance > card.endurance_half else T.ERROR
        p.rect(bx0, fy + 3, bx0 + (bx1 - bx0) * frac, fy + 9, bar, z)
    if ip.damage is not None:
        title, effect, turns = ip.damage
        p.rect(x + 1.5, y + 1.5, x + w - 1.5, y + dmg_h, _DAMAGE, z)
        left = f" ({turns} turn{'s' if turns != 1 else ''} left)" if turns else ""
        p.text(_fit(p, f"Damage: {title}{left}", w - 12, 10, "bold"), x + 6, y + dmg_h - 7, 10, T.TEXT,
               style="bold", z=z)  # fmt: skip
        if effect.startswith(f"{title}: "):  # the edge's text repeats its title
            effect = effect[len(title) + 2 :]
        if dmg_h >= 26:  # a squeezed card's strip holds the title only
            p.text(_fit(p, effect, w - 12, 10), x + 6, y + 7, 10, T.TEXT, z=z)


def paint_paper_card(
    p: Any, kind: str, title: str, lines: list[str], x: float, y: float, w: float, h: float,
    edge: Any = None, z: int = 0, footer: str = "", clip_x: float | None = None,
) -> None:  # fmt: skip
    """A Command, Event or Damage card: the kind in its band, the title, the wrapped ``lines``
    (what it applies to, when, its effects) and a ``footer`` (the phase), never under 10 pt;
    ``clip_x`` as for :func:`paint_unit_card`."""
    if clip_x is not None:
        p = _Covered(p, clip_x)
    p.rect(x + 2, y - 3, x + w + 2, y + h - 3, (0, 0, 0, 80), z)
    p.rect(x, y, x + w, y + h, edge or (20, 20, 20, 255), z)
    p.rect(
        x + 1.5, y + 1.5, x + w - 1.5, y + h - 1.5, (214, 218, 230, 255) if kind == "command" else _PAPER, z
    )
    band = {"command": (70, 90, 150, 255), "event": (150, 128, 86, 255), "damage": _DAMAGE}.get(
        kind, T.SECTION
    )
    p.rect(x + 1.5, y + h - 18, x + w - 1.5, y + h - 1.5, band, z)
    p.text(_fit(p, kind.upper(), w - 12, 10, "bold"), x + 6, y + h - 10, 10, (250, 244, 226, 255), style="bold",
           z=z)  # fmt: skip
    yy = y + h - 30
    heads = wrap(p.atlas, title, w - 12, 12, "bold")
    if len(heads) > 2:  # a third line of title: the second ends with an ellipsis, never cut silently
        heads = [heads[0], ellipsize(p.atlas, " ".join(heads[1:]), w - 12, 12, "bold")]
    for ln in heads:
        p.text(_fit(p, ln, w - 12, 12, "bold"), x + 6, yy, 12, _INK, style="bold", z=z)
        yy -= 15
    bottom = y + (18 if footer else 6)
    body = [ln for s in lines for ln in wrap(p.atlas, s, w - 12, 10)]
    for k, ln in enumerate(body):
        if yy - 6 < bottom:
            break
        if k + 1 < len(body) and yy - 12.5 - 6 < bottom:  # the last line that fits says more follows
            ln = ellipsize(p.atlas, ln + " …", w - 12, 10) if not ln.endswith("…") else ln
        p.text(_fit(p, ln, w - 12, 10), x + 6, yy, 10, (60, 50, 32, 255), z=z)
        yy -= 12.5
    if footer:  # the phase is always shown, the text above it cut when the card is short
        p.text(_fit(p, footer, w - 12, 10), x + w / 2, y + 9, 10, (90, 70, 40, 255), ax="center", z=z)


def paint_card(
    p: Any, card: Any, x: float, y: float, w: float, h: float, looks: Any = None,
    in_play: InPlay | None = None, edge: Any = None, z: int = 0, rules: Any = None,
    clip_x: float | None = None,
) -> None:  # fmt: skip
    """Draw any card definition: a unit card (:func:`paint_unit_card`) or a Command, Event or
    Damage card (:func:`paint_paper_card`, its text generated from its typed effects)."""
    if hasattr(card, "endurance_full"):
        paint_unit_card(p, card, x, y, w, h, looks, in_play, edge, z, clip_x)
        return
    from .widgets.cards import card_facts

    f = card_facts(card, rules)
    footer = ""
    lines = list(f.stats) + list(f.body)
    title = f.title
    if f.kind == "command":
        footer = f.subtitle.split(", ", 1)[-1]
        lines = [f"applies to: {f.stats[0]}", f"lasts: {f.stats[1]}"] + list(f.body)
    elif f.kind == "event":
        lines = [f"lasts: {f.stats[0]}"] + list(f.body) if f.stats else list(f.body)
    elif f.kind == "damage":
        title = f"Damage card {card.id.replace('dmg', '').lstrip('0') or card.id}"
        lines = ["one edge per unit type (R6.6):"] + list(f.body)
    paint_paper_card(p, f.kind, title, lines, x, y, w, h, edge, z, footer, clip_x)


def card_sheet_size(n: int, per_row: int = 3) -> tuple[float, float]:
    """The points a sheet of ``n`` unit cards at :data:`UNIT_CARD_SIZE` needs (``per_row`` a row)."""
    cw, ch = UNIT_CARD_SIZE
    rows = math.ceil(max(1, n) / per_row)
    return per_row * (cw + 16) + 16, rows * (ch + 40) + 24
