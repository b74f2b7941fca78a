"""Whole line games: invariants after every command, saves and replays, the scenario loader."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hexwar.cli import main
from hexwar.game.save import read_save, replay, write_save
from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import LinesAI, RandomLinesPlayer
from hexwar.lines.scenario import LinesScenario
from hexwar.lines.state import check_invariants


def _random_game(name: str, seed: int, variants: tuple[str, ...] | None = None, check: bool = True):
    sc = load_scenario(name)
    st = sc.new_game(seed=seed, variants=variants)
    rng = np.random.default_rng(seed)
    n = 0
    while not st.over and n < 5000:
        cmds = st.legal_commands()
        assert cmds, f"seed {seed}: nobody can act in {st.phase}"
        busy = [c for c in cmds if c.name != "end_phase"]
        pick = busy if busy and rng.random() < 0.85 else cmds
        st.apply(pick[int(rng.integers(len(pick)))])
        n += 1
        if check:
            broken = check_invariants(st)
            assert broken == [], f"seed {seed} {name} {variants}: after {st.commands[-1]}: {broken}"
    assert st.over, f"seed {seed}: no result after {n} commands"
    return st


@pytest.mark.parametrize("i", range(24))
def test_invariants_hold_after_every_command_in_random_line_games(i):
    name, variants = [("lines", None), ("lines-4p", None), ("lines", ("classic",))][i % 3]
    _random_game(name, 1000 + i, variants)


@pytest.mark.slow
def test_invariants_hold_after_every_command_in_500_random_line_games():
    for i in range(500):
        name, variants = [
            ("lines", None),
            ("lines-4p", None),
            ("lines", ("classic",)),
            ("lines-4p", ("classic",)),
        ][i % 4]
        _random_game(name, i, variants)


def test_line_scenarios_load_through_the_common_scenario_loader():
    sc = load_scenario("lines")
    assert isinstance(sc, LinesScenario) and sc.mode == "lines" and sc.players == 2
    assert sc.victory_points == 51
    sc4 = load_scenario("lines-4p")
    assert sc4.players == 4 and sc4.victory_points == 76
    assert sc4.seats == ("german-front", "german-support", "soviet-front", "soviet-support")


def run(capsys, *args):
    rc = main(list(args))
    return rc, capsys.readouterr().out


def test_a_line_save_records_the_mode_and_replays_exactly(tmp_path, capsys):
    st = _random_game("lines", 7, check=False)
    p = tmp_path / "g.json"
    write_save(st, p, {"german": "random", "soviet": "random"})
    data = json.loads(p.read_text())
    assert data["mode"] == "lines"
    again = replay(read_save(p))
    assert again.state_hash() == st.state_hash()
    rc, out = run(capsys, "replay", str(p), "--verify")
    assert rc == 0 and "replays exactly" in out, out
    rc, out = run(capsys, "validate", str(p))
    assert rc == 0, out


def test_a_tampered_line_save_is_reported(tmp_path, capsys):
    st = _random_game("lines-4p", 8, check=False)
    p = tmp_path / "g.json"
    write_save(st, p)
    data = json.loads(p.read_text())
    i = next(k for k, c in enumerate(data["commands"]) if c["cmd"] == "draw")
    data["commands"][i]["extra"] = (
        list(reversed(data["commands"][i]["extra"]))
        if len(set(data["commands"][i]["extra"])) > 1
        else ["reserves" if x == "command" else "command" for x in data["commands"][i]["extra"]]
    )
    p.write_text(json.dumps(data))
    rc, out = run(capsys, "replay", str(p), "--verify")
    assert rc == 1 and "FAIL" in out, out


def _ai_vs_random(seed: int, scenario: str = "lines") -> bool:
    sc = load_scenario(scenario)
    st = sc.new_game(seed=seed)
    ai_side = "german" if seed % 2 == 0 else "soviet"
    players = {
        s: (LinesAI(s, seed) if s.startswith(ai_side) else RandomLinesPlayer(s, seed)) for s in st.seats
    }
    while not st.over:
        st.apply(players[st.to_act].choose(st))
    return st.result.winner == ai_side


def test_the_computer_player_beats_the_random_player():
    wins = sum(_ai_vs_random(s) for s in range(20))
    assert wins >= 17, f"{wins} of 20"


@pytest.mark.slow
def test_the_computer_player_beats_the_random_player_in_90_percent_of_200_games():
    for sc in ("lines", "lines-4p"):
        wins = sum(_ai_vs_random(s, sc) for s in range(200))
        assert wins >= 180, f"{sc}: {wins} of 200"
