"""What a seat sees of a lines game (R12.1): its own hand, the others' as counts; Damage cards
with the effect for the unit's type; aircraft with their Turns of Flight; declaration arrows."""

from __future__ import annotations

from lines_helpers import act, end_until, game

from hexwar.lines.commands import Declare
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase
from hexwar.lines.view import describe, odds_text, seat_view


def _st():
    return game(
        ("de_grenadiers",),
        ("su_rifles", "su_sniper"),
        g_units=(
            SU("de_pz_iv_g", "front", "de_tank_crew_regular"),
            SU("de_ju87g", "air", "de_pilot_regular"),
        ),
        s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"),),
    )


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    st = _st()
    v = seat_view(st, "german")
    assert v.hand_units == ("de_grenadiers#1",)
    assert v.hand_counts["soviet"][0] == 2 and not any(c.startswith("su_") for c in v.hand_units)
    assert seat_view(st, None).hand_units == ()
    assert v.command_deck == len(st.command_deck) and v.damage_deck == 25


def test_the_view_shows_aircraft_aloft_with_turns_of_flight_and_damage_effects_for_the_unit_type():
    st = _st()
    dmg = st.damage_deck.pop(0)
    st.units["de_pz_iv_g#1"].damage_card = dmg
    from hexwar.rules.cards import default_cards

    edge = default_cards().damage_card(dmg).side_for("vehicle")
    v = seat_view(st, "soviet")
    air = v.lines["german"]["air"]
    assert [u.name for u in air] == ["Ju 87 G-1 Kanonenvogel"] and air[0].flight_turns == 2
    tank = v.lines["german"]["front"][0]
    assert tank.damage[0] == edge.title and tank.damage[1] == edge.describe(default_cards().rules)
    assert "Ju 87 G-1 Kanonenvogel (2 ToF)" in "\n".join(describe(v))


def test_declarations_show_as_arrows_and_odds_are_offered_before_declaring():
    st = _st()
    end_until(st, Phase.DECLARATION)
    line = odds_text(st, "su_t34_76#1", "de_pz_iv_g#1", (0,))
    assert line.startswith("hit 64%")
    assert "not possible" in odds_text(st, "su_t34_76#1", "de_pz_iv_g#1", (1,))
    act(st, Declare("soviet", "su_t34_76#1", "de_pz_iv_g#1", (0,)))
    arrows = seat_view(st, "german").attacks
    assert [(a.attackers, a.target, a.resolved) for a in arrows] == [
        (("su_t34_76#1",), "de_pz_iv_g#1", False)
    ]


def test_the_other_sides_random_reserves_picks_are_hidden_from_a_seat_and_a_spectator():
    """R12.1: a randomly drawn Reserves deck is its side's secret. Its pool picks ("choice of
    17, took #4" over the scenario's public pool) named every card of the other side's deck in
    the window's and the terminal's log (fresh7); a seat reads its own picks, the other side's
    as "draws a card", a spectator (hot seat) neither side's."""
    from hexwar.lines.scenario import load_lines_scenario
    from hexwar.lines.view import seat_log_text

    seed = 1943
    st = load_lines_scenario("lines").new_game(seed=seed)
    picks = {
        side: [
            e
            for e in st.log
            if str((getattr(e, "data", None) or {}).get("purpose", "")).startswith(
                f"{side} Reserves deck card"
            )
        ]
        for side in ("german", "soviet")
    }
    assert picks["german"] and picks["soviet"], f"seed {seed}: both decks are dealt at random"
    for e in picks["german"]:
        assert seat_log_text(e, "german") == e.text and "took #" in e.text
        assert seat_log_text(e, "soviet") == "german draws a card for its Reserves deck"
        assert seat_log_text(e, None) == "german draws a card for its Reserves deck"
    for e in picks["soviet"]:
        assert seat_log_text(e, "german") == "soviet draws a card for its Reserves deck"
        assert seat_log_text(e, "soviet") == e.text
    text = "\n".join(seat_view(st, "german", log_lines=len(st.log)).log)
    assert "soviet Reserves deck card" not in text and "german Reserves deck card" in text


def test_a_card_reinforcements_takes_from_the_reserves_stays_hidden_until_committed():
    """R12.1: Reinforcements ("commit 1 unit directly from the Reserves deck") puts the top
    Reserves card into the hand, where it may stay (a crew card alone cannot be committed). The
    local log named it to the other seat and a spectator ("soviet takes Tank crew (regular)
    ... to commit": fresh9b, met against the hard player's built deck), though the hex view and
    the network lines view hide it; the seat itself still reads it."""
    from hexwar.lines.commands import UseCommandCard
    from hexwar.lines.events import TakenFromReserves
    from hexwar.lines.view import seat_log_text

    st = game(("de_grenadiers",), ("su_rifles",))
    st.reserves["soviet"].insert(0, "su_tank_crew_regular#9")
    st.hand_commands["soviet"].append("reinforcements#9")
    act(st, UseCommandCard("soviet", "reinforcements#9"))
    assert "su_tank_crew_regular#9" in st.hand_units["soviet"]
    (e,) = [e for e in st.log if isinstance(e, TakenFromReserves)]
    assert seat_log_text(e, "soviet") == e.text and "su_tank_crew_regular#9" in e.text
    hidden = "soviet takes a unit card from the Reserves deck to commit (hidden until committed)"
    assert seat_log_text(e, "german") == hidden
    assert seat_log_text(e, None) == hidden
    text = "\n".join(seat_view(st, "german", log_lines=len(st.log)).log)
    assert "Tank crew" not in text and "su_tank_crew" not in text
