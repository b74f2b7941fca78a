"""What one side may know of a game: sighting under fog of war and the view function (R12.1, R12.2).

:func:`view` is the ONE function that gives a side's view of a game: the units it may see
(its own, and enemy units seen under fog, R12.2), last-known markers of enemy units that left
sight (with the turn they were seen), its own hand, every deck's size (never an order, R12.1),
the public scoreboard and map overlays, the declared attacks it can see, and the log lines it
may see. ``view(state, None)`` is the spectator's view: only what *both* sides may see.

The window, the terminal game, the computer player (through :class:`ViewPlayer`) and the
network server (:mod:`hexwar.net`) all use it. A client that has only a view rebuilds a
playable :class:`~hexwar.game.state.GameState` from it with :func:`state_from_view`: the same
rules code then lists its legal commands, reach and targets, and nothing it could not see is
in that state (hidden enemy units are absent, the other hand is empty, deck orders are
unknown placeholders, the dice are a dummy: the server rolls every die, R12.5).

Sighting (R12.2, option ``fog``): a side sees an enemy ground unit while at least one of its
own ground units on the map (crews and aircraft do not spot, docs/rules.md) has LOS, clear or
hindered (R3), to the unit's hex; adjacent units are always seen (R3.1: a hex sees its
neighbours); aircraft aloft are seen by both sides. Sight is taken after every command
(:func:`after_command`): an enemy unit that was seen and no longer is leaves a last-known
marker ``(hex, turn, card)`` in :attr:`GameState.last_seen`.

Without fog every unit on the map is seen; hands and deck orders stay hidden all the same.

>>> from hexwar.game.scenario import find_scenario, load_scenario
>>> st = load_scenario(find_scenario("skirmish")).new_game(7)
>>> v = view(st, "german")
>>> sorted(v.data["hands"]) == ["german"] and "soviet" in v.data["hand_sizes"]
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError
from ..rules.dice import Dice
from . import ruleset
from .commands import SIDES, Command, EndPhase
from .events import GameEvent, event_from_json, event_to_json
from .sight import FOG, event_cuts, event_sides, fog_on, owner_of, seen_mask, seen_units
from .state import Attack, GameResult, GameState, Kill, UnitState
from .turn import STANDARD_TURNS

if TYPE_CHECKING:  # pragma: no cover
    from ..model.maps import BattleMap
    from .scenario import Scenario

__all__ = [
    "FOG",
    "VIEW_VERSION",
    "View",
    "fog_on",
    "seen_mask",
    "seen_units",
    "event_for",
    "event_sides",
    "view",
    "view_hash",
    "state_from_view",
    "ViewPlayer",
    "json_delta",
    "apply_delta",
    "HIDDEN_CARD",
    "HIDDEN_UNIT",
]

VIEW_VERSION = 1
HIDDEN_CARD = "hidden"  # placeholder card id for cards whose identity a side may not know


_POOL_ROLL = re.compile(r"^(german|soviet)\S* (Reserves deck card|reserves pick|reserves crew)")
HIDDEN_UNIT = "hidden"  # what an unseen enemy unit is called where an event must name it (R12.1)


def _hide_names(j: Any, hide: list[str]) -> Any:
    """``j`` (event JSON) with every unseen unit's id (and its card name before it) replaced."""
    if isinstance(j, dict):
        return {k: _hide_names(v, hide) for k, v in j.items()}
    if isinstance(j, list):
        return [_hide_names(v, hide) for v in j]
    if isinstance(j, str):
        if j in hide:
            return HIDDEN_UNIT
        for uid in hide:
            if uid in j:
                name = ruleset.card_name(uid)
                for form in (f"{name} [{uid}]", f"{name} ({uid})", uid):
                    j = j.replace(form, "an unseen unit")
        return j
    return j


def _cut(j: dict[str, Any], cut: dict[str, Any]) -> dict[str, Any] | None:
    """Event JSON ``j`` as a side with ``cut`` (:func:`hexwar.game.sight.event_cuts`) may see it."""
    if cut.get("drop"):
        return None
    if "path" in cut:
        d = j["data"]
        vis = [str(x) for x in cut["path"]]
        uid = str(d.get("unit"))
        who = ruleset.unit_card(uid).side if "#" in uid else "?"
        return {
            "kind": j["kind"],
            "text": f"{who} moves {ruleset.card_name(uid)} ({uid}) {' -> '.join(vis)} (seen in part)",
            "data": {"unit": uid, "from": vis[0], "path": vis[1:], "seen_in_part": True},
        }
    if "hide" in cut:
        return _hide_names(j, list(cut["hide"]))  # type: ignore[no-any-return]
    return j


def event_for(
    ev: GameEvent,
    side: str | None,
    sides: Iterable[str] = SIDES,
    cuts: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The JSON of ``ev`` as ``side`` (``None``: a spectator) may see it, or ``None`` (R12.1).

    ``sides``: who may see it under fog, ``cuts``: what of it a side may not know (both from
    :func:`hexwar.game.sight.after_command`: an enemy move seen in part is cut to the hexes the
    side saw, an unseen enemy unit named beside the side's own is ``"hidden"``). A spectator
    sees an event only when both sides do, cut as the side with a cut sees it. Hidden always:
    the cards a side takes into hand (``"hand"`` events) and the Reserves deck it builds
    (``"deck"`` events) from everyone but that side, the other
    side's Reserves deck draws from its pool (which cards, which dice), the faces of a shuffle
    (the order of a deck, R12.1), which are left out of the roll; and from everyone the game's
    seed in the setup line (it decides every die).
    """
    sides = tuple(sides)
    cuts = cuts or {}
    if side is None:
        if not all(s in sides for s in SIDES):
            return None
        if len(cuts) > 1:
            return None
        cut = next(iter(cuts.values()), None)
    else:
        if side not in sides:
            return None
        cut = cuts.get(side)
    j = event_to_json(ev)  # the one serializer of game events
    if ev.kind == "hand" and ev.data.get("side") != side:
        j = {
            "kind": "hand",
            "text": f"{ev.data.get('side')} takes {len(ev.data.get('cards', []))} unit cards into hand",
            "data": {"side": ev.data.get("side"), "cards": len(ev.data.get("cards", []))},
        }
    elif ev.kind == "deck" and ev.data.get("side") != side:
        j = {  # a built Reserves deck is its side's secret (R12.1): only its size, public anyway
            "kind": "deck",
            "text": f"{ev.data.get('side')} builds its Reserves deck of {len(ev.data.get('cards', []))} cards",
            "data": {"side": ev.data.get("side"), "cards": len(ev.data.get("cards", []))},
        }
    elif ev.kind == "roll" and ev.data.get("dice") == "shuffle":
        d = {k: v for k, v in ev.data.items() if k != "faces"}
        j = {"kind": "roll", "text": ev.text, "data": d}
    elif (
        ev.kind == "roll" and (m := _POOL_ROLL.match(str(ev.data.get("purpose", "")))) and m.group(1) != side
    ):
        j = {  # the other side's Reserves deck is its secret (R12.1): which cards, which dice
            "kind": "roll",
            "text": f"{m.group(1)} draws a card for its Reserves deck",
            "data": {"purpose": f"{m.group(1)} Reserves deck card", "dice": "hidden"},
        }
    elif (
        ev.kind == "setup" and "seed" in ev.data
    ):  # the seed decides every die: it never leaves the game (R12.5)
        j = {
            "kind": "setup",
            "text": re.sub(r"seed \d+", "seed hidden", ev.text),
            "data": {k: v for k, v in ev.data.items() if k != "seed"},
        }
    elif ev.kind == "reserves" and ev.data.get("side") != side:
        j = {
            "kind": "reserves",
            "text": f"{ev.data.get('side')} takes a unit card from the Reserves deck to commit",
            "data": {"side": ev.data.get("side")},
        }
    return _cut(j, cut) if cut else j


# -- the view (R12.1) ------------------------------------------------------------------------------
@dataclass(frozen=True)
class View:
    """A side's view of a game.

    Attributes:
        side: ``"german"``, ``"soviet"``, or ``None`` for a spectator.
        data: JSON-ready dict of everything the side may know now (see :func:`view`); its
            canonical JSON hash is :func:`view_hash`.
        log: the events it may see, as JSON dicts, in order (the full log stays in the save).
    """

    side: str | None
    data: dict[str, Any]
    log: list[dict[str, Any]]

    @property
    def hash(self) -> str:
        """:func:`view_hash` of :attr:`data`."""
        return view_hash(self.data)


def view_hash(data: dict[str, Any]) -> str:
    """SHA-256 of a view's data as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _visible_to(state: GameState, side: str | None) -> frozenset[str]:
    if side is not None:
        return seen_units(state, side)
    return seen_units(state, SIDES[0]) & seen_units(state, SIDES[1])


def view(
    state: GameState, side: str | None, log_from: int = 0, snapshot: dict[str, Any] | None = None
) -> View:
    """The view of ``state`` for ``side`` (``None``: a spectator) (R12.1, R12.2).

    Args:
        state: the full game (server side, or a local game).
        side: the seat, or ``None`` for what both sides may see.
        log_from: the first log index to include (0: the whole visible log).
        snapshot: ``state.snapshot()`` when the caller has it already (a server building
            several views of one state); never changed.

    Returns:
        a :class:`View`. ``data`` keys: ``version``, ``mode`` (``"hex"``), ``scenario``,
        ``scenario_hash``, ``variants``, ``fog``, ``side``, ``turn``, ``phase``, ``to_act``,
        ``initiative``, ``done``, ``resolve_turn``, ``drawn``, ``vp``, ``kills``,
        ``overrun``, ``objectives``, ``result``, ``events_in_play``, ``event_turns``,
        ``artillery_left``, ``artillery_calls``, ``pending`` (own), ``units`` (visible),
        ``last_known`` (markers: uid, card, side, hex, turn), ``hands`` (own only),
        ``hand_sizes``, ``reserves`` (own contents, sorted: order unknown), ``decks``
        (sizes), ``damage_deck`` (contents sorted), ``command_discard``,
        ``damage_discard``, ``removed``, ``attacks`` (visible), ``map`` (overlays),
        ``commands`` (commands applied so far).

    Raises:
        HexwarError: for an unknown side.
    """
    if side is not None and side not in SIDES:
        raise HexwarError(f"unknown side {side!r}; expected one of {SIDES} or None for a spectator")
    snap = state.snapshot() if snapshot is None else snapshot
    vis = _visible_to(state, side)
    units = [u.to_json() for uid, u in sorted(state.units.items()) if uid in vis]
    last_known = _last_known(state, side, vis)
    sc = state.scenario
    data: dict[str, Any] = {
        "version": VIEW_VERSION,
        "mode": "hex",
        "scenario": sc.id,
        "scenario_hash": sc.content_hash,
        "variants": list(state.variants),
        "fog": fog_on(state),
        "side": side,
        "turn": snap["turn"],
        "phase": snap["phase"],
        "to_act": snap["to_act"],
        "initiative": snap["initiative"],
        "done": snap["done"],
        "resolve_turn": snap["resolve_turn"],
        "drawn": snap["drawn"],
        "vp": snap["vp"],
        "kills": snap["kills"],
        "overrun": snap["overrun"],
        "objectives": snap["objectives"],
        "result": snap["result"],
        "events_in_play": snap["events_in_play"],
        "event_turns": snap["event_turns"],
        "artillery_left": snap["artillery_left"],
        "artillery_calls": snap["artillery_calls"],  # the marker is placed in the open (R9.2)
        "pending": {side: snap["pending"].get(side, {})} if side is not None else {},
        "units": units,
        "last_known": last_known,
        "hands": (
            {side: {"units": list(state.hand_units[side]), "commands": list(state.hand_commands[side])}}
            if side is not None
            else {}
        ),
        "hand_sizes": {
            s: {"units": len(state.hand_units[s]), "commands": len(state.hand_commands[s])} for s in SIDES
        },
        "reserves": {side: sorted(state.reserves[side])} if side is not None else {},
        "decks": {
            "reserves": {s: len(state.reserves[s]) for s in SIDES},
            "command": len(state.command_deck),
            "damage": len(state.damage_deck),
        },
        "damage_deck": sorted(state.damage_deck),
        "command_discard": snap["command_discard"],
        "damage_discard": snap["damage_discard"],
        "removed": snap["removed"],
        "attacks": _visible_attacks(state, side, vis, snap["attacks"]),
        "map": snap["map"],
        "commands": len(state.commands),
    }
    log = []
    for i in range(log_from, len(state.log)):
        j = event_for(state.log[i], side, event_sides(state, i), event_cuts(state, i))
        if j is not None:
            log.append(j)
    return View(side, data, log)


def _last_known(state: GameState, side: str | None, vis: frozenset[str]) -> list[dict[str, Any]]:
    """The markers of units ``side`` does not see now where it last saw them (R12.2); a
    spectator's are what both sides last saw (the older sighting)."""
    if side is None:
        marks: dict[str, tuple[str, int, str]] = {}
        for s in SIDES:
            for uid, m in state.last_seen.get(s, {}).items():
                if uid not in vis and (uid not in marks or m[1] < marks[uid][1]):
                    marks[uid] = m
    else:
        marks = dict(state.last_seen.get(side, {}))
    return [
        {"uid": uid, "card": m[2], "side": owner_of(state, uid), "hex": m[0], "turn": m[1]}
        for uid, m in sorted(marks.items())
        if uid not in vis
    ]


def _visible_attacks(
    state: GameState, side: str | None, vis: frozenset[str], attacks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The declared attacks ``side`` may know of (R12.1): its own, those on its units, and
    those whose every unit it sees; an attack on its unit by a firer it does not see leaves
    the firer unnamed."""

    def visible(a: dict[str, Any]) -> bool:
        if side is not None and a["side"] == side:
            return True
        names = set(a["attackers"]) | ({a["target"]} if a["target"] else set())
        if side is not None and a["target"] and owner_of(state, a["target"]) == side:
            return True
        return all(n in vis for n in names)

    def seen(a: dict[str, Any]) -> dict[str, Any]:
        if side is not None and a["side"] == side:
            return a
        hide = [n for n in a["attackers"] if n not in vis]
        return _hide_names(a, hide) if hide else a  # type: ignore[no-any-return]

    return [seen(a) for a in attacks if visible(a)]


def events_for(state: GameState, side: str | None, start: int) -> list[dict[str, Any]]:
    """The events of ``state.log[start:]`` that ``side`` may see, as JSON (for one command's update)."""
    out = []
    for i in range(start, len(state.log)):
        j = event_for(state.log[i], side, event_sides(state, i), event_cuts(state, i))
        if j is not None:
            out.append(j)
    return out


def seat_events(state: GameState, events: list[GameEvent], side: str | None) -> list[GameEvent]:
    """``events`` (the last entries of ``state.log``, just applied) as ``side`` may read them (R12.1).

    The local window and terminal of a game with one person show its log through this, the same
    :func:`event_for` a network seat gets: under fog only what the side saw (R12.2), cut at the
    last hex seen; always without the other side's Reserves pool draws, the deck orders and the
    seed. An event the side sees whole is returned as the same object (typed payloads kept for the
    window's strike and attack markers); a cut one is rebuilt from its cut JSON, so nothing hidden
    travels in a payload.

    Args:
        state: the game, with ``events`` as the tail of ``state.log``.
        events: the events of one command, in log order.
        side: the person's side, ``"german"`` or ``"soviet"``; ``None``: what every side may read
            (a spectator's log, the hot-seat window's shared log).

    Returns:
        The events the side may read, in order.
    """
    start = len(state.log) - len(events)
    seen: list[GameEvent] = []
    for i, e in enumerate(events):
        j = event_for(e, side, event_sides(state, start + i), event_cuts(state, start + i))
        if j is not None:
            seen.append(e if j == event_to_json(e) else event_from_json(j))
    return seen


__all__ += ["events_for", "seat_events"]


# -- a playable state from a view ---------------------------------------------------------------
def state_from_view(data: dict[str, Any], scenario: Scenario) -> GameState:
    """A :class:`GameState` holding exactly what a view says, for the rules code to read.

    Legal commands, reach, targets and odds of the view's side come from it through the same
    functions as local play. What the side may not know is absent (hidden enemy units, the
    other hand) or a placeholder (decks of unknown order: ``"hidden#N"``; the own Reserves deck
    in sorted order). Its dice are a dummy: it is never to be applied to (the server does).

    Args:
        data: :attr:`View.data`.
        scenario: the scenario the view names (its ``content_hash`` must match).

    Raises:
        HexwarError: when the scenario does not match or the data is malformed.
    """
    if data.get("scenario_hash") != scenario.content_hash:
        raise HexwarError(
            f"the view is of scenario {data.get('scenario')!r} with content hash "
            f"{str(data.get('scenario_hash'))[:12]}..., not {scenario.id!r} ({scenario.content_hash[:12]}...)"
        )
    try:
        bm = _map_from_view(scenario, data["map"])
        side = data["side"]
        units = {j["uid"]: _unit_from_view(j, bm) for j in data["units"]}
        hands = data["hands"]

        def placeholders(n: int, tag: str) -> list[str]:
            return [f"{HIDDEN_CARD}_{tag}#{i + 1}" for i in range(n)]

        reserves = {
            s: (
                list(data["reserves"][s])
                if s in data["reserves"]
                else placeholders(data["decks"]["reserves"][s], s)
            )
            for s in SIDES
        }
        attacks = {int(a["number"]): _attack_from_view(a, bm) for a in data["attacks"]}
        r = data["result"]
        result = None
        if r:
            result = GameResult(
                r["winner"], r["reason"], r["turn"], dict(r["score"]), dict(r["objective_points"])
            )
        pending = {s: dict(data["pending"].get(s, {})) for s in SIDES}
        st = GameState(
            scenario=scenario,
            battlemap=bm,
            dice=Dice(0),
            variants=tuple(data["variants"]),
            seed=0,
            turn=int(data["turn"]),
            phase=data["phase"],
            to_act=data["to_act"],
            initiative=data["initiative"],
            done=set(data["done"]),
            units=units,
            reserves=reserves,
            hand_units={s: list(hands[s]["units"]) if s in hands else [] for s in SIDES},
            hand_commands={s: list(hands[s]["commands"]) if s in hands else [] for s in SIDES},
            command_deck=placeholders(data["decks"]["command"], "command"),
            command_discard=list(data["command_discard"]),
            events_in_play=list(data["events_in_play"]),
            event_turns=dict(data["event_turns"]),
            pending=pending,
            damage_deck=list(data["damage_deck"]),
            damage_discard=list(data["damage_discard"]),
            removed=list(data["removed"]),
            kills=[Kill(k["scorer"], k["uid"], k["kind"], k["points"], k["turn"]) for k in data["kills"]],
            vp=dict(data["vp"]),
            attacks=attacks,
            resolve_turn=data["resolve_turn"],
            artillery_left=dict(data["artillery_left"]),
            artillery_calls=[(c[0], bm.hex_at(c[1]), c[2]) for c in data["artillery_calls"]],
            drawn=set(data["drawn"]),
            overrun=dict(data["overrun"]),
            objective_holders={bm.hex_at(k): v for k, v in data["objectives"].items()},
            result=result,
            engine=STANDARD_TURNS,
        )
        if side is not None:  # the side's last-known markers (R12.2), so its screen draws them
            st.last_seen = {
                side: {m["uid"]: (m["hex"], int(m["turn"]), m["card"]) for m in data.get("last_known", [])}
            }
        st.cache["view_side"] = side
        st.cache["view_commands"] = int(data["commands"])
        return st
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise HexwarError(f"malformed view data: {type(exc).__name__}: {exc}") from None


def _map_from_view(scenario: Scenario, ov: dict[str, Any]) -> BattleMap:
    """The scenario's map with a view's rubble, fires, wrecks and artillery marker (R8, R9.2)."""
    bm = scenario.battlemap.copy()
    for lab in ov["rubble"]:
        h = bm.hex_at(lab)
        bm.rubble[bm.index(h)] = True
    for item in ov["fire"]:
        lab, _, turns = item.partition(":")
        h = bm.hex_at(lab)
        bm.fire[bm.index(h)] = True
        bm.fire_turns[bm.index(h)] = int(turns)
    bm.wrecks = {bm.hex_at(lab): list(s) for lab, s in ov["wrecks"].items()}
    bm.artillery_marker = bm.hex_at(ov["artillery_marker"]) if ov["artillery_marker"] else None
    bm.version += 1
    return bm


def _unit_from_view(j: dict[str, Any], bm: BattleMap) -> UnitState:
    """One unit of a view (hex labels on ``bm``; what it leaves out takes its default)."""
    return UnitState(
        uid=j["uid"],
        owner=j["owner"],
        side=j["side"],
        hex=bm.hex_at(j["hex"]) if j["hex"] else None,
        aloft=bool(j.get("aloft", False)),
        crew=j.get("crew"),
        crewing=j.get("crewing"),
        endurance=int(j["endurance"]),
        damage_card=j.get("damage_card"),
        damage_turns=j.get("damage_turns"),
        immobilized=bool(j.get("immobilized", False)),
        mp_left=float(j.get("mp_left", 0.0)),
        towing=j.get("towing"),
        flight_turns=int(j.get("flight_turns", 0)),
        bombs_used=tuple(j.get("bombs_used", ())),
        command_cards=list(j.get("command_cards", ())),
        entered=int(j.get("entered", 0)),
    )


def _attack_from_view(a: dict[str, Any], bm: BattleMap) -> Attack:
    """One declared attack of a view (R6.1)."""
    return Attack(
        number=int(a["number"]),
        side=a["side"],
        attackers=tuple(a["attackers"]),
        target=a["target"],
        weapons=tuple(a["weapons"]),
        at_crew=a["at_crew"],
        close_assault=a["close_assault"],
        indirect=a["indirect"],
        hindrance=a["hindrance"],
        resolved=a["resolved"],
        command_cards=list(a["command_cards"]),
        building=bm.hex_at(a["building"]) if a["building"] else None,
    )


class ViewPlayer:
    """A computer player that decides from its side's view only (R12.1, R12.2).

    Wraps any player with ``choose(state)``: each decision is made on
    :func:`state_from_view` of :func:`view`, never on the full state, so under fog hidden
    enemy units cannot change what it does. :meth:`choose_from_view` is what a network client
    calls with the view it received.

    Args:
        inner: the player (``make_player("standard", side, seed)``).
    """

    def __init__(self, inner: Any):
        self.inner = inner
        self.side = inner.side
        self.name = inner.name
        self.undoes = getattr(inner, "undoes", True)

    def choose_from_view(self, data: dict[str, Any], scenario: Scenario) -> Command:
        """The inner player's command on the state rebuilt from view ``data``."""
        return self.inner.choose(state_from_view(data, scenario))  # type: ignore[no-any-return]

    def choose(self, state: GameState) -> Command:
        """Decide for ``state`` through this side's view of it (see the class docstring)."""
        return self.choose_from_view(view(state, self.side).data, state.scenario)

    def fallback(self) -> Command:
        """What to do when the full game refuses the chosen command (it hit something unseen): end the phase."""
        return EndPhase(self.side)


# -- JSON deltas for the wire ------------------------------------------------------------------
_DELETE = {"$delete": True}


def json_delta(old: Any, new: Any) -> Any:
    """A delta turning JSON value ``old`` into ``new``: dicts key by key, anything else whole.

    A dict delta is ``{"$set": {key: delta...}, "$del": [keys]}`` relative to the old dict;
    any other value is ``{"$value": new}``. ``apply_delta(old, json_delta(old, new)) == new``.
    """
    if isinstance(old, dict) and isinstance(new, dict):
        sets = {
            k: (json_delta(old[k], v) if k in old else {"$value": v})
            for k, v in new.items()
            if k not in old or old[k] != v
        }
        dels = sorted(k for k in old if k not in new)
        out: dict[str, Any] = {}
        if sets:
            out["$set"] = sets
        if dels:
            out["$del"] = dels
        return out
    return {"$value": new}


def apply_delta(old: Any, delta: Any) -> Any:
    """Apply a :func:`json_delta` to ``old`` (not changed; a new value is returned).

    Raises:
        HexwarError: when the delta does not fit ``old``.
    """
    if not isinstance(delta, dict):
        raise HexwarError("malformed view delta: expected an object")
    if "$value" in delta:
        return copy.deepcopy(delta["$value"])
    if not isinstance(old, dict):
        raise HexwarError("malformed view delta: a key delta for a value that is not an object")
    out = dict(old)
    for k in delta.get("$del", []):
        out.pop(k, None)
    for k, d in delta.get("$set", {}).items():
        out[k] = apply_delta(old.get(k), d)
    return out
