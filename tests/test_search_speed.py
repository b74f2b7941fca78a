"""The hard hex player's speed work (issue 31) changes no decision (R1.2: the seed decides
everything), and the memos its sample worlds share are never stale.

* ``PINNED``: the first turn or two of seeded ``hard``-against-``hard`` games on frozen scenario
  files (one under fog of war, R12.2), recorded on main 43ed46e before the change with this
  file's own :func:`record`::

      git archive 43ed46e | tar -x -C /tmp/43ed46e
      PYTHONPATH=/tmp/43ed46e python tests/test_search_speed.py

  Each row: commands played, last turn, the SHA-256 of the command log
  (:func:`hexwar.game.save.commands_hash`), the state hash and the event-log hash (every roll
  and event, :func:`hexwar.game.save.log_hash`).
* The sample worlds of one search decision share targeting memos, units' reach and the standard
  player's threat maps, hex scores and attack odds by content
  (:func:`hexwar.game.targeting.share_memos`): at every command of several worlds played on
  from one position, with one shared dict, each answer equals the one computed on a fresh copy
  of the world (empty cache, a copy of the map, nothing shared).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

HERE = Path(__file__).parent / "data"

#: (scenario file under tests/data, seed, rule variants or None, turns played)
GAMES: tuple[tuple[str, int, tuple[str, ...] | None, int], ...] = (
    ("legacy_e9c3826/skirmish.toml", 2, ("fog",), 2),
    ("games_d8650e7/saur_mogila.toml", 8, None, 1),
    ("legacy_e9c3826/kharkov.toml", 7, None, 1),
)

#: file -> (commands, turn, commands hash, state hash, log hash) on main 43ed46e
PINNED: dict[str, tuple[Any, ...]] = {
    "legacy_e9c3826/skirmish.toml": (
        52,
        3,
        "134f3f09f018441a3dda9ccb6087c0160e6d9beb12653f1a611296bd96222d96",
        "d7af0dbf1df29e12516e4e19a2c07b33c9abaf13d0c7bdf3013a0b7a84e7eb14",
        "8347a96a41b6e2fc095abc370335394bc33116a1f9a7d08ec2e6167a8848e88d",
    ),
    "games_d8650e7/saur_mogila.toml": (
        28,
        2,
        "115573c07e2f36620bef83e44c5fa0f2f4be78dee63d2c842d557897719c8508",
        "960b5a52949014dc5cb800d15975b1ac72c67edbd8233b27d755ffea3e310dea",
        "7db65453162719243975021b3a997bc9170dec33d7cca33300a1dc194aa80706",
    ),
    "legacy_e9c3826/kharkov.toml": (
        51,
        2,
        "c1be18963fc38bff3f82dbfd7f9236452f615a1a84bf4c59079eee84ca36ce21",
        "d45673c7bb38aef4ce06dca4f7e7ac5a3f1ecc6ec5b17d92fefdf9e2207f9336",
        "465edac3106c1e9663cac4106e8d3a51f9b29eed084d71658203f710ac9d0ffe",
    ),
}


def record(name: str, seed: int, variants: tuple[str, ...] | None, turns: int) -> tuple[Any, ...]:
    """Play ``turns`` turns of a seeded hard-against-hard game of ``tests/data/NAME`` (as
    ``hexwar balance`` plays a game, :func:`hexwar.game.headless.play`); one ``PINNED`` row."""
    from hexwar.game.ai import make_player
    from hexwar.game.headless import play
    from hexwar.game.save import commands_hash, log_hash
    from hexwar.game.scenario import load_scenario

    sc = load_scenario(HERE / name)
    players = {s: make_player("hard", s, seed) for s in ("german", "soviet")}
    st = play(sc, players, seed=seed, variants=variants, max_turns=turns).state
    return (len(st.commands), st.turn, commands_hash(st.commands), st.state_hash(), log_hash(st))


def test_the_pinned_hard_games_cover_fog_and_three_scenarios():
    assert set(PINNED) == {g[0] for g in GAMES}
    assert any(g[2] == ("fog",) for g in GAMES)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g[0]).stem)
def test_a_seeded_hard_game_gives_the_commands_and_hashes_pinned_on_43ed46e(game):
    assert record(*game) == PINNED[game[0]], f"seed {game[1]} of {game[0]}"


def _fresh(st: Any) -> Any:
    """A shallow copy of the position with nothing remembered or shared: an empty cache and a
    copy of the map."""
    f = copy.copy(st)
    f.cache = {}
    f.battlemap = st.battlemap.copy()
    return f


def _same_threats(a: dict[str, Any], b: dict[str, Any], units: dict[str, Any]) -> bool:
    """The standard player's threat maps ``a`` equal ``b``, and ``a``'s enemies are the units
    of its own game (``units``), not another world's."""
    if any(not np.array_equal(a[k], b[k]) for k in ("exposure", "take", "hold", "burning_objective")):
        return False
    if a["objective_hexes"] != b["objective_hexes"] or a["to_take"] != b["to_take"]:
        return False
    if (a["posture"].turns_left, a["posture"].lead) != (b["posture"].turns_left, b["posture"].lead):
        return False
    return (
        len(a["sight"]) == len(b["sight"])
        and all(
            x[:4] == y[:4] and np.array_equal(x[4], y[4]) and np.array_equal(x[5], y[5])
            for x, y in zip(a["sight"], b["sight"], strict=True)
        )
        and [e.uid for e in a["enemies"]] == [e.uid for e in b["enemies"]]
        and all(e is units[e.uid] for e in a["enemies"])
    )


@pytest.mark.parametrize(
    "name,seed,variants",
    [("games_d8650e7/saur_mogila.toml", 3, None), ("legacy_e9c3826/ponyri.toml", 4, ("fog",))],
)
def test_memos_shared_by_the_worlds_of_a_decision_equal_fresh_answers(name, seed, variants):
    """Worlds of one position (:func:`hexwar.search.hexgame.determinize_hex`, different hidden
    cards and dice) played on by standard players, all sharing one memo dict as a search's
    worlds do: every legal target, weapon check (R6.1, R7), attack odds (R6) and reach (R5.3)
    of every unit, the listing of legal commands and the standard players' threat maps and hex
    scores equal those of a fresh copy, at every command."""
    from hexwar.game import movement, targeting
    from hexwar.game.ai import StandardPlayer, make_player
    from hexwar.game.scenario import load_scenario
    from hexwar.search.hexgame import determinize_hex

    sc = load_scenario(HERE / name)
    g = sc.new_game(seed=seed, variants=variants)
    players = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
    while not g.over and g.turn < 3:  # a position with units on the map
        g.apply(players[g.to_act].choose(g))
    shared: dict[Any, Any] = {}
    targets = reaches = commands = scores = 0
    for k in range(3):
        w = determinize_hex(g, g.to_act, np.random.default_rng(k))
        targeting.share_memos(w, shared)
        ps = {s: StandardPlayer(s, seed + k) for s in ("german", "soviet")}
        while not w.over and w.turn < 5 and commands < 100 * (k + 1):
            side = w.to_act
            where = f"seed {seed} world {k} turn {w.turn} {w.phase}"
            f = _fresh(w)
            assert w.legal_commands(side) == f.legal_commands(side), where
            for uid in sorted(w.units):
                got = targeting.legal_targets(w, side, uid)
                assert got == targeting.legal_targets(f, side, uid), f"{where} {uid}"
                for tid, at_crew, ok in got:
                    for widx in range(2):
                        assert targeting.weapon_problem(
                            w, uid, tid, widx, at_crew
                        ) == targeting.weapon_problem(f, uid, tid, widx, at_crew), f"{where} {uid} -> {tid}"
                        targets += 1
                    ws = tuple(ok[:2])  # the standard player's odds of firing them (R6)
                    checks = [targeting.weapon_problem(w, uid, tid, i, at_crew) for i in ws]
                    args = (
                        tid,
                        at_crew,
                        ws,
                        max(c[2] for c in checks),
                        any(c[1] == "indirect" for c in checks),
                    )
                    assert ps[side]._odds(w, w.units[uid], *args) == ps[side]._odds(f, f.units[uid], *args), (
                        f"{where} odds {uid} -> {tid}"
                    )
                if w.phase == "movement":
                    r, q = movement.unit_reach(w, uid), movement.unit_reach(f, uid)
                    assert (r is None) == (q is None), f"{where} {uid}"
                    if r is not None:
                        assert r.cost == q.cost and np.array_equal(r.predecessors, q.predecessors), (
                            f"{where} {uid}"
                        )
                        reaches += 1
            for p in ps.values():
                assert _same_threats(p._threat_arrays(w), p._threat_arrays(f), w.units), f"{where} {p.side}"
                for uid in sorted(w.units)[::5]:  # hex scores: whole map and a window about the unit
                    u = w.units[uid]
                    if u.hex is not None and u.side == p.side:
                        col, row = u.hex.offset
                        for win in (None, (row - 3, row + 4, col - 3, col + 4)):
                            a, b = p._hex_scores(w, u.card, u.hex, win), p._hex_scores(f, u.card, u.hex, win)
                            assert np.array_equal(a, b), f"{where} {p.side} scores {uid} {win}"
                            scores += 1
            w.apply(ps[side].choose(w))
            commands += 1
    assert commands > 60 and targets > 0 and reaches > 0 and scores > 0
    assert len(shared) > 3  # the worlds did keep their memos in the shared dict


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    for g in GAMES:
        print(f"    {g[0]!r}: {record(*g)!r},", flush=True)
