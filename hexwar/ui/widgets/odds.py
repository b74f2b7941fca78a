"""Exact attack odds as labelled bars (R6): one bar per outcome of an
:class:`~hexwar.rules.odds.AttackOdds` (Destroyed, Damage card, Damaged, No effect, Miss), its
percentage on the right, and the expected victory points and Endurance below, as the hex play
window's odds panel shows them. The card table paints its odds with :func:`paint_odds_bars`;
the hex window's panel draws the same rows (its colours are :data:`ODDS_ROWS`').
"""

from __future__ import annotations

from typing import Any

from . import theme as T

__all__ = ["ODDS_ROWS", "odds_rows", "paint_odds_bars", "odds_bars_height"]

#: (label, AttackOdds attribute, bar colour RGBA), worst outcome for the target first.
ODDS_ROWS: tuple[tuple[str, str, T.Colour], ...] = (
    ("Destroyed", "destroyed", (192, 57, 43, 255)),
    ("Damage card", "damage_card", (226, 120, 48, 255)),
    ("Damaged", "damaged", (214, 169, 40, 255)),
    ("No effect", "no_effect", (132, 136, 128, 255)),
    ("Miss", "miss", (86, 90, 96, 255)),
)

_ROW_H = 17.0
_FOOT_H = 24.0


def odds_rows(odds: Any) -> list[tuple[str, float, T.Colour]]:
    """The rows of ``odds`` (an :class:`~hexwar.rules.odds.AttackOdds`): ``(label, probability
    in [0, 1], colour)`` in :data:`ODDS_ROWS` order; the five probabilities add up to 1 (R6)."""
    return [(label, float(getattr(odds, attr)), col) for label, attr, col in ODDS_ROWS]


def odds_bars_height(size: float = 12.0) -> float:
    """Points the bars of :func:`paint_odds_bars` take at text ``size`` (five rows and the
    expected-value line)."""
    return len(ODDS_ROWS) * _ROW_H * size / 12.0 + _FOOT_H * size / 12.0


def paint_odds_bars(
    p: Any, odds: Any, x0: float, x1: float, y: float, size: float = 12.0, z: int = 0
) -> float:
    """Paint ``odds`` as labelled bars from the top ``y`` down between ``x0`` and ``x1`` (points,
    y up) into the :class:`~hexwar.ui.widgets.Painter` ``p``.

    Each row: the outcome's name, a bar as long as its probability (exact, R6), and the
    percentage with one decimal; below them the expected victory points and Endurance lost and
    the chance of at least one hit.

    Args:
        odds: an :class:`~hexwar.rules.odds.AttackOdds` (``expected_vp``, ``expected_damage``,
            ``hit`` are read too).
        size: text size in points (the row height follows it; 10 points at least on screen).

    Returns:
        the y below the last line painted.
    """
    k = size / 12.0
    label_w = max(p.measure(label, size) for label, _, _ in ODDS_ROWS) + 8 * k
    pct_w = p.measure("100.0%", size, "bold") + 6 * k
    bx0, bx1 = x0 + label_w, max(x0 + label_w + 10, x1 - pct_w)
    for label, v, col in odds_rows(odds):
        p.text(label, x0, y - 6 * k, size, T.TEXT, z=z)
        p.rect(bx0, y - 12 * k, bx1, y - 1 * k, T.FIELD, z)
        p.rect(bx0, y - 12 * k, bx0 + (bx1 - bx0) * max(0.0, min(1.0, v)), y - 1 * k, col, z)
        p.text(f"{100 * v:.1f}%", x1, y - 6 * k, size, T.TEXT, ax="right", style="bold", z=z)
        y -= _ROW_H * k
    foot = (
        f"Expected {odds.expected_vp:.1f} VP, {odds.expected_damage:.1f} Endurance; hit {100 * odds.hit:.0f}%"
    )
    from .text import ellipsize

    p.text(ellipsize(p.atlas, foot, x1 - x0, size - 0.5), x0, y - 6 * k, size - 0.5, T.DIM, z=z)
    return y - _FOOT_H * k
