"""Card views: a Spearpoint unit, Command, Event or Damage card drawn from the card data.

:func:`card_facts` turns a card definition (:mod:`hexwar.rules.cards`) into its printed
facts (name, side, type, Defense, Endurance, cost, line, weapons, effect text generated from
the typed effects, R4.1/R4.3/R6.6); :class:`CardView` draws them, either *compact* (the hand
row of the play screen: name band, NATO symbol, type, Defense/Endurance, cost) or *full*
(every fact, wrapped, for card tables and tooltips). Nothing here reads rules files itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import keys
from . import theme as T
from .core import Element
from .text import ellipsize, wrap

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["CardFacts", "card_facts", "CardView", "paint_nato"]

_LINES = {"frontline": "frontline", "rear": "rear line", "frontline_or_rear": "frontline or rear line"}


@dataclass(frozen=True)
class CardFacts:
    """What a card shows, as text (generated from its data, never typed in).

    Attributes:
        kind: ``unit``, ``command``, ``event`` or ``damage``.
        title: the card's name / title.
        side: ``german`` / ``soviet`` for unit cards, else ``""``.
        subtitle: type line (``vehicle, frontline``; ``Command, movement phase``).
        stats: short number facts (``Defense 6``, ``Endurance 9 / Half 4``, ``cost 12``).
        body: the rest, one entry per printed line (weapons, effects, note).
    """

    kind: str
    title: str
    side: str
    subtitle: str
    stats: tuple[str, ...]
    body: tuple[str, ...]


def card_facts(card: Any, rules: Any = None) -> CardFacts:
    """The printed facts of a card definition.

    Args:
        card: a ``UnitCard``, ``CommandCard``, ``EventCard`` or ``DamageCard``
            (:mod:`hexwar.rules.cards`), recognised by their attributes.
        rules: the ``CombatRules`` numbers effect descriptions may quote (optional).

    Raises:
        TypeError: ``card`` is none of these kinds.
    """
    if hasattr(card, "endurance_full"):  # unit card (R4.1)
        kind = card.unit_type.replace("_", " ")
        if getattr(card, "is_crew", False):
            line = "rides with the unit it crews"
        elif card.line == "aircraft":
            line = f"{card.turns_of_flight} Turns of Flight"
        else:
            line = _LINES.get(card.line, card.line.replace("_", " "))
        stats = (f"Defense {card.defense}", f"Endurance {card.endurance_full} / Half {card.endurance_half}",
                 f"cost {card.cost}")  # fmt: skip
        body: list[str] = []
        if card.mobility:
            body.append(f"movement {card.movement} ({card.mobility})")
        if card.quality:
            body.append(f"quality: {card.quality}")
        body += [f"{i}. {w.describe()}" for i, w in enumerate(card.weapons, 1)]
        if card.note:
            body.append(card.note)
        return CardFacts("unit", card.name, card.side, f"{kind}, {line}", stats, tuple(body))
    if hasattr(card, "sides") and hasattr(card, "side_for"):  # damage card (R6.6)
        sides = tuple(f"{s.target_type}: {s.describe(rules)}" for s in card.sides)
        return CardFacts("damage", card.id.replace("_", " "), "", "Damage card", (), sides)
    if hasattr(card, "duration"):  # Command card (R4.3)
        who = "/".join(t.replace("_", " ") for t in card.applies_to) or "any unit"
        dur = {"instant": "at once", "attack": "for one attack", "turn": "until End Turn",
               "permanent": "until the unit leaves play"}.get(card.duration, card.duration)  # fmt: skip
        fx = tuple(e.describe(rules) for e in card.effects) + ((card.note,) if card.note else ())
        sub = f"Command, {card.phase.replace('_', ' ')} phase"
        return CardFacts("command", card.title, "", sub, (who, dur), fx)
    if hasattr(card, "effects") and hasattr(card, "title"):  # Event card
        last = (
            "rest of the game" if card.turns is None else f"{card.turns} turn{'s' if card.turns != 1 else ''}"
        )
        ev = tuple(e.describe(rules) for e in card.effects) + ((card.note,) if card.note else ())
        return CardFacts("event", card.title, "", "Event", (last,), ev)
    raise TypeError(f"not a card definition: {card!r}")


def paint_nato(p: Painter, cx: float, cy: float, w: float, h: float, unit_type: str, fill: Any, ink: Any,
               z: int = 0) -> None:  # fmt: skip
    """A small NATO-style unit symbol ``w`` x ``h`` points centred at ``(cx, cy)``: infantry
    X, vehicle oval, gun dot, aircraft wings (crews combine the X with their kind's mark)."""
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    p.rect(x0, y0, x1, y1, ink, z)
    p.rect(x0 + 1.5, y0 + 1.5, x1 - 1.5, y1 - 1.5, fill, z)
    t = unit_type
    if t in ("infantry", "tank_crew", "artillery_crew", "pilot"):
        p.line(x0 + 2, y0 + 2, x1 - 2, y1 - 2, 1.4, ink, z)
        p.line(x0 + 2, y1 - 2, x1 - 2, y0 + 2, 1.4, ink, z)
    if t in ("vehicle", "tank_crew"):
        rx, ry = w * 0.3, h * 0.24
        pts = [
            (cx + rx * math.cos(a / 12 * math.tau), cy + ry * math.sin(a / 12 * math.tau)) for a in range(12)
        ]
        p.polygon(pts, ink, z)
        pts = [(cx + (rx - 1.6) * math.cos(a / 12 * math.tau), cy + (ry - 1.6) * math.sin(a / 12 * math.tau))
               for a in range(12)]  # fmt: skip
        p.polygon(pts, fill, z)
    if t in ("gun", "artillery_crew"):
        p.circle(cx, cy - h * 0.12, h * 0.14, ink, z)
        p.line(cx, cy - h * 0.12, cx, y1 - 2, 1.6, ink, z)
    if t in ("aircraft", "pilot"):
        p.line(x0 + 3, cy + 2, cx, cy - 2, 1.6, ink, z)
        p.line(cx, cy - 2, x1 - 3, cy + 2, 1.6, ink, z)


class CardView(Element):
    """One card, clickable (click, or Enter/Space when focused, runs ``action``).

    Args:
        card: the card definition (see :func:`card_facts`).
        looks: the renderer's :class:`~hexwar.render.looks.Looks` (unit cards take their side's
            counter colours from it: fill, band, text, symbol).
        action: what a click does (``None``: inert, and no hit box is recorded, so a
            painter-driven screen may record its own).
        picked: drawn lifted-out with a highlighted edge.
        usable: ``False`` draws it dimmed (no legal command uses it now).
        full: draw every fact (card tables) instead of the compact hand face.
        tip: test handle / tooltip (default ``card <id>``).
        rules: ``CombatRules`` for effect texts.
        badge: ``(text, colour)`` drawn in place of the compact face's type line (the play
            screen marks what a unit needs beside it: ``"+ tank crew"``), or ``None``.
    """

    def __init__(
        self,
        card: Any,
        looks: Any = None,
        action: Callable[[], Any] | None = None,
        picked: bool = False,
        usable: bool = True,
        full: bool = False,
        tip: str = "",
        rules: Any = None,
        badge: tuple[str, Any] | None = None,
    ) -> None:
        super().__init__(tip=tip or f"card {getattr(card, 'id', '')}", focusable=True)
        self.badge = badge
        self.card, self.looks, self.action = card, looks, action
        self.picked, self.usable, self.full = picked, usable, full
        self.facts = card_facts(card, rules)

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A left click runs the action."""
        if button == keys.MOUSE_LEFT and self.action is not None:
            self.action()
        return True

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Enter or Space runs the action."""
        if symbol in (keys.ENTER, keys.SPACE) and self.action is not None:
            self.action()
            return True
        return False

    def paint_self(self, p: Painter, z: int) -> None:
        """The card face (compact or full), the dim veil and the pick frame; a hit box."""
        r = self.rect
        x, y, w, h = r.x, r.y + (6.0 if self.picked else 0.0), r.w, r.h
        hov = p.hovered(x, y, w, h)
        edge = T.ACTIVE if self.picked else ((190, 190, 180, 255) if hov else (20, 20, 20, 255))
        p.rect(x + 2, y - 3, x + w + 2, y + h - 3, (0, 0, 0, 80), z)
        f = self.facts
        if f.kind == "unit":
            self._paint_unit(p, x, y, w, h, edge, z)
        else:
            self._paint_paper(p, x, y, w, h, edge, z)
        if not self.usable:
            p.rect(x, y, x + w, y + h, (20, 20, 24, 110), z)
        if self.picked:
            p.frame(x - 1, y - 1, x + w + 1, y + h + 1, 2.5, T.ACTIVE, z)
        if self.action is not None:
            p.widget(r.x, r.y, r.w, r.h, self.action, self.tip, z)

    def _paint_unit(self, p: Painter, x: float, y: float, w: float, h: float, edge: Any, z: int) -> None:
        card, f = self.card, self.facts
        sl = self.looks.sides[card.side]
        p.rect(x, y, x + w, y + h, edge, z)
        p.rect(x + 2, y + 2, x + w - 2, y + h - 2, sl.fill, z)
        name_col = (250, 248, 240, 255) if card.side == "soviet" else sl.text
        # the name in the band, never squeezed under 10 pt: one line at 11, else two at 10 (issue 36)
        names = [card.name]
        if p.measure(card.name, 11, "condensed") > w - 12:
            names = wrap(p.atlas, card.name, w - 12, 10, "condensed")
            names = names[:1] + (
                [ellipsize(p.atlas, " ".join(names[1:]), w - 12, 10, "condensed")] if names[1:] else []
            )
        band = 22.0 if len(names) == 1 else 30.0
        p.rect(x + 2, y + h - band, x + w - 2, y + h - 2, sl.band, z)
        if len(names) == 1:
            p.text(card.name, x + 6, y + h - 12, 11, name_col, style="condensed", z=z)
        else:
            for k, ln in enumerate(names):
                p.text(ln, x + 6, y + h - 10 - 11 * k, 10, name_col, style="condensed", z=z)
        drop = band - 22.0
        paint_nato(
            p, x + w / 2, y + h - 44 - drop, min(44.0, w * 0.5), 26 - drop / 2, card.unit_type, sl.symbol_fill,
            sl.symbol, z,
        )  # fmt: skip
        if not self.full:
            ty = y + h - 67 - drop
            cost_y = y + 14
            if ty - 8 > cost_y + 8:  # the type (or badge) line only where it clears the cost line
                if self.badge is not None:
                    text, colour = self.badge
                    p.rect(x + 3, ty - 9, x + w - 3, ty + 8, (24, 25, 28, 235), z)
                    p.text(ellipsize(p.atlas, text, w - 10, 10, "bold"), x + w / 2, ty, 10, colour, ax="center",
                           style="bold", z=z)  # fmt: skip
                else:
                    ttl = card.unit_type.replace("_", " ")
                    p.text(ellipsize(p.atlas, ttl, w - 8, 10.5, "bold"), x + w / 2, ty, 10.5, sl.text,
                           ax="center", style="bold", z=z)  # fmt: skip
            if h >= 118 + drop:  # a short card keeps the type (or badge) line and the cost only
                p.text(ellipsize(p.atlas, f"Def {card.defense} · End {card.endurance_full}", w - 8, 10.5),
                       x + w / 2, y + 30, 10.5, sl.text, ax="center", z=z)  # fmt: skip
            p.text(f"{card.cost} VP", x + w / 2, cost_y, 11, sl.text, ax="center", style="bold", z=z)
            return
        yy = y + h - 67
        lines = [(f.subtitle, "bold")] + [(s, "regular") for s in f.stats] + [(b, "regular") for b in f.body]
        self._paint_lines(p, lines, x, yy, w, y + 6, sl.text, z)

    def _paint_paper(self, p: Painter, x: float, y: float, w: float, h: float, edge: Any, z: int) -> None:
        card, f = self.card, self.facts
        p.rect(x, y, x + w, y + h, edge, z)
        p.rect(x + 2, y + 2, x + w - 2, y + h - 2, T.PARCHMENT, z)
        band = T.PARCHMENT_EDGE if f.kind != "damage" else (150, 52, 40, 255)
        p.rect(x + 2, y + h - 22, x + w - 2, y + h - 2, band, z)
        head = {"command": "COMMAND", "event": "EVENT", "damage": "DAMAGE"}[f.kind]
        p.text(head, x + 6, y + h - 12, 10, (250, 244, 226, 255), style="bold", max_width=w - 12, z=z)
        yy = y + h - 36
        for ln in wrap(p.atlas, f.title, w - 12, 12, "bold")[:2]:
            p.text(ln, x + w / 2, yy, 12, T.DARK, ax="center", style="bold", max_width=w - 8, z=z)
            yy -= 15
        if not self.full and f.kind == "command":
            body = card.help_text().split(": ", 1)[-1] if hasattr(card, "help_text") else ""
            for ln in wrap(p.atlas, body, w - 12, 10)[: max(0, int((yy - y - 28) // 12.5))]:
                p.text(ln, x + 6, yy - 2, 10, (70, 56, 32, 255), z=z)
                yy -= 12.5
            p.text(f"{str(card.phase).replace('_', ' ')} phase", x + w / 2, y + 14, 10.5, (90, 70, 40, 255),
                   ax="center", max_width=w - 8, z=z)  # fmt: skip
            return
        lines = [(f.subtitle, "bold")] + [(s, "regular") for s in f.stats] + [(b, "regular") for b in f.body]
        self._paint_lines(p, lines, x, yy, w, y + 6, (70, 56, 32, 255), z)

    @staticmethod
    def _paint_lines(p: Painter, lines: list[tuple[str, str]], x: float, yy: float, w: float, bottom: float,
                     colour: Any, z: int) -> None:  # fmt: skip
        out: list[tuple[str, str]] = []
        for s, style in lines:
            out += [(ln, style) for ln in wrap(p.atlas, s, w - 12, 10, style)]
        fit = max(0, int((yy - bottom) // 12.5))
        if len(out) > fit and fit:
            out = out[:fit]
            s, style = out[-1]
            out[-1] = (ellipsize(p.atlas, s + " …", w - 12, 10, style), style)
        for s, style in out:
            p.text(s, x + 6, yy - 2, 10, colour, style=style, z=z)
            yy -= 12.5
