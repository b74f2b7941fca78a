"""The play screen's log view: what the combat log, the Damage card list and the artillery
panel show, built from the game's events as they happen (R1.2 every roll, R6.6, R9.3).

No pyglet, no rules: events in, display lines out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import HexwarError
from ..game.commands import command_from_json
from ..game.events import GameEvent, RuleEvent
from ..game.headless import format_event, readable
from ..game.state import GameState
from ..model.hexgrid import Hex
from ..rules.artillery import ArtilleryStrike
from ..rules.combat import AttackStarted
from .pacing import describe_command

__all__ = ["LogLine", "StrikeView", "LogView"]


@dataclass(frozen=True)
class LogLine:
    """One line of the combat log.

    Attributes:
        text: the readable line (:func:`hexwar.game.headless.format_event`, stripped).
        kind: the event kind (``"roll"``, ``"to_hit"``, ``"damage"``, ``"phase"`` ...).
        turn: the game turn it happened in.
    """

    text: str
    kind: str
    turn: int


@dataclass(frozen=True)
class StrikeView:
    """The last artillery strike (R9.3), for the map arrow and the panel.

    Attributes:
        side: the firing side.
        target: the hex called.
        landing: where it came down (may be off the map).
        drift: hexes drifted (0 on target).
        direction: drift direction 1..6 (R2.3), 0 on target.
        hit: on target.
        off_map: landed off the map.
        text: the log line.
        turn: the turn of the strike.
    """

    side: str
    target: Hex
    landing: Hex
    drift: int
    direction: int
    hit: bool
    off_map: bool
    text: str
    turn: int


class LogView:
    """The log as the screen shows it.

    Attributes:
        log: every log line so far (rolls included), oldest first.
        damage_cards: log lines of the Damage cards drawn, newest last (R6.6).
        strike: the last artillery strike (R9.3), or ``None``.
        last_attack: ``(attacker hex, target hex, side)`` of the attack resolved last.
    """

    def __init__(self) -> None:
        self.log: list[LogLine] = []
        self.damage_cards: list[LogLine] = []
        self.strike: StrikeView | None = None
        self.last_attack: tuple[Hex, Hex, str] | None = None

    def record(self, events: Iterable[GameEvent], state: GameState) -> None:
        """Add ``events`` (just applied to ``state``) to the log: readable lines with every roll
        (R1.2), Damage cards drawn (R6.6), the artillery strike (R9.3), the attack resolved."""
        evs = list(events)
        turn = state.turn
        for e in readable(evs):
            if e.kind == "begin_turn":
                turn = int(e.data.get("turn", turn))
            self.log.append(LogLine(_readable_line(e, state), e.kind, turn))
            if e.kind == "damage_card":
                self.damage_cards.append(LogLine(e.text, e.kind, turn))
        for e in evs:  # typed events: hexes and unit ids straight from the rules' payload
            p = e.payload if isinstance(e, RuleEvent) else None
            if isinstance(p, ArtilleryStrike):
                self.strike = StrikeView(
                    p.side, p.target, p.landing, p.drift, p.direction, p.hit, p.off_map, e.text, turn
                )
            elif isinstance(p, AttackStarted):
                au = state.units.get(p.attacker)
                tu = state.units.get(p.target)
                if au is not None and tu is not None and au.hex is not None and tu.hex is not None:
                    self.last_attack = (au.hex, tu.hex, au.side)


def _readable_line(e: GameEvent, state: GameState) -> str:
    """The window's log line of ``e``: the terminal's, but an undo names the command taken back
    in words (R12.3) instead of its raw ``unit=... hex=...`` form (the game log keeps the raw
    text, which saves' log hashes depend on)."""
    if e.kind == "undo" and isinstance(e.data.get("undone"), dict):
        try:
            what = describe_command(state, command_from_json(e.data["undone"]))
        except (HexwarError, KeyError, TypeError, ValueError):
            return format_event(e).strip("\n").strip()
        return f"{e.data.get('side', '')} takes back: {what} (R12.3)"
    return format_event(e).strip("\n").strip()
