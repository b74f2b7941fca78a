"""What one seat may see of a lines game (R12.1), as plain data for the card-table screen,
the terminal and tests: both sides' lines with each unit's Endurance, Damage card (with the
effect for the unit's type) and Command cards; aircraft aloft with their Turns of Flight; this
seat's hand (other hands as counts only); deck and discard counts; the declared attacks (the
declaration arrows); the score; the log with every roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .commands import side_of_seat
from .rules import card, cards

if TYPE_CHECKING:  # pragma: no cover
    from .state import LinesState

__all__ = ["UnitView", "AttackView", "SeatView", "seat_view", "seat_log_text", "odds_text"]


@dataclass(frozen=True)
class UnitView:
    """One unit card on the table.

    Attributes:
        uid, name, unit_type, side, seat: who it is.
        line: ``front``, ``rear`` or ``air``.
        endurance, full, half: Current, Full and Half Endurance.
        crew: the crew's name (or ``None``; ``"no crew"`` for a crewless unit that needs one).
        damage: ``(title, effect text, turns left)`` of its Damage card's edge for its type.
        command_cards: titles of the Command cards under it.
        flight_turns: Turns of Flight left (aircraft).
        captured: taken over from the enemy.
    """

    uid: str
    name: str
    unit_type: str
    side: str
    seat: str
    line: str
    endurance: int
    full: int
    half: int
    crew: str | None
    damage: tuple[str, str, int | None] | None
    command_cards: tuple[str, ...]
    flight_turns: int
    captured: bool


@dataclass(frozen=True)
class AttackView:
    """A declaration arrow: attack ``number`` of ``attackers`` at ``target`` (resolved or not)."""

    number: int
    seat: str
    attackers: tuple[str, ...]
    target: str
    weapons: tuple[str, ...]
    at_crew: bool
    close_assault: bool
    resolved: bool


@dataclass(frozen=True)
class SeatView:
    """Everything ``seat`` may see (``None``: a spectator, who sees no hand)."""

    seat: str | None
    turn: int
    phase: str
    to_act: str | None
    order: tuple[str, ...]
    lines: dict[str, dict[str, tuple[UnitView, ...]]]
    hand_units: tuple[str, ...]
    hand_commands: tuple[str, ...]
    hand_counts: dict[str, tuple[int, int]]
    reserves: dict[str, int]
    command_deck: int
    command_discard: int
    damage_deck: int
    damage_discard: int
    events: tuple[str, ...]
    attacks: tuple[AttackView, ...]
    vp: dict[str, int]
    targets: dict[str, int]
    overrun: dict[str, int]
    result: str | None
    log: tuple[str, ...] = field(default=())


def _unit(state: LinesState, uid: str) -> UnitView:
    u = state.units[uid]
    c = card(uid)
    crew = None
    if u.crew is not None:
        crew = card(u.crew).name
    elif c.needs_crew:
        crew = "no crew"
    dmg = None
    if u.damage_card is not None:
        edge = cards().damage_card(u.damage_card).side_for(c.unit_type)
        dmg = (edge.title, edge.describe(cards().rules), u.damage_turns)
    cc = tuple(cards().command_or_event(x).title for x in u.command_cards)
    return UnitView(
        uid,
        c.name,
        c.unit_type,
        u.side,
        u.seat,
        u.line or "",
        u.endurance,
        c.endurance_full,
        c.endurance_half,
        crew,
        dmg,
        cc,
        u.flight_turns,
        u.captured,
    )


#: the purpose of a roll that picks a random Reserves deck's card (:func:`~hexwar.lines.scenario.random_deck`:
#: "german Reserves deck card (100 points left)"; 4 players: the side's, not the seat's)
_POOL_ROLL = re.compile(r"^(german|soviet) Reserves deck card")


def _log_text(e: Any, seat: str | None) -> str:
    """A log line as ``seat`` may read it: the cards another seat takes into its hand are hidden
    (R12.1: hands are private; the starting hand, a unit card taken from the Reserves deck), and
    so are the other side's random Reserves deck picks (R12.1: the deck is its side's secret;
    "choice of 17, took #4" over the scenario's public pool named every card: fresh7), as the
    hex game's view (:func:`hexwar.game.view`) and the network game's lines view hide them."""
    from .events import HandChosen, TakenFromReserves

    if getattr(e, "kind", "") == "roll":
        m = _POOL_ROLL.match(str((getattr(e, "data", None) or {}).get("purpose", "")))
        if m and (seat is None or side_of_seat(seat) != m.group(1)):
            return f"{m.group(1)} draws a card for its Reserves deck"
    if isinstance(e, HandChosen) and e.seat != seat:
        return f"{e.seat} takes {len(e.cards)} unit cards into hand (hidden)"
    if isinstance(e, TakenFromReserves) and e.seat != seat:
        # Reinforcements' card too ("to commit"): it goes into the hand and may stay there (a
        # crew card alone cannot be committed), so it is named when committed, not before
        # (fresh9b: the log named it; the hex view hides it as well)
        if "to commit" in e.text:
            return f"{e.seat} takes a unit card from the Reserves deck to commit (hidden until committed)"
        return f"{e.seat} takes a unit card from the Reserves deck into hand (hidden)"
    return str(e.text)


def seat_log_text(e: Any, seat: str | None) -> str:
    """A log event's text as ``seat`` may read it (``None``: a spectator): the view's rule
    (R12.1) for the terminal's log too, so no other seat's hand is ever printed."""
    return _log_text(e, seat)


def seat_view(state: LinesState, seat: str | None, log_lines: int = 40) -> SeatView:
    """The view of ``seat`` (R12.1: its own hand only; decks as sizes, never their order)."""
    lines = {
        side: {ln: tuple(_unit(state, x) for x in state.lines[side][ln]) for ln in ("front", "rear", "air")}
        for side in ("german", "soviet")
    }
    attacks = []
    for n, a in sorted(state.attacks.items()):
        acard = card(a.attackers[0]) if a.attackers and a.attackers[0] in state.units else None
        ws = tuple(acard.weapons[i].name for i in a.weapons) if acard else ()
        attacks.append(
            AttackView(n, a.seat, a.attackers, a.target, ws, a.at_crew, a.close_assault, a.resolved)
        )
    log = tuple(_log_text(e, seat) for e in state.log[-log_lines:])
    res = str(state.result) if state.result else None
    return SeatView(
        seat,
        state.turn,
        state.phase,
        state.to_act,
        tuple(state.order),
        lines,
        tuple(state.hand_units[seat]) if seat else (),
        tuple(state.hand_commands[seat]) if seat else (),
        {s: (len(state.hand_units[s]), len(state.hand_commands[s])) for s in state.seats},
        {s: len(state.reserves[s]) for s in state.seats},
        len(state.command_deck),
        len(state.command_discard),
        len(state.damage_deck),
        len(state.damage_discard),
        tuple(cards().command_or_event(e).title for e in state.events_in_play),
        tuple(attacks),
        dict(state.vp),
        state.scenario.victory_points_for(state),
        dict(state.overrun),
        res,
        log,
    )


def odds_text(
    state: LinesState,
    unit: str,
    target: str,
    weapons: tuple[int, ...],
    at_crew: bool = False,
    bonus: bool = False,
) -> str:
    """One line of exact odds for a declaration (the screen's odds panel, before declaring)."""
    from ..rules.combat import CombatError
    from .odds import declare_odds

    try:
        o = declare_odds(state, unit, target, weapons, at_crew, bonus=bonus)
    except CombatError as exc:
        return f"not possible: {exc}"
    return (
        f"hit {o.hit:.0%}  damaged {o.damaged:.0%}  Damage card {o.damage_card:.0%}  destroyed {o.destroyed:.0%}"
        f"  expected VP {o.expected_vp:.1f}"
    )


def side_of(seat: str) -> str:
    """The side of a seat."""
    return side_of_seat(seat)


def describe(v: SeatView) -> list[str]:
    """The view as text lines (the terminal's table; the screen's fallback)."""
    out = [
        f"Turn {v.turn}, {v.phase} phase, to act: {v.to_act}; score german {v.vp['german']} / "
        f"{v.targets['german']}, soviet {v.vp['soviet']} / {v.targets['soviet']}"
    ]
    for side in ("soviet", "german"):
        for ln in ("rear", "front") if side == "soviet" else ("front", "rear"):
            units = ", ".join(
                f"{u.name} {u.endurance}/{u.full}" + (f" [{u.damage[0]}]" if u.damage else "")
                for u in v.lines[side][ln]
            )
            out.append(f"  {side} {ln:>5}: {units or '-'}")
        air = ", ".join(f"{u.name} ({u.flight_turns} ToF)" for u in v.lines[side]["air"])
        out.append(f"  {side}   air: {air or '-'}")
    out.append(
        f"  decks: Command {v.command_deck} (discard {v.command_discard}), Damage {v.damage_deck}; "
        + ", ".join(f"{s} reserves {n}" for s, n in v.reserves.items())
    )
    return out
