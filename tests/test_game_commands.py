"""Commands: JSON round trip, who may act, and illegal commands refused with a reason and no change."""

from __future__ import annotations

import pytest
from game_helpers import H, advance_to, place, scenario
from hypothesis import given
from hypothesis import strategies as st

from hexwar.game.commands import (
    COMMAND_TYPES,
    BuildDeck,
    ChooseHand,
    CommandFormatError,
    Commit,
    Declare,
    Discard,
    Draw,
    EndPhase,
    IllegalCommand,
    Move,
    Resolve,
    command_from_json,
)
from hexwar.game.state import Phase, check_invariants
from hexwar.model.hexgrid import Hex
from hexwar.model.los import line_of_sight

labels = st.builds(lambda c, r: Hex.from_offset(c, r), st.integers(0, 60), st.integers(0, 60))
ids = st.text("abcdefghijklmnopqrstuvwxyz_#0123456789", min_size=1, max_size=20)
sides = st.sampled_from(["german", "soviet"])
commands = st.one_of(
    st.builds(EndPhase, sides),
    st.builds(Move, sides, ids, st.lists(labels, max_size=6).map(tuple)),
    st.builds(
        Commit, sides, ids, st.one_of(st.none(), labels), st.one_of(st.none(), ids), st.one_of(st.none(), ids)
    ),
    st.builds(Declare, sides, ids, ids, st.lists(st.integers(0, 2), max_size=2).map(tuple), st.booleans()),
    st.builds(Resolve, sides, st.integers(1, 99), st.one_of(st.none(), ids)),
    st.builds(Draw, sides, st.lists(st.sampled_from(["command", "reserves"]), max_size=3).map(tuple)),
    st.builds(ChooseHand, sides, st.lists(ids, max_size=4).map(tuple)),
    st.builds(BuildDeck, sides, st.lists(ids, max_size=14).map(tuple)),
)


@given(commands)
def test_every_command_round_trips_through_json(cmd):
    assert command_from_json(cmd.to_json()) == cmd


def test_every_command_type_is_registered_by_name():
    assert set(COMMAND_TYPES) == {
        "build_deck",
        "choose_hand",
        "target_artillery",
        "commit",
        "recrew",
        "move_crew",
        "move",
        "tow",
        "drop_tow",
        "declare",
        "declare_close_assault",
        "declare_building_attack",
        "resolve",
        "draw",
        "discard",
        "use_command_card",
        "end_phase",
        "undo",
    }


@pytest.mark.parametrize(
    "bad, field",
    [
        ({"cmd": "fly", "side": "german"}, "cmd"),
        ({"cmd": "move", "side": "romanian", "unit": "x", "path": []}, "side"),
        ({"cmd": "move", "side": "german", "unit": "x", "path": ["D7x"]}, "path[0]"),
        ({"cmd": "move", "side": "german", "unit": 3, "path": []}, "unit"),
        ({"cmd": "end_phase", "side": "german", "extra": 1}, "extra"),
        (
            {"cmd": "declare", "side": "german", "attacker": "a", "target": "b", "weapons": [True]},
            "weapons[0]",
        ),
    ],
)
def test_malformed_command_json_names_the_field(bad, field):
    with pytest.raises(CommandFormatError) as exc:
        command_from_json(bad, "commands[7]")
    assert f"commands[7].{field}" in str(exc.value)


@pytest.fixture
def game():
    return scenario("game_empty").new_game(seed=1)


def refused(game, cmd, *words):
    """Apply ``cmd``, expect IllegalCommand with ``words`` in the reason and no change at all."""
    before, rolls, ncmd, nlog = game.state_hash(), len(game.dice.log), len(game.commands), len(game.log)
    with pytest.raises(IllegalCommand) as exc:
        game.apply(cmd)
    for w in words:
        assert w in exc.value.reason, exc.value.reason
    assert (game.state_hash(), len(game.dice.log), len(game.commands), len(game.log)) == (
        before,
        rolls,
        ncmd,
        nlog,
    )
    assert game.check(cmd) == exc.value.reason
    return exc.value.reason


def test_wrong_side_and_wrong_phase_are_refused(game):
    advance_to(game, Phase.COMMITMENT)
    side = game.to_act
    other = "soviet" if side == "german" else "german"
    refused(game, EndPhase(other), f"it is {side}'s turn")
    refused(game, Move(side, "x#1", (H("A01"),)), "move is not allowed in the commitment phase")
    refused(game, Draw(side), "not allowed")


def test_illegal_move_through_an_enemy(game):
    inf = place(game, "de_grenadiers", "C05")
    place(game, "su_rifles", "D05")
    advance_to(game, Phase.MOVEMENT, "german")
    refused(game, Move("german", inf.uid, (H("D05"), H("E05"))), "D05", "enemy")


def test_illegal_fourth_unit_into_a_full_hex(game):
    for _ in range(3):
        place(game, "de_grenadiers", "B04")
    advance_to(game, Phase.COMMITMENT, "german")
    unit = next(c for c in game.hand_units["german"] if c.startswith("de_grenadiers"))
    refused(game, Commit("german", unit, H("B04")), "stacking limit 3")
    game.apply(Commit("german", unit, H("B05")))  # the next hex has room
    assert not check_invariants(game)


def test_illegal_target_out_of_los(game):
    a = place(game, "de_grenadiers", "F05")
    t = place(game, "su_rifles", "H06")
    assert line_of_sight(game.battlemap, a.hex, t.hex).status == "blocked"  # the woods in G06
    advance_to(game, Phase.DECLARATION, "german")
    refused(game, Declare("german", a.uid, t.uid, (0,)), "no LOS from F05 to H06")


def test_illegal_gun_without_a_crew_firing(game):
    gun = place(game, "de_pak40", "C04")  # crew shot away, say
    t = place(game, "su_t34_76", "F04", crew="su_tank_crew_regular")
    place(game, "de_grenadiers", "A01")
    advance_to(game, Phase.DECLARATION, "german")
    refused(game, Declare("german", gun.uid, t.uid, (0,)), "has no crew and cannot fire")
    assert all(getattr(c, "attacker", None) != gun.uid for c in game.legal_commands())


def test_commit_needs_the_crew_and_the_deploy_zone(game):
    advance_to(game, Phase.COMMITMENT, "german")
    hand = game.hand_units["german"]
    tank = next(c for c in hand if c.startswith("de_pz_iv_g"))
    crew = next(c for c in hand if c.startswith("de_tank_crew"))
    ht = next(c for c in hand if c.startswith("de_sdkfz_251"))
    refused(game, Commit("german", tank, H("B03")), "needs a tank crew card")
    refused(game, Commit("german", tank, H("E03"), crew), "not in your deploy zone")
    refused(game, Commit("german", crew, H("B03")), "crew card")
    refused(game, Commit("german", ht, H("B03")), "together with an infantry unit")
    game.apply(Commit("german", tank, H("B03"), crew))
    u = game.units[tank]
    assert u.crew == crew and game.units[crew].crewing == tank and game.units[crew].hex == H("B03")
    inf = next(c for c in hand if c.startswith("de_grenadiers"))
    game.apply(Commit("german", ht, H("B02"), None, inf))
    assert game.units[ht].hex == game.units[inf].hex == H("B02")
    assert not check_invariants(game)


def test_draw_then_discard_to_the_limits(game):
    advance_to(game, Phase.DRAW)
    side = game.to_act
    refused(game, EndPhase(side), "draw first")
    refused(game, Discard(side, game.hand_commands[side][0]), "draw first")
    refused(game, Draw(side, ("command",)), "choose 2 sources")
    n_cmd, n_units = len(game.hand_commands[side]), len(game.hand_units[side])
    game.apply(Draw(side, ("command", "reserves")))  # R5.5: one Command card, then the two chosen
    assert len(game.hand_commands[side]) == n_cmd + 2 and len(game.hand_units[side]) == n_units + 1
    assert side in game.drawn and game.to_act != side  # within the limits: nothing left to do, it passes
    other = game.to_act  # 3 Command cards dealt + 1 + 2 drawn = 6 > 5
    game.apply(Draw(other, ("command", "command")))
    assert len(game.hand_commands[other]) == 6
    while len(game.hand_commands[other]) > 5:
        refused(game, EndPhase(other), "discard down to 5 Command")
        c = game.hand_commands[other][0]
        game.apply(Discard(other, c))
        assert c in game.command_discard  # discarded Command cards leave the game (R5.5)
