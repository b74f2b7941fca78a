"""The Spearpoint card game on lines (R11.1) on the game server: mode ``"lines"`` (R12.5).

A seat's view of a lines game (R12.1) as JSON, the events it may see, and a playable
:class:`~hexwar.lines.state.LinesState` rebuilt from a view, so that the terminal's list of
legal commands and the computer player (:class:`LinesViewPlayer`) decide from the view only,
exactly as on the hex map (:mod:`hexwar.game.view`).

Hidden from the other seat (and from a spectator, who sees what both seats may see):

* its hand (unit and Command cards: only their numbers), its Reserves deck (only its size;
  a seat sees its own deck's contents in sorted order, never the order), its instant effects
  waiting (``pending``) and, in the ``classic`` game (001), its commitments set aside until
  the reveal;
* in the log: the cards it takes into hand (``choose_hand``, ``draw``, ``reserves``), the unit
  cards it puts back under its Reserves (``discard``), the draws that built its Reserves deck;
  from everyone the faces of every shuffle (deck orders) and the game's seed.

Everything on the table is public: both lines with each unit's Endurance, crews, Damage and
Command cards, aircraft aloft, the declared attacks, the discards, the score.

>>> from hexwar.game.scenario import find_scenario, load_scenario
>>> g = load_scenario(find_scenario("lines")).new_game(seed=3)
>>> v = lines_view(g, "german")
>>> sorted(v.data["hands"]), v.data["hand_sizes"]["soviet"]["units"], v.data["mode"]
(['german'], 0, 'lines')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError
from ..game.view import HIDDEN_CARD, View
from .mode_base import ModeBase

if TYPE_CHECKING:  # pragma: no cover
    from ..lines.scenario import LinesScenario
    from ..lines.state import LinesState

__all__ = [
    "LINES_VIEW_VERSION",
    "lines_view",
    "lines_event_for",
    "lines_state_from_view",
    "LinesViewPlayer",
    "LinesMode",
]

LINES_VIEW_VERSION = 1
_SEATS = ("german", "soviet")  # the 2-player game; the team game needs more seats (a protocol step)


def _is_unit_card(card: str) -> bool:
    from ..rules.cards import card_id_of, default_cards

    try:
        default_cards().unit(card_id_of(card))
    except Exception:  # a Command or Event card
        return False
    return True


def lines_event_for(ev: Any, seat: str | None) -> dict[str, Any]:
    """The JSON of lines event ``ev`` as ``seat`` (``None``: a spectator) may see it (R12.1).

    Args:
        ev: a :class:`~hexwar.lines.events.LinesEvent` or a roll of the game's log.
        seat: the seat looking, or ``None``.

    Returns:
        ``{"kind", "text", "data"}`` with what the seat may not know replaced (see the module
        docstring); every event is listed (on lines nothing happens out of sight).
    """
    from ..game.events import event_to_json

    j = event_to_json(ev)
    kind, data = j["kind"], j["data"]
    who = data.get("seat")
    other = who is not None and who != seat
    if kind == "setup" and "seed" in data:  # the seed decides every die: it never leaves the server (R12.5)
        return {
            "kind": kind,
            "text": re.sub(r"seed \d+", "seed hidden", j["text"]),
            "data": {k: v for k, v in data.items() if k != "seed"},
        }
    if kind == "roll":
        if data.get("dice") == "shuffle":
            return {"kind": kind, "text": j["text"], "data": {k: v for k, v in data.items() if k != "faces"}}
        purpose = str(data.get("purpose", ""))
        m = re.match(r"^(german|soviet)\S* Reserves deck card", purpose)
        if m and m.group(1) != seat:
            return {
                "kind": kind,
                "text": f"{m.group(1)} draws a card for its Reserves deck",
                "data": {"purpose": f"{m.group(1)} Reserves deck card", "dice": "hidden"},
            }
        return j
    if not other:
        return j
    if kind == "choose_hand":
        n = len(data.get("cards", ()))
        return {
            "kind": kind,
            "text": f"{who} takes {n} unit cards into hand",
            "data": {"seat": who, "cards": n},
        }
    if kind == "draw":
        n = len(data.get("drawn", ()))
        return {
            "kind": kind,
            "text": f"{who} draws {n} cards",
            "data": {"seat": who, "sources": data.get("sources", []), "drawn": n},
        }
    if kind == "reserves":
        return {
            "kind": kind,
            "text": f"{who} takes a unit card from the Reserves deck",
            "data": {"seat": who},
        }
    if kind == "discard" and _is_unit_card(str(data.get("card", ""))):
        return {
            "kind": kind,
            "text": f"{who} puts a unit card back under its Reserves deck",
            "data": {"seat": who},
        }
    return j


def lines_view(state: LinesState, seat: str | None, log_from: int = 0) -> View:
    """The view of a lines game for ``seat`` (``None``: a spectator) (R12.1).

    Args:
        state: the full game (server side, or a local game).
        seat: ``"german"``, ``"soviet"`` or ``None``.
        log_from: the first log index to include.

    Returns:
        a :class:`~hexwar.game.view.View` whose ``data`` has ``version``, ``mode``
        (``"lines"``), ``scenario``, ``scenario_hash``, ``variants``, ``side``, ``seats``,
        ``turn``, ``phase``, ``to_act``, ``order``, ``done``, ``units``, ``lines``, ``hands``
        (own only), ``hand_sizes``, ``reserves`` (own contents, sorted), ``decks`` (sizes),
        ``damage_deck`` (contents, sorted), ``command_discard``, ``events_in_play``,
        ``event_turns``, ``damage_discard``, ``removed``, ``pending`` (own), ``hidden`` (own
        commitments set aside, 001) and ``hidden_count``, ``attacks``, ``resolve_turn``,
        ``drawn``, ``kills``, ``vp``, ``targets``, ``overrun``, ``collapse``, ``moved``,
        ``result``, ``commands``.

    Raises:
        HexwarError: for a seat the game does not have.
    """
    if seat is not None and seat not in state.seats:
        raise HexwarError(f"unknown seat {seat!r}; this game's seats are {state.seats} (None: a spectator)")
    snap = state.snapshot()
    sc = state.scenario
    data: dict[str, Any] = {
        "version": LINES_VIEW_VERSION,
        "mode": "lines",
        "scenario": sc.id,
        "scenario_hash": sc.content_hash,
        "variants": list(state.variants),
        "side": seat,
        "seats": list(state.seats),
        "turn": snap["turn"],
        "phase": snap["phase"],
        "to_act": snap["to_act"],
        "order": snap["order"],
        "done": snap["done"],
        "units": snap["units"],
        "lines": snap["lines"],
        "hands": (
            {seat: {"units": list(state.hand_units[seat]), "commands": list(state.hand_commands[seat])}}
            if seat is not None
            else {}
        ),
        "hand_sizes": {
            s: {"units": len(state.hand_units[s]), "commands": len(state.hand_commands[s])}
            for s in state.seats
        },
        "reserves": {seat: sorted(state.reserves[seat])} if seat is not None else {},
        "decks": {
            "reserves": {s: len(state.reserves[s]) for s in state.seats},
            "command": len(state.command_deck),
            "damage": len(state.damage_deck),
        },
        "damage_deck": sorted(state.damage_deck),
        "command_discard": snap["command_discard"],
        "events_in_play": snap["events_in_play"],
        "event_turns": snap["event_turns"],
        "damage_discard": snap["damage_discard"],
        "removed": snap["removed"],
        "pending": {seat: snap["pending"].get(seat, {})} if seat is not None else {},
        "hidden": [c.to_json() for c in state.hidden if c.seat == seat],
        "hidden_count": len(state.hidden),
        "attacks": snap["attacks"],
        "resolve_turn": snap["resolve_turn"],
        "drawn": snap["drawn"],
        "kills": snap["kills"],
        "vp": snap["vp"],
        "targets": sc.victory_points_for(state),
        "overrun": snap["overrun"],
        "collapse": snap["collapse"],
        "moved": snap["moved"],
        "result": snap["result"],
        "commands": len(state.commands),
    }
    log = [lines_event_for(state.log[i], seat) for i in range(log_from, len(state.log))]
    return View(seat, data, log)


def lines_state_from_view(data: dict[str, Any], scenario: LinesScenario) -> LinesState:
    """A :class:`~hexwar.lines.state.LinesState` holding exactly what a lines view says.

    The other seat's hand is empty, decks of unknown order are placeholders
    (``"hidden_command#N"``), the own Reserves deck is in sorted order, the dice are a dummy:
    it is for the rules code to read (legal commands, odds), never to be applied to.

    Args:
        data: :attr:`View.data <hexwar.game.view.View.data>` of :func:`lines_view`.
        scenario: the scenario the view names (its ``content_hash`` must match).

    Raises:
        HexwarError: when the scenario does not match or the data is malformed.
    """
    from ..game.outcome import GameResult, Kill
    from ..lines.commands import command_from_json
    from ..lines.state import LinesState
    from ..rules.dice import Dice

    if data.get("scenario_hash") != scenario.content_hash:
        raise HexwarError(
            f"the view is of line scenario {data.get('scenario')!r} with content hash "
            f"{str(data.get('scenario_hash'))[:12]}..., not {scenario.id!r}"
        )
    try:
        seats = tuple(data["seats"])
        hands = data["hands"]

        def placeholders(n: int, tag: str) -> list[str]:
            return [f"{HIDDEN_CARD}_{tag}#{i + 1}" for i in range(n)]

        units = {j["uid"]: _line_unit_from_view(j) for j in data["units"]}
        attacks = {int(a["number"]): _line_attack_from_view(a) for a in data["attacks"]}
        res = data["result"]
        result = (
            GameResult(
                res["winner"], res["reason"], res["turn"], dict(res["score"]), dict(res["objective_points"])
            )
            if res
            else None
        )
        st = LinesState(
            scenario=scenario,
            dice=Dice(0),
            seed=0,
            variants=tuple(data["variants"]),
            seats=seats,
            turn=int(data["turn"]),
            phase=data["phase"],
            to_act=data["to_act"],
            order=list(data["order"]),
            done=set(data["done"]),
            units=units,
            lines={s: {n: list(v) for n, v in d.items()} for s, d in data["lines"].items()},
            reserves={
                s: (
                    list(data["reserves"][s])
                    if s in data["reserves"]
                    else placeholders(int(data["decks"]["reserves"][s]), f"reserves_{s}")
                )
                for s in seats
            },
            hand_units={s: list(hands[s]["units"]) if s in hands else [] for s in seats},
            hand_commands={s: list(hands[s]["commands"]) if s in hands else [] for s in seats},
            command_deck=placeholders(int(data["decks"]["command"]), "command"),
            command_discard=list(data["command_discard"]),
            events_in_play=list(data["events_in_play"]),
            event_turns=dict(data["event_turns"]),
            damage_deck=list(data["damage_deck"]),
            damage_discard=list(data["damage_discard"]),
            removed=list(data["removed"]),
            pending={s: dict(data["pending"].get(s, {})) for s in seats},
            hidden=[command_from_json(c, "view.hidden") for c in data["hidden"]],
            attacks=attacks,
            resolve_turn=data["resolve_turn"],
            drawn=set(data["drawn"]),
            kills=[Kill(k["scorer"], k["uid"], k["kind"], k["points"], k["turn"]) for k in data["kills"]],
            vp=dict(data["vp"]),
            overrun=dict(data["overrun"]),
            collapse=set(data["collapse"]),
            moved=set(data["moved"]),
            result=result,
        )
        return st
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise HexwarError(f"malformed lines view data: {type(exc).__name__}: {exc}") from None


def _line_unit_from_view(j: dict[str, Any]) -> Any:
    """One :class:`~hexwar.lines.state.LineUnit` of a lines view (R11.1)."""
    from ..lines.state import LineUnit

    return LineUnit(
        uid=j["uid"],
        owner=j["owner"],
        side=j["side"],
        seat=j["seat"],
        line=j["line"],
        endurance=int(j["endurance"]),
        crew=j["crew"],
        crewing=j["crewing"],
        damage_card=j["damage_card"],
        damage_turns=j["damage_turns"],
        command_cards=list(j["command_cards"]),
        bombs_used=tuple(j["bombs_used"]),
        flight_turns=int(j["flight_turns"]),
        entered=int(j["entered"]),
        captured=bool(j["captured"]),
    )


def _line_attack_from_view(a: dict[str, Any]) -> Any:
    """One declared :class:`~hexwar.lines.state.LineAttack` of a lines view (R11.1)."""
    from ..lines.state import LineAttack

    return LineAttack(
        number=int(a["number"]),
        seat=a["seat"],
        attackers=tuple(a["attackers"]),
        target=a["target"],
        weapons=tuple(a["weapons"]),
        at_crew=a["at_crew"],
        close_assault=a["close_assault"],
        resolved=a["resolved"],
        command_cards=list(a["command_cards"]),
    )


class LinesViewPlayer:
    """A lines computer player that decides from its seat's view only (R12.1).

    Args:
        inner: the player (:func:`hexwar.lines.players.make_lines_player`), with ``choose(state)``.
    """

    def __init__(self, inner: Any):
        self.inner = inner
        self.seat = self.side = inner.seat
        self.name = inner.name

    def choose_from_view(self, data: dict[str, Any], scenario: LinesScenario) -> Any:
        """The inner player's command on the state rebuilt from view ``data``."""
        return self.inner.choose(lines_state_from_view(data, scenario))

    def choose(self, state: LinesState) -> Any:
        """Decide for ``state`` through this seat's view of it."""
        return self.choose_from_view(lines_view(state, self.seat).data, state.scenario)


class LinesMode(ModeBase):
    """The card game on lines (R11.1) as a :class:`~hexwar.net.modes.GameMode` (2-player scenarios)."""

    name: str = "lines"
    seats: tuple[str, ...] = _SEATS

    def new_game(self, scenario: str, fog: bool, seed: int) -> Any:
        """A new lines game of a line scenario (shipped name or ``.toml`` path).

        Raises:
            HexwarError: for a hex scenario, the 4-player team game, or fog (lines have no map).
        """
        from pathlib import Path

        from ..game.scenario import find_scenario, load_scenario

        p = Path(scenario)
        sc: Any = load_scenario(p if p.suffix == ".toml" and p.exists() else find_scenario(scenario))
        if getattr(sc, "mode", "hex") != "lines":
            raise HexwarError(f'{scenario}: a hex scenario, not a line scenario (mode "hex")')
        if sc.players != 2:
            raise HexwarError(
                f"{scenario}: the {sc.players}-player team game needs more seats than protocol 1 has"
            )
        if fog:
            raise HexwarError("--fog is for the hex game: on lines every unit in play is in sight (R11.1)")
        return sc.new_game(seed=seed)

    def apply_json(self, game: Any, seat: str, command: dict[str, Any]) -> int:
        """Check a lines command (``{"cmd", "seat", ...}``) as local play does and apply it.

        Raises:
            CommandFormatError: a malformed command; IllegalCommand: another seat's (R12.5)
            or refused by the rules.
        """
        from ..lines.commands import command_from_json

        cmd = command_from_json(command, "command")
        return self._checked_apply(game, cmd, cmd.seat, seat)

    def view(self, game: Any, seat: str | None, log_from: int = 0) -> View:
        """:func:`lines_view`."""
        return lines_view(game, seat, log_from)

    def events(self, game: Any, seat: str | None, start: int) -> list[dict[str, Any]]:
        """The events from ``start`` on as ``seat`` may see them."""
        return [lines_event_for(game.log[i], seat) for i in range(start, len(game.log))]

    def rebuild(self, data: dict[str, Any], defs: Any) -> Any:
        """:func:`lines_state_from_view`."""
        return lines_state_from_view(data, defs)

    def make_player(self, seat: str, name: str, seed: int) -> LinesViewPlayer:
        """A lines computer player deciding from the view."""
        from ..lines.players import make_lines_player

        return LinesViewPlayer(make_lines_player(name, seat, seed))

    def fallback(self, seat: str) -> Any:
        """End the phase (after a refusal)."""
        from ..lines.commands import EndPhase

        return EndPhase(seat)
