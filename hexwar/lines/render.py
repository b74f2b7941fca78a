"""``hexwar render`` for line games: a line scenario or save is drawn as the card table.

:func:`is_lines_target` recognises a line scenario (a shipped name such as ``lines`` or a
``mode = "lines"`` TOML file) or a lines save; :func:`lines_game_for` gives the game to draw;
:func:`hexwar.ui.lines_render.render_table` draws the card-table screen headless (``--screen
play``; ``map`` means the same for a game with no map).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import HexwarError

__all__ = ["is_lines_target", "lines_game_for"]


def _path(target: str) -> Path | None:
    p = Path(target)
    if p.is_file():
        return p
    from ..paths import find_content

    sc = find_content("scenarios", target)
    return sc if sc is not None and sc.is_file() and sc.suffix == ".toml" else None


def is_lines_target(target: str) -> bool:
    """True for a line scenario or a lines save (anything unreadable: False, the normal path
    reports it)."""
    import json
    import tomllib

    p = _path(target)
    if p is None:
        return False
    try:
        text = p.read_text(encoding="utf-8")[:2_000_000]
        if p.suffix.lower() == ".toml":
            return tomllib.loads(text).get("mode") == "lines"
        if p.suffix.lower() == ".json":
            d = json.loads(text)
            return isinstance(d, dict) and d.get("mode") == "lines"
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):  # deep nesting too
        return False
    return False


def lines_game_for(target: str, turn: int = 2) -> Any:
    """The game to draw: a save replayed to its end, or a scenario played by the computer into
    the Declaration phase of ``turn`` (so lines, hands and arrows are on the table)."""
    from ..game.save import load_game
    from ..game.scenario import load_scenario
    from .ai import LinesAI

    p = _path(target)
    if p is None:
        raise HexwarError(f"{target}: no such line scenario or save")
    if p.suffix.lower() == ".json":
        return load_game(p)
    sc: Any = load_scenario(p)
    st: Any = sc.new_game()
    players = {s: LinesAI(s, st.seed) for s in st.seats}
    while not st.over and not (st.turn >= turn and st.phase == "declaration" and st.attacks):
        st.apply(players[st.to_act].choose(st))
        if st.turn > turn + 1:
            break
    return st
