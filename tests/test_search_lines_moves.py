"""What the hard lines player searches and what it decides without search (issue 31; 000 Draw
Phase, Commitment, Declaration; R12.1 views; R1.2 seeds).

Cheap: short seeded games of the standard player up to the phase wanted, then one look at the
hard player's candidate moves or draw.
"""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import LinesAI
from hexwar.lines.commands import ChooseHand, Commit, Declare, Draw, EndPhase, Recrew
from hexwar.lines.state import Phase
from hexwar.search.lines import HAND_CANDIDATES, LinesSearchGame, LinesSearchPlayer, fieldable_draw


def _to_phase(name: str, seed: int, want, turn: int = 1):
    """The seeded standard game at the first decision for which ``want(state)`` holds."""
    g = load_scenario(name).new_game(seed=seed)
    players = {s: LinesAI(s, seed) for s in g.seats}
    while not g.over:
        if g.turn >= turn and want(g):
            return g
        g.apply(players[g.to_act].choose(g))
    raise AssertionError(f"{name} seed {seed}: the phase wanted never came")


def _draw_state():
    g = _to_phase(
        "lines", 3, lambda s: s.phase == Phase.DRAW and any(isinstance(c, Draw) for c in s.legal_commands())
    )
    return g, g.to_act


def _cards(g, seat, kind_part, n):
    """``n`` card instances of the seat's side whose kind contains ``kind_part`` (made up as
    instances ``kind#9x``: the draw reads only the kinds)."""
    side = "de" if seat.startswith("german") else "su"
    return [f"{side}_{kind_part}#{90 + i}" for i in range(n)]


@pytest.mark.parametrize(
    ("hand", "reserves_wanted"),
    [
        # only crews: nothing to field -> both extra cards from the Reserves deck
        ([("tank_crew_regular", 2), ("artillery_crew_regular", 1)], 2),
        # a Pz IV H (needs a tank crew) with its crew and Panzergrenadiers: 2 fieldable -> 1
        ([("pz_iv_h", 1), ("tank_crew_regular", 1), ("panzergrenadiers", 1)], 1),
        # three infantry units: 3 fieldable -> none from the Reserves
        ([("panzergrenadiers", 2), ("grenadiers", 1)], 0),
        # a Pz IV H with an artillery crew only: the tank fields nothing -> 2
        ([("pz_iv_h", 1), ("artillery_crew_regular", 1)], 2),
    ],
)
def test_the_hard_draw_counts_the_units_the_hand_can_field(hand, reserves_wanted):
    """000 Draw Phase: one Command card and two chosen sources; the hard player takes Reserves
    cards while its hand lacks units it can commit (a crew alone, or a tank without its crew,
    fields nothing)."""
    g, seat = _draw_state()
    assert seat.startswith("german")  # seed 3: the Germans draw first (the hand is of German cards)
    g.hand_units[seat] = [c for kind, n in hand for c in _cards(g, seat, kind, n)]
    d = fieldable_draw(g, seat, g.legal_commands(seat))
    assert d is not None and g.check(d) is None
    assert d.extra.count("reserves") == reserves_wanted, f"seed 3: {hand} -> {d}"


def test_the_hard_draw_never_names_more_reserves_than_the_deck_holds():
    g, seat = _draw_state()
    g.hand_units[seat] = []  # nothing to field: two Reserves cards wanted
    g.reserves[seat] = g.reserves[seat][:1]
    d = fieldable_draw(g, seat, g.legal_commands(seat))
    assert d is not None and d.extra.count("reserves") == 1, d
    g.reserves[seat] = []
    d = fieldable_draw(g, seat, g.legal_commands(seat))
    assert d is None or d.extra.count("reserves") == 0, d


def test_the_draw_is_not_searched():
    """Its worth lies past the one-turn horizon: a single candidate, no rollout spent."""
    g, seat = _draw_state()
    cands = LinesSearchGame(3).candidates(g, seat, np.random.default_rng(0))
    assert len(cands) == 1 and isinstance(cands[0], Draw)
    p = LinesSearchPlayer(seat, 3)
    p.choose(g)
    assert p.last.iterations == 0


def test_commitment_and_declaration_are_never_ended_while_a_unit_or_an_attack_is_left():
    """Holding a unit back or declaring nothing looks good over one turn only (a unit in hand
    cannot be hit, a declaration costs nothing): such an end_phase is not a candidate."""
    seen = set()
    for seed in range(1, 6):
        for phase, kinds in ((Phase.COMMITMENT, (Commit, Recrew)), (Phase.DECLARATION, (Declare,))):
            g = _to_phase(
                "lines",
                seed,
                lambda s, ph=phase, k=kinds: (
                    s.phase == ph and any(isinstance(c, k) for c in s.legal_commands())
                ),
            )
            assert any(isinstance(c, EndPhase) for c in g.legal_commands())  # it would be legal
            cands = LinesSearchGame(seed).candidates(g, g.to_act, np.random.default_rng(seed))
            assert cands and not any(isinstance(c, EndPhase) for c in cands), f"seed {seed} {phase}: {cands}"
            assert all(g.check(c) is None for c in cands)
            seen.add(phase)
    assert seen == {Phase.COMMITMENT, Phase.DECLARATION}


def test_the_starting_hands_searched_include_the_standard_players_hand():
    for seed in (2, 3, 7):
        g = load_scenario("lines").new_game(seed=seed)
        seat = g.to_act
        cands = LinesSearchGame(seed).candidates(g, seat, np.random.default_rng(0))
        std = LinesAI(seat, seed).choose(g)
        assert isinstance(std, ChooseHand) and len(cands) == HAND_CANDIDATES
        assert any(sorted(c.cards) == sorted(std.cards) for c in cands), f"seed {seed}"
        assert len({tuple(sorted(c.cards)) for c in cands}) == len(cands)


def test_lines_balance_head_to_head_plays_both_ways_with_intervals(capsys):
    """``hexwar lines balance --head-to-head`` (issue 31): the levels swap sides on paired seeds
    and the table gives each side's wins with a 95% interval; --json prints it."""
    import json

    from hexwar.cli import main

    rc = main(
        [
            "lines",
            "balance",
            "lines",
            "--games",
            "2",
            "--ai-level",
            "german=easy,soviet=normal",
            "--head-to-head",
            "--json",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    data = json.loads(out)
    (row,) = data["head_to_head"]
    assert row["a"] == "easy" and row["b"] == "normal" and row["games"] == {"german": 1, "soviet": 1}
    lo, hi = row["a_rate"][1:]
    assert 0.0 <= lo <= row["a_rate"][0] <= hi <= 1.0
    assert sorted(g["variant"] for g in data["games"]) == [
        "default|german=easy,soviet=normal",
        "default|german=normal,soviet=easy",
    ]


def test_lines_balance_head_to_head_writes_only_into_docs_lines(capsys, tmp_path):
    from hexwar.cli import main

    other = tmp_path / "other.md"
    other.write_text("x\n")
    rc = main(
        ["lines", "balance", "lines", "--games", "2", "--ai-level", "german=hard,soviet=normal"]
        + ["--head-to-head", "--write", str(other)]
    )
    err = capsys.readouterr()
    assert rc != 0 and "docs/lines.md only" in err.out + err.err and "Traceback" not in err.out + err.err
    assert other.read_text() == "x\n"
    rc = main(["lines", "balance", "lines", "--games", "1", "--workers", "2"])
    err = capsys.readouterr()
    assert rc != 0 and "--head-to-head" in err.out + err.err
