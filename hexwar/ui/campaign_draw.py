"""Drawing pieces of the campaign screen (issue 16, 36): text never under :data:`MIN_TEXT`
(cut with an ellipsis, never squeezed), a campaign card face up or face down, a titled
section, and the colour a battle's result is announced in.

Used by the panels of :mod:`hexwar.ui.campaign_panels`; nothing here touches GL (a painter's
``atlas`` only measures and makes text meshes).
"""

from __future__ import annotations

from typing import Any

from ..campaign.events import BattleWon
from .widgets import Element, Painter
from .widgets import theme as T

__all__ = [
    "SIDE_NAME",
    "CARD_W",
    "CARD_H",
    "TACTIC_H",
    "MIN_TEXT",
    "CampaignPanel",
    "fit",
    "text",
    "wrap_words",
    "card",
    "empty_slot",
    "section",
    "result_colour",
]

SIDE_NAME = {"german": "German", "soviet": "Soviet"}
#: a campaign card's size at 1400x900 (points); narrower tables shrink the width only
CARD_W, CARD_H = 128.0, 74.0
#: the smallest text drawn at 1400x860 (issue 30): long text is wrapped or cut, never shrunk
MIN_TEXT = 11.0
#: the tactic cards' height: five body lines under a one-line title (issue 36: cut at three)
TACTIC_H = CARD_H + 13.0
#: the line pitch of a card's body text (points)
LINE = 13.0


def fit(p: Painter, s: str, size: float, width: float, style: str = "regular") -> str:
    """``s`` cut to ``width`` points at ``size`` (an ellipsis marks the cut), never shrunk."""
    if width <= 0 or p.measure(s, size, style) <= width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if p.measure(s[:mid] + "…", size, style) <= width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + "…"


def text(p: Painter, s: str, x: float, y: float, size: float, color: Any, **kw: Any) -> None:
    """``p.text`` at no less than :data:`MIN_TEXT`; ``max_width`` cuts the text (an ellipsis)
    instead of shrinking it."""
    size = max(size, MIN_TEXT)
    width = kw.pop("max_width", None)
    if width is not None:
        s = fit(p, s, size, width, kw.get("style", "regular"))
    p.text(s, x, y, size, color, **kw)


def wrap_words(p: Painter, s: str, size: float, width: float, style: str = "regular") -> list[str]:
    """``s`` word-wrapped to ``width`` points at ``size`` (a word wider than that stands alone)."""
    out: list[str] = []
    line = ""
    for word in s.split():
        cand = f"{line} {word}" if line else word
        if line and p.measure(cand, size, style) > width:
            out.append(line)
            line = word
        else:
            line = cand
    if line:
        out.append(line)
    return out or [""]


def _title_lines(p: Painter, title: str, width: float) -> list[str]:
    """A card title on lines no wider than ``width``, broken at blanks and after hyphens
    ("Sturmgeschütz-" / "Brigade")."""
    out: list[str] = []
    line = ""
    for word in title.replace("-", "-\n").split():
        cand = (line + word if line.endswith("-") else f"{line} {word}") if line else word
        if line and p.measure(cand, MIN_TEXT, "bold") > width:
            out.append(line)
            line = word
        else:
            line = cand
    return out + [line] if line else out or [""]


def _face_down(p: Painter, x: float, y: float, w: float, h: float, side: str | None, active: bool) -> None:
    col = T.SIDE_UI.get(side or "", T.SECTION)
    p.rect(x, y, x + w, y + h, col)
    for k in range(1, 6):
        p.line(x + 6, y + k * h / 6, x + w - 6, y + k * h / 6, 1, (255, 255, 255, 40))
    p.frame(x, y, x + w, y + h, 2 if active else 1, T.ACTIVE if active else T.LINE)
    if w > 80:
        p.text("face down", x + w / 2, y + h / 2, 11, T.TEXT, ax="center", style="bold")
    else:  # a narrow card: two lines (issue 36: once squeezed to 8.5 pt)
        p.text("face", x + w / 2, y + h / 2 + 7.5, MIN_TEXT, T.TEXT, ax="center", style="bold")
        p.text("down", x + w / 2, y + h / 2 - 7.5, MIN_TEXT, T.TEXT, ax="center", style="bold")


def card(
    p: Painter,
    x: float,
    y: float,
    title: str,
    lines: list[str],
    side: str | None,
    face_up: bool = True,
    active: bool = False,
    action: Any = None,
    tip: str = "",
    w: float = CARD_W,
    h: float = CARD_H,
    key: str = "",
    dim: bool = False,
) -> None:
    """One campaign card at ``(x, y)`` (bottom-left, points), ``w`` x ``h``.

    Face up: a band in the side's colour with the title (on two lines when the card is too
    narrow for it on one; issue 36: "Panzer-..." at 800x600) and ``key``, the key that picks
    it, at its right; then ``lines`` word-wrapped, as many as the card holds, the last one
    ending in an ellipsis when some are left out (issue 36: the tactic text stopped mid-sentence
    without a mark). Face down: the side's colour and a pattern. ``dim``: a used card.
    ``action`` / ``tip``: the click and the hover text (a :class:`HitBox`).
    """
    if not face_up:
        _face_down(p, x, y, w, h, side, active)
    else:
        p.rect(x, y, x + w, y + h, T.PARCHMENT if not dim else T.SECTION)
        band = T.SIDE_UI.get(side or "", T.SECTION)
        kw = p.measure(key, MIN_TEXT, "bold") + 6 if key else 0.0
        room_w = w - 10 - kw
        heads = [title] if p.measure(title, MIN_TEXT, "bold") <= room_w else _title_lines(p, title, room_w)
        heads = heads[:2]
        band_h = 16 + LINE * (len(heads) - 1)
        p.rect(x, y + h - band_h, x + w, y + h, band)
        for i, hd in enumerate(heads):
            p.text(fit(p, hd, MIN_TEXT, room_w, "bold"), x + 5, y + h - 8 - LINE * i, MIN_TEXT,
                   T.TEXT, style="bold")  # fmt: skip
        if key:
            p.text(key, x + w - 5, y + h - 8, MIN_TEXT, T.TEXT, ax="right", style="bold")
        wrapped = [part for ln in lines for part in wrap_words(p, ln, MIN_TEXT, w - 12)]
        room = max(1, int((h - band_h - 6) // LINE))
        shown = wrapped[:room]
        if len(wrapped) > room:  # some left out: say so on the last line shown
            shown[-1] = fit(p, shown[-1] + " …", MIN_TEXT, w - 12)
        for i, ln in enumerate(shown):
            p.text(fit(p, ln, MIN_TEXT, w - 12), x + 6, y + h - band_h - 12 - LINE * i, MIN_TEXT,
                   T.DARK if not dim else T.DIM)  # fmt: skip
        p.frame(x, y, x + w, y + h, 3 if active else 1, T.ACTIVE if active else T.PARCHMENT_EDGE)
    if action is not None or tip:
        p.widget(x, y, w, h, action, tip)


def empty_slot(p: Painter, x: float, y: float, w: float, h: float, label: str) -> None:
    """An empty card place: a faint frame with ``label`` in it."""
    p.frame(x, y, x + w, y + h, 1, T.FAINT)
    text(p, fit(p, label, MIN_TEXT, w - 6), x + w / 2, y + h / 2, 10.5, T.FAINT, ax="center")


def section(p: Painter, x: float, y: float, w: float, h: float, title: str) -> None:
    """A panel with a title band along its top."""
    p.rect(x, y, x + w, y + h, T.PANEL)
    p.rect(x, y + h - 20, x + w, y + h, T.SECTION)
    p.text(title, x + 8, y + h - 10, 11.5, T.DIM, style="bold")


def result_colour(shown: str, humans: list[str], result: Any) -> Any:
    """The colour a battle's result is announced in, for the side whose hand is shown: green when
    that side won, red when the opponent did (issue 36: an opponent's win was announced in the
    winner's green), plain for a stalemate or when the computer plays both sides."""
    if not isinstance(result, BattleWon) or not humans:
        return T.TEXT
    return T.GOOD if result.side == shown else T.ERROR


class CampaignPanel(Element):
    """A panel of the campaign screen: laid out by its :class:`~hexwar.ui.campaign_panels.CampaignLayout`
    parent, drawing its controller's war inside :attr:`rect` (its ``tip`` is its name)."""

    name = ""

    def __init__(self) -> None:
        super().__init__(tip=self.name)

    @property
    def ctl(self) -> Any:
        """The controller drawn (the root's, which the window may swap)."""
        return getattr(self.parent, "ctl", None)

    @property
    def root(self) -> Any:
        """The :class:`~hexwar.ui.campaign_panels.CampaignLayout` laying this panel out."""
        return self.parent
