"""Non-interference (R12.1): what a seat receives depends on its view alone, in all three modes.

For each seeded game, two copies are hosted in one in-process :class:`GameServer`: ``A`` as
played, and ``B`` where only what the observing seat may not know is changed (the other side's
Reserves deck order, hand and deck orders, the seed of every future roll; in the fogged hex
game also the places of two enemy units the seat does not see, which swaps their identities).
The commands of ``A`` are replayed on both. Every message the server sends the seat (the exact
bytes of welcome and updates: events, view delta, view hash, legal commands) must be identical
until the first command after which the rules make a difference visible: the seat's
*projection* (written here from the raw state, not with the view functions under test: the
public table, the seat's own cards, and the enemy units its units see by the sight rule)
differs, or the other side's command cannot be replayed (the hidden change altered what that
side may do). A planted leak (the other side's Reserves pool draws shown, or a hand event
unredacted) is caught by the same check.

Default run: a few games per mode; ``-m slow``: 100 games per mode. A failure prints the seed.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from net_helpers import SMALL

from hexwar.net.server import Conn, GameServer

SIDES = ("german", "soviet")


class FakeWs:
    """Stands in for a socket: messages are read from the connection's queue."""


def _drain(conn: Conn) -> list[str]:
    out = []
    while not conn.out.empty():
        t = conn.out.get_nowait()
        if t is not None:
            out.append(t)
    return out


def _other(seat: str) -> str:
    return "soviet" if seat == "german" else "german"


# -- projections: what the rules let the seat know, from the raw state ------------------------
_POOL = re.compile(r"^(german|soviet)\S* (Reserves deck card|reserves pick|reserves crew)")


def _rolls(st) -> list:
    """Every roll made in the open so far (not a shuffle, not a Reserves pool draw): more than
    a seat may see under fog, so a projection holding them stops the comparison early, never
    late."""
    from hexwar.game.events import event_to_json

    out = []
    for e in st.log:
        j = event_to_json(e)
        if j["kind"] == "roll" and j["data"].get("dice") != "shuffle":
            if not _POOL.match(str(j["data"].get("purpose", ""))):
                out.append(j["data"])
    return out


def _campaign_draws(st) -> list:
    from hexwar.campaign.events import event_to_json

    out = []
    for e in st.log:
        j = event_to_json(e)
        if j["kind"] == "random_draw" and "event" not in str(j.get("purpose", "")):
            out.append(j)
    return out


def _hex_projection(st, seat):
    from hexwar.game.sight import seen_units

    snap = st.snapshot()
    seen = seen_units(st, seat)
    units = [u for u in snap["units"] if u["uid"] in seen]
    public = {
        k: snap[k]
        for k in (
            "turn",
            "phase",
            "to_act",
            "initiative",
            "done",
            "resolve_turn",
            "drawn",
            "vp",
            "kills",
            "overrun",
            "objectives",
            "result",
            "events_in_play",
            "event_turns",
            "artillery_left",
            "artillery_calls",
            "command_discard",
            "damage_discard",
            "removed",
            "map",
            "attacks",
        )
    }
    return {
        **public,
        "units": units,
        "last_seen": snap.get("last_seen", {}).get(seat, {}),
        "own": [snap["hand_units"][seat], snap["hand_commands"][seat], sorted(snap["reserves"][seat])],
        "own_pending": snap["pending"].get(seat, {}),
        "sizes": {
            s: [len(snap["hand_units"][s]), len(snap["hand_commands"][s]), len(snap["reserves"][s])]
            for s in SIDES
        },
        "decks": [len(snap["command_deck"]), sorted(snap["damage_deck"])],
        "rolls": _rolls(st),
    }


def _lines_projection(st, seat):
    snap = st.snapshot()
    public = {
        k: snap[k]
        for k in (
            "turn",
            "phase",
            "to_act",
            "order",
            "done",
            "units",
            "lines",
            "command_discard",
            "events_in_play",
            "event_turns",
            "damage_discard",
            "removed",
            "attacks",
            "resolve_turn",
            "drawn",
            "kills",
            "vp",
            "overrun",
            "collapse",
            "moved",
            "result",
        )
    }
    return {
        **public,
        "own": [snap["hand_units"][seat], snap["hand_commands"][seat], sorted(snap["reserves"][seat])],
        "own_pending": snap["pending"].get(seat, {}),
        "own_hidden": [c for c in snap["hidden"] if c.get("seat") == seat],
        "hidden_count": len(snap["hidden"]),
        "sizes": {
            s: [len(snap["hand_units"][s]), len(snap["hand_commands"][s]), len(snap["reserves"][s])]
            for s in SIDES
        },
        "decks": [len(snap["command_deck"]), sorted(snap["damage_deck"])],
        "rolls": _rolls(st),
    }


def _campaign_projection(st, seat):
    # the campaign rules' own statement of what a side sees (CampaignState.view) plus its own cards
    return {
        "view": st.view(seat),
        "own": [
            st.slots[seat],
            st.tactic_slots[seat],
            st.tactics_hand[seat],
            st.tactics_aside[seat],
            sorted(st.campaign_unused[seat]),
        ],
        "public": [st.to_act, st.pending(), dict(st.tactics_chosen), dict(st.tactic_decided), st.over],
        "events": [list(st.events_in_play), list(st.events_discard), len(st.event_pile)],
        "draws": _campaign_draws(st),
    }


# -- the hidden changes ----------------------------------------------------------------------
def _perturb_hex(st, seat, rng: random.Random, dice: bool) -> None:
    from hexwar.game.sight import after_setup, seen_units

    other = _other(seat)
    if dice:
        st.dice.rng = np.random.default_rng(rng.randrange(2**32))  # every future roll
        return
    rng.shuffle(st.reserves[other])  # the order of its Reserves deck
    seen = seen_units(st, seat)
    hidden = [
        u
        for u in st.units.values()
        if u.side == other and u.crewing is None and not u.aloft and u.hex is not None and u.uid not in seen
    ]
    if len(hidden) >= 2:  # two unseen enemy units change places (their identities swap)
        a, b = rng.sample(hidden, 2)
        a.hex, b.hex = b.hex, a.hex
        for u in (a, b):
            if u.crew and u.crew in st.units:
                st.units[u.crew].hex = u.hex
        st.battlemap.version += 0
        st.cache.clear()
        after_setup(st)


def _perturb_lines(st, seat, rng: random.Random, dice: bool) -> None:
    if dice:
        st.dice.rng = np.random.default_rng(rng.randrange(2**32))  # every future roll
    else:
        rng.shuffle(st.reserves[_other(seat)])  # the order of its Reserves deck


def _perturb_campaign(st, seat, rng: random.Random, dice: bool) -> None:
    if dice:
        st.rng = np.random.default_rng(rng.randrange(2**32))  # every future draw
    else:
        rng.shuffle(st.event_pile)  # the order of the event pile
        rng.shuffle(st.campaign_unused[_other(seat)])


def _hand_swap(st, seat, rng: random.Random) -> bool:
    """Once the other side holds cards: swap one with one of its Reserves deck (hex, lines)."""
    other = _other(seat)
    hand, res = st.hand_units[other], st.reserves[other]
    if not hand or not res:
        return False
    i, j = rng.randrange(len(hand)), rng.randrange(len(res))
    hand[i], res[j] = res[j], hand[i]
    return True


# -- the games ---------------------------------------------------------------------------------
def _hex_game(seed: int):
    from hexwar.game.ai import make_player
    from hexwar.game.headless import play
    from hexwar.game.scenario import load_scenario
    from hexwar.game.view import ViewPlayer

    sc = load_scenario(SMALL)
    variants = sc.variants + ("fog",)
    players = {s: ViewPlayer(make_player("standard", s, seed)) for s in SIDES}
    done = play(sc, players, seed=seed, variants=variants).state

    def fresh():
        return sc.new_game(seed=seed, variants=variants)

    return done.commands, fresh, lambda side: ViewPlayer(make_player("standard", side, seed))


def _lines_game(seed: int):
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.players import make_lines_player

    sc = load_scenario(find_scenario("lines"))
    st = sc.new_game(seed=seed)
    players = {s: make_lines_player("standard", s, seed) for s in SIDES}
    while not st.over:
        st.apply(players[st.to_act].choose(st))

    def fresh():
        return sc.new_game(seed=seed)

    return st.commands, fresh, lambda side: make_lines_player("standard", side, seed)


def _campaign_game(seed: int):
    from hexwar.campaign.ai import make_player
    from hexwar.campaign.options import CampaignOptions
    from hexwar.campaign.state import new_campaign

    st, _ = new_campaign(seed, CampaignOptions())
    players = {s: make_player("standard", s, seed) for s in SIDES}
    while not st.over:
        st.apply(players[st.to_act].choose(st))

    def fresh():
        w, _ = new_campaign(seed, CampaignOptions())
        w.net_preset = "campaign"
        return w

    return st.commands, fresh, lambda side: make_player("standard", side, seed)


MODES = {
    "hex": (_hex_game, _hex_projection, _perturb_hex, True),
    "lines": (_lines_game, _lines_projection, _perturb_lines, True),
    "campaign": (_campaign_game, _campaign_projection, _perturb_campaign, False),
}


def non_interference(mode: str, seed: int, folder: Path) -> dict:
    """Play game ``seed`` of ``mode``, then compare the bytes the observing seat gets from the
    game as played (A) and from the game with its hidden parts changed (B); see the module
    docstring. Returns ``{"compared": messages compared, "why": what ended the comparison}``.

    Raises:
        AssertionError: naming the seed and the command where the bytes differ first while
            the seat's projections are still equal.
    """
    play, project, perturb, hand_swap = MODES[mode]
    commands, fresh, make_ai = play(seed)
    seat = SIDES[seed % 2]
    b_player = make_ai(_other(seat))  # the other side of B decides for itself, on B
    rng = random.Random(seed * 7919 + 1)
    a, b = fresh(), fresh()
    # one game in three each: the seed of future rolls; a card of the other hand swapped with
    # one of its Reserves deck once it holds cards; its Reserves deck order (and, fogged hex
    # game, two unseen enemy units' places)
    dice, swap = seed % 3 == 0, seed % 3 == 1
    if not swap:
        perturb(b, seat, rng, dice)
    conns = []
    rooms = []
    servers = [GameServer(folder / n, log=io.StringIO()) for n in ("a", "b")]  # the same game id
    for srv, g in zip(servers, (a, b), strict=True):
        gid, _ = srv.create_game("", mode=mode, game=g)
        room = srv.rooms[gid]
        c = Conn(FakeWs())
        c.room, c.seat = room, seat
        room.conns.add(c)
        room.holders[seat] = c
        conns.append(c)
        rooms.append(room)
    compared = 0
    if project(a, seat) != project(b, seat):
        return {"compared": 0, "why": "visible at the start"}
    for srv, c in zip(servers, conns, strict=True):
        srv._send_snapshot(c, "welcome")
    ma, mb = _drain(conns[0]), _drain(conns[1])
    assert ma == mb, f"seed {seed} ({mode}, {seat}): welcome differs\nA {str(ma)[:1500]}\nB {str(mb)[:1500]}"
    compared += 1
    swapped = not (hand_swap and swap)
    for k, cmd in enumerate(commands):
        side = getattr(cmd, "side", None) or cmd.seat
        if side == seat:  # the seat sends the same command in both games
            cmd_b = cmd
            if b.check(cmd_b) is not None:
                return {"compared": compared, "why": f"the seat's command {k} refused in B"}
        else:  # the other side plays B as its player decides there (its hidden cards differ)
            cmd_b = b_player.choose(b)
            if b.check(cmd_b) is not None and hasattr(b_player, "fallback"):
                cmd_b = b_player.fallback()
        starts = []
        for room, g, c in zip(rooms, (a, b), (cmd, cmd_b), strict=True):
            starts.append(room.mode.apply_json(g, side, c.to_json()))
        if not swapped:
            swapped = _hand_swap(b, seat, rng)
        if project(a, seat) != project(b, seat):
            return {"compared": compared, "why": f"visible after command {k}"}
        for srv, room, start in zip(servers, rooms, starts, strict=True):
            srv._broadcast_update(room, start)
        ma, mb = _drain(conns[0]), _drain(conns[1])
        if ma != mb:
            diff = (
                next((x, y) for x, y in zip(ma, mb, strict=False) if x != y)
                if len(ma) == len(mb)
                else (ma, mb)
            )
            raise AssertionError(
                f"seed {seed} ({mode}, seat {seat}): the bytes differ after command {k} ({cmd}) "
                f"while the projections are equal:\nA {str(diff[0])[:1500]}\nB {str(diff[1])[:1500]}"
            )
        compared += 1
    return {"compared": compared, "why": "game over"}


def _run(mode: str, seeds: range, tmp_path: Path) -> list[dict]:
    out = []
    for seed in seeds:
        print(f"{mode} seed {seed}")
        r = non_interference(mode, seed, tmp_path / f"{mode}-{seed}")
        out.append(r)
    compared = [r["compared"] for r in out]
    print(mode, "messages compared per game:", sum(compared) / len(compared), [r["why"] for r in out][:10])
    return out


@pytest.mark.parametrize("mode", ["hex", "lines", "campaign"])
def test_what_a_seat_receives_depends_only_on_what_it_may_see(mode, tmp_path):
    out = _run(mode, range(1, 7), tmp_path)
    assert sum(r["compared"] for r in out) >= 6 * 3  # the comparison went past the welcome


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hex", "lines", "campaign"])
def test_what_a_seat_receives_depends_only_on_what_it_may_see_over_100_games(mode, tmp_path):
    out = _run(mode, range(100, 200), tmp_path)
    assert len(out) == 100


def test_a_planted_leak_is_caught(tmp_path, monkeypatch):
    """The hex view shows the other side's Reserves pool draws again (the leak of issue 29), and
    the lines view shows the other seat's hand: the check fails on both."""
    import hexwar.game.view as hv
    import hexwar.net.lines_mode as lm

    _perturb_and_check_pool(1, tmp_path / "honest")  # without the leak the welcomes are equal
    monkeypatch.setattr(hv, "_POOL_ROLL", re.compile("^$never"))
    with pytest.raises(AssertionError, match="bytes differ|welcome differs"):
        for seed in range(1, 5):
            _perturb_and_check_pool(seed, tmp_path)
    monkeypatch.undo()
    real = lm.lines_view

    def leaky(state, seat, log_from=0):  # the other seat's hand shown in the view
        v = real(state, seat, log_from)
        v.data["hands"] = {
            s: {"units": list(state.hand_units[s]), "commands": list(state.hand_commands[s])}
            for s in state.seats
        }
        return v

    monkeypatch.setattr(lm, "lines_view", leaky)
    with pytest.raises(AssertionError, match="bytes differ"):
        for seed in range(1, 13):
            non_interference("lines", seed, tmp_path / f"leak-{seed}")


def _perturb_and_check_pool(seed: int, tmp_path: Path) -> None:
    """The standard scenario draws each side's Reserves from a pool with the game's dice: a game
    B with another seed for the other side's draws only is told apart at the welcome if those
    draws leak."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.net.server import GameServer

    sc = load_scenario(find_scenario("standard"))
    seat = "german"
    msgs = []
    for variant in (0, 1):
        srv = GameServer(tmp_path / f"pool-{seed}-{variant}", log=io.StringIO())
        g = sc.new_game(seed=seed)
        if variant:  # the soviet deck drawn again with other dice: its draw rolls differ
            _redraw_soviet(g, sc, seed)
        gid, _ = srv.create_game("", mode="hex", game=g)
        room = srv.rooms[gid]
        c = Conn(FakeWs())
        c.room, c.seat = room, seat
        room.conns.add(c)
        srv._send_snapshot(c, "welcome")
        msgs.append(_drain(c))
    assert msgs[0] == msgs[1], f"seed {seed}: welcome differs ({[len(m) for m in msgs]})"


def _redraw_soviet(g, sc, seed: int) -> None:
    """Replace the soviet pool-draw rolls of ``g``'s log by those of another seed (the same
    count of cards): what the german seat may not know changes, nothing else."""
    from hexwar.game.events import event_to_json

    other = sc.new_game(seed=seed + 1000)
    mine = [i for i, e in enumerate(g.log) if _soviet_pool_roll(e)]
    theirs = [e for e in other.log if _soviet_pool_roll(e)]
    for i, e in zip(mine, theirs, strict=False):
        g.log[i] = e
    assert mine and json.dumps(event_to_json(g.log[mine[0]]))


def _soviet_pool_roll(e) -> bool:
    return e.kind == "roll" and str(e.data.get("purpose", "")).startswith("soviet Reserves deck card")


# -- the independent fog check -------------------------------------------------------------------
_UID = re.compile(r"\b([a-z]{2}_[a-z0-9_]+)#(\d+)\b")


def _unit_side(uid: str) -> str | None:
    from hexwar.game import ruleset

    try:
        return ruleset.unit_card(uid.rsplit("#", 1)[0]).side
    except Exception:  # a Command, Damage or Event card
        return None


def _eyes(st, seat: str) -> set:
    from hexwar.game import ruleset

    return {
        u.hex
        for u in st.units.values()
        if u.side == seat
        and u.hex is not None
        and not u.aloft
        and u.crewing is None
        and ruleset.is_ground(u.card)
    }


def _hex_seen(st, eyes, h) -> bool:
    from hexwar.model.los import line_of_sight

    return any(
        e == h or e.distance(h) == 1 or line_of_sight(st.battlemap, e, h).status != "blocked" for e in eyes
    )


def _sees(st, seat: str) -> set[str]:
    """The enemy units ``seat`` sees, by pairwise ``line_of_sight`` (clear or hindered) from each
    of its ground units on the map, or adjacency; aircraft aloft are seen (R12.2), written here
    without the sight module."""
    from hexwar.game import ruleset
    from hexwar.model.los import line_of_sight

    bm = st.battlemap
    eyes = {
        u.hex
        for u in st.units.values()
        if u.side == seat
        and u.hex is not None
        and not u.aloft
        and u.crewing is None
        and ruleset.is_ground(u.card)
    }
    out = set()
    for uid, u in st.units.items():
        if u.side == seat:
            continue
        if u.aloft:
            out.add(uid)
            continue
        if u.hex is None:
            continue
        for e in eyes:
            if e == u.hex or e.distance(u.hex) == 1 or line_of_sight(bm, e, u.hex).status != "blocked":
                out.add(uid)
                break
    return out


def fog_check(seed: int, folder: Path, scenario: str = SMALL) -> int:
    """Play fogged game ``seed`` over an in-process server and check every message to both seats:
    every unit it names is the seat's own, or seen by it (:func:`_sees`) before or after the
    command; a last-known marker names a unit the seat saw earlier; a unit gone from play was
    seen by the seat (or was its own). Returns the number of unit names checked.

    Raises:
        AssertionError: naming the seed, the seat, the command and the unit.
    """
    from hexwar.game.ai import make_player
    from hexwar.game.scenario import load_scenario
    from hexwar.game.view import ViewPlayer

    sc = load_scenario(scenario)
    st = sc.new_game(seed=seed, variants=sc.variants + ("fog",))
    srv = GameServer(folder, log=io.StringIO())
    gid, _ = srv.create_game("", mode="hex", game=st)
    room = srv.rooms[gid]
    conns = {}
    for s in SIDES:
        c = Conn(FakeWs())
        c.room, c.seat = room, s
        room.conns.add(c)
        room.holders[s] = c
        conns[s] = c
        srv._send_snapshot(c, "welcome")
    players = {s: ViewPlayer(make_player("standard", s, seed)) for s in SIDES}
    seen_now = {s: _sees(st, s) for s in SIDES}
    ever = {s: set(seen_now[s]) for s in SIDES}
    checked = 0
    step = -1
    before = {s: set(seen_now[s]) for s in SIDES}
    while True:
        for s in SIDES:
            for text in _drain(conns[s]):
                msg = json.loads(text)
                for m in msg.get("view", {}).get("last_known", []) + [
                    x for x in msg.get("delta", {}).get("$set", {}).get("last_known", {}).get("$value", [])
                ]:
                    assert m["uid"] in ever[s], f"seed {seed}, {s}, after command {step}: marker {m}"
                if "view" in msg:
                    msg["view"]["last_known"] = []
                msg.get("delta", {}).get("$set", {}).pop("last_known", None)
                # the seat's own declared attacks name the target it saw when it declared them
                attacks = msg.get("view", {}).get("attacks") or (
                    msg.get("delta", {}).get("$set", {}).get("attacks", {}).get("$value") or []
                )
                for a in attacks:
                    if a["side"] == s and a["target"]:
                        assert a["target"] in ever[s], f"seed {seed}, {s}: own attack on unseen {a}"
                        a["target"] = None
                # an enemy move is seen on the hexes of its path the seat's units see (they stand
                # still during the other side's move): each hex shown must be one of those
                moving = set()
                for e in msg.get("events", []) + msg.get("log", []):
                    if e["kind"] == "move" and _unit_side(str(e["data"].get("unit"))) not in (s, None):
                        shown = [e["data"]["from"], *e["data"]["path"]]
                        eyes = _eyes(st, s)
                        bad = [h for h in shown if not _hex_seen(st, eyes, st.battlemap.hex_at(h))]
                        assert not bad, f"seed {seed}, {s}, command {step}: move shown on unseen {bad}: {e}"
                        moving.add(e["data"]["unit"])
                for card, n in _UID.findall(json.dumps(msg)):
                    uid = f"{card}#{n}"
                    side = _unit_side(uid)
                    if side is None or side == s:
                        continue
                    checked += 1
                    ok = uid in seen_now[s] or uid in before[s]
                    ok = ok or (uid not in st.units and uid in ever[s]) or (uid in moving and step >= 0)
                    assert ok, (
                        f"seed {seed}: the {s} seat is told of {uid} after command {step} "
                        f"({st.commands[step] if step >= 0 else 'setup'}) without seeing it: "
                        f"{_around(text, uid)}"
                    )
        if st.over or st.turn > 30:
            return checked
        side = st.to_act
        cmd = players[side].choose(st)
        if st.check(cmd) is not None:
            cmd = players[side].fallback()
        before = {s: set(seen_now[s]) for s in SIDES}
        start = room.mode.apply_json(st, side, cmd.to_json())
        step += 1
        seen_now = {s: _sees(st, s) for s in SIDES}
        for s in SIDES:
            ever[s] |= seen_now[s]
        srv._broadcast_update(room, start)


def test_every_unit_named_to_a_seat_is_one_it_sees_independent_check(tmp_path):
    n = 0
    for seed in range(1, 6):
        print(f"fog check seed {seed}")
        n += fog_check(seed, tmp_path / f"fog-{seed}")
    assert n > 50  # enemy units were named, and each was seen


@pytest.mark.slow
def test_every_unit_named_to_a_seat_is_one_it_sees_over_1000_fogged_games(tmp_path):
    n = 0
    for seed in range(1000, 2000):
        n += fog_check(seed, tmp_path / f"fog-{seed}")
    print("enemy unit names checked:", n)


def _around(text: str, uid: str) -> str:
    i = text.find(uid)
    return text[max(0, i - 400) : i + 200]
