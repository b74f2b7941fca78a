"""The memo of :func:`hexwar.lines.odds.declare_odds` (issue 31: the hard player's rollouts) gives
exactly the odds worked out afresh (R6), in every position of seeded games: the key must hold
every input the odds read, or a remembered answer from another position comes back (a silent
rules bug). The memo is kept warm across the positions and games on purpose."""

from __future__ import annotations

import pytest

from hexwar.game.scenario import load_scenario
from hexwar.lines.commands import Declare
from hexwar.lines.odds import declare_odds, declare_odds_cache_clear, declare_odds_uncached
from hexwar.lines.players import make_lines_player
from hexwar.lines.state import Phase
from hexwar.rules.combat import CombatError
from hexwar.rules.odds import AttackOdds


def _answer(f, *args):
    try:
        return f(*args)
    except CombatError as exc:
        return ("refused", str(exc))


def _asks(st):
    """Every odds a player could ask now: each legal declaration with and without the +1 bonus,
    every weapon choice of it (legal or refused), and each declared attack not yet resolved."""
    out = []
    for c in st.legal_commands():
        if isinstance(c, Declare):
            for ws in {tuple(c.weapons), (0,), (1,), (0, 1)}:
                out.append((c.unit, c.target, ws, c.at_crew, (), False))
            out.append((c.unit, c.target, tuple(c.weapons), c.at_crew, (), True))
    for a in st.attacks.values():
        if not a.resolved and not a.close_assault and a.target in st.units and a.attackers[0] in st.units:
            out.append((a.attackers[0], a.target, tuple(a.weapons), a.at_crew, (), False))
            out.append((a.attackers[0], a.target, tuple(a.weapons), a.at_crew, (), True))
    return out


@pytest.mark.parametrize(
    "name,players,variants",
    [
        ("lines", ("standard", "random"), None),
        ("lines-4p", ("standard", "standard"), None),
        ("lines", ("random", "standard"), ("classic",)),
    ],
)
def test_remembered_odds_equal_fresh_odds_in_every_position_of_seeded_games(name, players, variants):
    declare_odds_cache_clear()
    sc = load_scenario(name)
    asked = hits = 0
    for seed in range(4):
        st = sc.new_game(seed=seed, variants=variants)
        p = {s: make_lines_player(players[i % 2], s, seed) for i, s in enumerate(st.seats)}
        while not st.over:
            if st.phase in (Phase.DECLARATION, Phase.RESOLUTION):
                for q in _asks(st):
                    got = _answer(declare_odds, st, *q)
                    want = _answer(declare_odds_uncached, st, *q)
                    assert got == want, f"seed {seed}, turn {st.turn}, {st.phase}: odds of {q}"
                    asked += 1
                    again = _answer(declare_odds, st, *q)  # asked again: remembered
                    hits += again is got if isinstance(got, AttackOdds) else again == got
            st.apply(p[st.to_act].choose(st))
    assert asked > 300 and hits == asked, (asked, hits)


def test_a_crew_changed_alone_changes_the_remembered_odds():
    """The crews the odds reach through ``unit.crew`` (R7.5 fates and costs of the target's crew,
    the attacking crew's Damage card): changing only a crew, never the units it rides, must not
    bring back the answer remembered before the change."""
    declare_odds_cache_clear()
    sc = load_scenario("lines")
    tried = 0
    for seed in range(6):
        st = sc.new_game(seed=seed)
        p = {s: make_lines_player("standard", s, seed) for s in st.seats}
        while not st.over and tried < 400:
            if st.phase == Phase.DECLARATION:
                asks = _asks(st)
                crews = sorted(u.uid for u in st.units.values() if u.crewing is not None)
                damage = sorted({c.rsplit("#", 1)[0] + "#1" for c in st.damage_deck})[:4]
                for uid in crews:
                    u = st.units[uid]
                    saved = (u.endurance, u.damage_card, u.damage_turns)
                    for change in [(0, u.damage_card, u.damage_turns)] + [
                        (u.endurance, d, 1) for d in damage
                    ]:
                        for q in asks:
                            _answer(declare_odds, st, *q)  # remembered before the change
                        u.endurance, u.damage_card, u.damage_turns = change
                        for q in asks:
                            got = _answer(declare_odds, st, *q)
                            want = _answer(declare_odds_uncached, st, *q)
                            assert got == want, f"seed {seed}: crew {uid} as {change}, odds of {q}"
                            tried += 1
                        u.endurance, u.damage_card, u.damage_turns = saved
            st.apply(p[st.to_act].choose(st))
    assert tried >= 400
