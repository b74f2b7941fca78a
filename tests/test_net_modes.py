"""The card game on lines (R11.1) and the campaign (R11.2) on the same server and client (R12.5).

One real ``hexwar serve`` process hosts a line game and a war (the protocol carries the mode);
two ``hexwar join --ai`` processes play each to the end and reach the state hash of the same
seed played locally by the same players deciding from their views; a spectator watching over
the network never receives a hand; each mode's view hides the other seat's cards (R12.1).
"""

from __future__ import annotations

import asyncio
import json

import pytest
from net_helpers import Procs, free_port, last_json, tokens, wait_all

from hexwar.campaign.ai import make_player as campaign_player
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.lines.players import make_lines_player
from hexwar.net.campaign_mode import CampaignMode, CampaignViewPlayer, campaign_state_from_view, campaign_view
from hexwar.net.lines_mode import LinesMode, LinesViewPlayer, lines_state_from_view, lines_view

pytestmark = pytest.mark.integration

SEED = 7  # the line game's seed; the war's is SEED + 1 (hexwar serve --seed N: N, N+1, ...)


def local_lines(seed: int):
    g = load_scenario(find_scenario("lines")).new_game(seed=seed)
    players = {s: LinesViewPlayer(make_lines_player("standard", s, 0)) for s in g.seats}
    while not g.over:
        g.apply(players[g.to_act].choose(g))
    return g


def local_war(seed: int):
    st = CampaignMode().new_game("campaign", False, seed)
    players = {s: CampaignViewPlayer(campaign_player("standard", s, 0)) for s in ("german", "soviet")}
    while not st.over:
        st.apply(players[st.to_act].choose(st))
    return st


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the module: a line game and a war."""
    tmp = tmp_path_factory.mktemp("modes")
    procs = Procs(tmp)
    folder = tmp / "games"
    port = free_port()
    procs.server(folder, port, "lines", "campaign", "--seed", str(SEED), "--public-seed", "--create-key", "k")
    yield procs, tmp, folder, port, tokens(folder)
    procs.cleanup()


@pytest.fixture(scope="module")
def played(served):
    """Both games played at once (one server, many games): per mode the watcher, its summary and
    the two clients' final JSON."""
    from hexwar.net.client import SeatClient

    procs, tmp, folder, port, toks = served
    runs = {}
    for mode in ("lines", "campaign"):
        gid = next(g for g in toks if g.startswith(mode))
        url = f"ws://127.0.0.1:{port}/{gid}"
        watcher = SeatClient(url, watch=True, out=lambda s: None, give_up=30)
        watcher.keep_messages = True
        cl = [
            procs.client(
                url,
                "--seat",
                s,
                "--token",
                toks[gid][s],
                "--ai",
                "--json",
                "--give-up",
                "30",
                name=f"{mode}-{s}",
            )
            for s in ("german", "soviet")
        ]
        runs[mode] = (gid, watcher, cl)

    async def watch_all():
        return await asyncio.gather(*(asyncio.wait_for(w.run(), 240) for _, w, _ in runs.values()))

    summaries = dict(zip(runs, asyncio.run(watch_all()), strict=True))
    out = {}
    for mode, (gid, watcher, cl) in runs.items():
        wait_all(cl, 60)
        outs = {s: (tmp / f"{mode}-{s}.out").read_text() for s in ("german", "soviet")}
        assert [c.returncode for c in cl] == [0, 0], {s: o[-2000:] for s, o in outs.items()}
        ends = [last_json(tmp / f"{mode}-{s}.out") for s in ("german", "soviet")]
        out[mode] = (folder, gid, watcher, summaries[mode], ends)
    return out


def _spectator_saw_no_hand(watcher):
    from jsonschema import Draft202012Validator

    from hexwar.net.protocol import schema

    server_schema = Draft202012Validator({"$defs": schema()["$defs"], "$ref": "#/$defs/server"})
    assert watcher.hands_seen == [] and len(watcher.received) > 50
    for m in watcher.received:
        assert not list(server_schema.iter_errors(m)), m["type"]  # every mode's messages fit the one schema
        if m["type"] in ("welcome", "snapshot"):
            assert m["view"]["hands"] == {} and m["view"].get("reserves", {}) == {}
        if m["type"] == "update":
            assert "hands" not in m["delta"].get("$set", {}) and "reserves" not in m["delta"].get("$set", {})
        assert '"seed"' not in json.dumps(m)


def test_two_computer_clients_play_a_line_game_over_the_network_to_the_local_hash(played):
    from hexwar.game.save import load_game

    folder, gid, watcher, summary, ends = played["lines"]
    want = local_lines(SEED)
    hs = [lines_view(want, s).hash for s in ("german", "soviet", None)]  # no state hash is sent (R12.1)
    assert [ends[0]["view_hash"], ends[1]["view_hash"], summary["view_hash"]] == hs
    assert ends[0]["result"]["winner"] == want.result.winner and ends[0]["connects"] == 1
    saved = load_game(folder / f"{gid}.save.json")  # the server's save is an ordinary lines save
    assert saved.mode == "lines" and saved.state_hash() == want.state_hash()
    _spectator_saw_no_hand(watcher)
    welcome = watcher.received[0]
    assert welcome["mode"] == "lines" and welcome["view"]["mode"] == "lines"
    for m in watcher.received:  # the cards a seat takes into hand are only counted for others
        for e in m.get("events", []) + m.get("log", []):
            if e["kind"] in ("choose_hand", "draw"):
                assert isinstance(e["data"].get("cards", e["data"].get("drawn")), int), e


def test_two_computer_clients_play_a_war_over_the_network_to_the_local_hash(played):
    from hexwar.campaign.save import load_campaign

    folder, gid, watcher, summary, ends = played["campaign"]
    want = local_war(SEED + 1)
    hs = [campaign_view(want, s).hash for s in ("german", "soviet", None)]  # no state hash is sent
    assert [ends[0]["view_hash"], ends[1]["view_hash"], summary["view_hash"]] == hs
    assert ends[0]["result"]["winner"] == want.winner
    assert load_campaign(folder / f"{gid}.save.json").state_hash() == want.state_hash()
    _spectator_saw_no_hand(watcher)
    assert watcher.received[0]["mode"] == "campaign"
    for m in watcher.received:  # a face-down card is never named to a spectator
        for e in m.get("events", []) + m.get("log", []):
            if e["kind"] == "card_placed":
                assert e["data"]["card"] is None


def test_the_lobby_creates_a_line_game_and_a_war_and_refuses_a_mode_that_does_not_fit(served):
    from websockets.asyncio.client import connect

    _, _, _, port, _ = served

    async def talk():
        out = []
        async with connect(f"ws://127.0.0.1:{port}/") as ws:
            for m in (
                {"type": "create", "scenario": "lines_kharkov", "key": "k"},
                {"type": "create", "scenario": "campaign-advanced", "key": "k"},
                {"type": "create", "scenario": "skirmish", "mode": "lines", "key": "k"},
                {"type": "create", "scenario": "lines-4p", "key": "k"},
                {"type": "create", "scenario": "lines", "fog": True, "key": "k"},
                {"type": "list"},
            ):
                await ws.send(json.dumps(m))
                out.append(json.loads(await ws.recv()))
        return out

    a, b, c, d, e, listing = asyncio.run(talk())
    assert a["type"] == "created" and a["mode"] == "lines" and set(a["tokens"]) == {"german", "soviet"}
    assert b["type"] == "created" and b["mode"] == "campaign"
    assert [x["code"] for x in (c, d, e)] == ["bad_message"] * 3
    assert "hex scenario" in c["message"] and "team game" in d["message"] and "fog" in e["message"]
    modes = {g["game"]: g["mode"] for g in listing["games"]}
    assert modes[a["game"]] == "lines" and modes[b["game"]] == "campaign"
    assert "campaign" in listing["scenarios"] and "lines" in listing["scenarios"]


def _ids(obj) -> set[str]:
    text = json.dumps(obj)
    return {w for w in text.replace('"', " ").replace(",", " ").split() if "#" in w}


def test_a_line_seat_view_never_names_a_card_in_the_other_hand_or_deck_and_rebuilds_the_same_choices():
    sc = load_scenario(find_scenario("lines"))
    g = sc.new_game(seed=11)
    players = {s: make_lines_player("standard", s, 4) for s in g.seats}
    steps = 0
    shown: set[str] = set()  # cards that were on the table or in a discard pile: public from then on
    while not g.over:
        shown |= set(g.units) | set(g.command_discard) | set(g.damage_discard) | set(g.removed)
        for s, o in (("german", "soviet"), ("soviet", "german")):
            v = lines_view(g, s)
            secret = (
                set(g.hand_units[o]) | set(g.hand_commands[o]) | set(g.reserves[o]) | set(g.command_deck)
            ) - shown
            seen = secret & _ids([v.data, v.log])
            assert not seen, f"step {steps}: {s} sees {sorted(seen)[:3]}"
        s = g.to_act
        rebuilt = lines_state_from_view(lines_view(g, s).data, sc)
        assert [str(c) for c in rebuilt.legal_commands(s)] == [str(c) for c in g.legal_commands(s)], steps
        g.apply(players[s].choose(g))
        steps += 1
    assert steps > 50


def test_a_war_view_is_the_same_whichever_unrevealed_card_lies_face_down():
    """The other side's face-down battle card is hidden: exchanging it for another card it has
    not revealed leaves the view unchanged (only its own side's view changes)."""
    st = CampaignMode().new_game("campaign", False, 3)
    players = {s: campaign_player("standard", s, 0) for s in ("german", "soviet")}
    checked = 0
    while not st.over:
        for side, opp in (("german", "soviet"), ("soviet", "german")):
            if st.slots[opp] is not None and st.hands[opp]:
                before = campaign_view(st, side).data
                mine_before = campaign_view(st, opp).data
                i = 0
                st.slots[opp], st.hands[opp][i] = st.hands[opp][i], st.slots[opp]
                assert campaign_view(st, side).data == before
                assert campaign_view(st, None).data == campaign_view(st, None).data
                assert campaign_view(st, opp).data != mine_before
                st.slots[opp], st.hands[opp][i] = st.hands[opp][i], st.slots[opp]
                checked += 1
        s = st.to_act
        rebuilt = campaign_state_from_view(campaign_view(st, s).data, st.cards)
        assert [str(c) for c in rebuilt.legal_commands(s)] == [str(c) for c in st.legal_commands(s)]
        assert players[s].choose(rebuilt) == players[s].choose(st)  # it decides from the view alone
        st.apply(players[s].choose(st))
    assert checked > 30


def test_the_line_mode_refuses_another_seats_command():
    from hexwar.game.commands import IllegalCommand
    from hexwar.lines.commands import EndPhase

    m = LinesMode()
    g = m.new_game("lines", False, 2)
    with pytest.raises(IllegalCommand, match="R12.5"):
        m.apply_json(g, "soviet", EndPhase("german").to_json())
    assert m.seq(g) == 0


@pytest.mark.parametrize("mode", ["lines", "campaign"])
def test_a_person_at_the_terminal_gets_the_legal_commands_of_the_seat_view_in_every_mode(mode):
    """``hexwar join --headless`` on a line game or a war: the numbered commands are those of
    the state rebuilt from the seat's view, and the number typed is the command sent."""
    from types import SimpleNamespace

    from hexwar.net.client import TerminalPolicy
    from hexwar.net.modes import mode_adapter

    adapter = mode_adapter(mode)
    game = adapter.new_game("lines" if mode == "lines" else "campaign", False, 9)
    seat = adapter.to_act(game)
    data = adapter.view(game, seat).data
    defs = game.scenario if mode == "lines" else game.cards
    lines: list[str] = []
    pol = TerminalPolicy(seat, ask=lambda prompt: "1", out=lines.append)
    client = SimpleNamespace(view=data, scenario=defs, adapter=adapter)
    cmd = asyncio.run(pol.decide(client))
    legal = game.legal_commands(seat)
    assert cmd == legal[1] and game.check(cmd) is None
    assert lines[0].startswith(f"\n{seat}, ") and lines[0].endswith("choose a command")
    assert lines[1] == f"    0  {legal[0]}"


def test_join_headless_in_the_hex_game_is_play_headless_s_menu():
    """Issue 36: ``hexwar join --headless`` numbered every hex (a line each) where
    ``hexwar play --headless`` groups runs of hexes as ``LETTER HEX`` and offers ``odds``,
    ``inspect`` and ``undo``; both now read :func:`hexwar.game.terminal.read_choice`."""
    from types import SimpleNamespace

    from game_helpers import advance_to

    from hexwar.game.commands import Move
    from hexwar.game.state import Phase
    from hexwar.net.client import TerminalPolicy
    from hexwar.net.modes import mode_adapter

    adapter = mode_adapter("hex")
    game = adapter.new_game("skirmish", False, 9)
    advance_to(game, Phase.MOVEMENT)
    seat = adapter.to_act(game)
    data = adapter.view(game, seat).data
    moves = [c for c in game.legal_commands(seat) if isinstance(c, Move)]
    assert len(moves) >= 7
    dest = game.hex_label(moves[3].path[-1])
    answers = iter(["inspect " + dest, "a ZZ99", f"a {dest}"])
    lines: list[str] = []

    def ask(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:  # the answers ran out: the end of input
            raise EOFError from None

    pol = TerminalPolicy(seat, ask=ask, out=lines.append)
    client = SimpleNamespace(view=data, scenario=game.scenario, adapter=adapter)
    cmd = asyncio.run(pol.decide(client))
    assert cmd == moves[3] and game.check(cmd) is None
    menu = [ln for ln in lines if ln.startswith("    a  move ")]
    assert len(menu) == 1 and f"{len(moves)} hexes, type `a HEX`" in menu[0]
    # the briefing and what wins come first, once, as at play --headless (R10)
    assert lines[0].startswith(f"\n== {game.scenario.name} ==") and "victory points" in lines[0]
    del lines[0]  # in place: the policy's ``out`` appends to this very list
    assert len(lines) < 10  # one line for the run of hexes, not one a hex
    assert any(ln.startswith(dest) for ln in lines)  # inspect answered: the hex in words
    assert any("give one of these hexes" in ln for ln in lines)  # a hex not in the group asks again
    lines.clear()
    answers = iter([f"a {dest}"])
    asyncio.run(pol.decide(client))
    assert any(ln.startswith("    a  move ") for ln in lines)  # the second menu was printed here
    assert not any("==" in ln for ln in lines)  # told once


def test_join_s_result_line_reads_as_the_local_terminal_s():
    """``hexwar join`` ends with the line the same game's local terminal prints: a hex game's
    hold victory named as one (R10.2) with the objective points (it was "soviet (objectives)"),
    a line game's result, a war's fields, and no empty ``state hash`` (the server sends none of
    a game with hidden state, R12.1)."""
    from hexwar.cli.net import result_line

    hold = {
        "winner": "soviet",
        "reason": "objectives",
        "turn": 1,
        "score": {"german": 18, "soviet": 6},
        "objective_points": {"german": 0, "soviet": 30},
    }
    assert result_line({"result": hold, "state_hash": ""}) == (
        "Result: soviet wins by holding every objective at the end of turn 1 (R10.2): german 18, "
        "soviet 6; objective points german 0, soviet 30"
    )
    points = {"winner": "german", "reason": "points", "turn": 3, "score": {"german": 55, "soviet": 0}}
    assert result_line({"result": points, "state_hash": "ab12"}) == (
        "Result: german wins by points in turn 3: german 55, soviet 0; state hash ab12"
    )
    war = {"winner": "german", "reason": "capital taken", "turn": 1943}  # the campaign view's
    assert result_line({"result": war, "state_hash": ""}) == "Result: german (capital taken) in turn 1943"
    assert result_line({"result": None, "state_hash": ""}) == "Result: unfinished"
    odd = {"winner": None, "reason": "x", "turn": "late", "score": {}}  # a turn that is no number
    assert result_line({"result": odd, "state_hash": ""}) == "Result: draw (x) in turn late"
