"""``--ai-level``: how strong each computer side plays, one option shared by every command.

``hexwar play``, ``hexwar campaign``, ``hexwar join --ai`` and the balance commands all take
``--ai-level LEVEL`` (every computer side) or ``--ai-level german=LEVEL,soviet=LEVEL`` (per
side or seat), with LEVEL one of :data:`AI_LEVELS`: ``easy`` (a weaker player for learners),
``normal`` (the one-move heuristic player of rounds 1-2), ``hard`` (the search or equilibrium
player). One parser here, so the option reads and fails the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from hexwar.errors import HexwarError

AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The level names, weakest first (issue 31: exact names, outside scripts depend on them)."""


def parse_ai_level(spec: str | None, sides: Sequence[str], default: str) -> dict[str, str]:
    """Read an ``--ai-level`` value into ``{side: level}`` for every side in ``sides``.

    Args:
        spec: the option's text: ``None`` or ``""`` (every side gets ``default``), one level
            (``"hard"``: every side), or comma-separated ``side=level`` pairs
            (``"german=hard,soviet=normal"``; sides left out get ``default``).
        sides: the side or seat names of this game, e.g. ``("german", "soviet")``.
        default: the level of a side the text does not name; one of :data:`AI_LEVELS`.

    Returns:
        A dict with one entry per side, each value in :data:`AI_LEVELS`.

    Raises:
        HexwarError: an unknown level, an unknown side, a side named twice, or a malformed pair;
            the message quotes the option and says what was expected.

    >>> parse_ai_level("hard", ("german", "soviet"), "normal")
    {'german': 'hard', 'soviet': 'hard'}
    >>> parse_ai_level("soviet=easy", ("german", "soviet"), "hard")
    {'german': 'hard', 'soviet': 'easy'}
    """
    if default not in AI_LEVELS:
        raise HexwarError(f"--ai-level: default level {default!r} is not one of {', '.join(AI_LEVELS)}")
    text = (spec or "").strip().lower()
    levels = {side: default for side in sides}
    if not text:
        return levels
    if "=" not in text:
        if text not in AI_LEVELS:
            raise HexwarError(f"--ai-level: unknown level {spec!r}; expected one of {', '.join(AI_LEVELS)}")
        return {side: text for side in sides}
    seen: set[str] = set()
    for part in text.split(","):
        side, sep, level = (p.strip() for p in part.partition("="))
        if not sep or not side or not level:
            raise HexwarError(
                f"--ai-level: {part.strip()!r} in {spec!r} is not SIDE=LEVEL (e.g. {sides[0]}=hard)"
                if sides
                else f"--ai-level: {part.strip()!r} is not SIDE=LEVEL"
            )
        if side not in levels:
            raise HexwarError(
                f"--ai-level: unknown side {side!r} in {spec!r}; this game's sides are {', '.join(sides)}"
            )
        if side in seen:
            raise HexwarError(f"--ai-level: side {side!r} named twice in {spec!r}")
        if level not in AI_LEVELS:
            raise HexwarError(
                f"--ai-level: unknown level {level!r} for {side} in {spec!r}; expected one of {', '.join(AI_LEVELS)}"
            )
        seen.add(side)
        levels[side] = level
    return levels
