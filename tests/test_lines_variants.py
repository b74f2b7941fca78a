"""The 4-player team variant (000 Variants) and 001 classic rules on lines (R11.1, R6.4, R6.6)."""

from __future__ import annotations

import pytest
from lines_helpers import act, end_until, game, script

from hexwar.lines.commands import Commit, Declare, EndPhase, IllegalLinesCommand, MoveCrew, Resolve
from hexwar.lines.rules import card, role_of
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase, check_invariants

SEATS4 = ("german-front", "german-support", "soviet-front", "soviet-support")


# -- 4 players -----------------------------------------------------------------------------------
def test_support_commanders_act_first_in_each_phase():
    st = game(players=4, seed=11, decks={s: () for s in SEATS4})
    seen: dict[str, list[str]] = {}
    for _ in range(40):
        seen.setdefault(f"{st.turn}:{st.phase}", []).append(st.to_act)
        st.apply(EndPhase(st.to_act) if st.phase != Phase.DRAW else st.legal_commands()[-1])
        if st.turn == 3:
            break
    for key, order in seen.items():
        if key.endswith(":resolution"):
            continue
        firsts = list(dict.fromkeys(order))
        assert [s.endswith("support") for s in firsts] == [True, True, False, False], (key, firsts)
    inits = [e for e in st.log if e.kind == "initiative"]
    assert [e.group for e in inits[:2]] == ["support", "front"]  # each pair rolls its own initiative


def test_a_4_player_turn_ends_only_when_all_four_have_done_every_phase():
    st = game(players=4, seed=2, decks={s: () for s in SEATS4})
    done = []
    while st.turn == 1:
        done.append((st.phase, st.to_act))
        st.apply(EndPhase(st.to_act) if st.phase != Phase.DRAW else st.legal_commands()[-1])
    for phase in (Phase.COMMITMENT, Phase.DECLARATION, Phase.DRAW):
        assert {s for p, s in done if p == phase} == set(SEATS4)


def test_76_points_ends_the_4_player_game():
    def setup():
        return game(
            players=4,
            seed=5,
            decks={s: () for s in SEATS4},
            g_units=(
                SU("de_su152" if False else "de_tiger_i", "front", "de_tank_crew_regular"),
                SU("de_grenadiers", "front"),
            ),
            s_units=(SU("su_rifles", "front"), SU("su_rifles", "front")),
        )

    def kill(st):
        # Tiger 8.8 cm: 10 vs infantry, DI 10; 5+5 hits, Intensity 5: 5 + 10 - 0 = 15 >= 8: 4 VP
        end_until(st, Phase.DECLARATION)
        act(st, Declare("german-front", "de_tiger_i#1", "su_rifles#1", (0,)))
        end_until(st, Phase.RESOLUTION)
        while st.to_act != "german-front":
            st.apply([c for c in st.legal_commands() if isinstance(c, Resolve) and c.bonus is None][0])
        script(st, 5, 5, 5)
        st.apply(Resolve("german-front", 1))

    st = setup()
    st.vp["german"] = 60  # 51 or more: no end in the 4-player game
    kill(st)
    assert st.vp["german"] == 64 and not st.over
    st = setup()
    st.vp["german"] = 72
    kill(st)
    assert st.vp["german"] == 76 and st.over and st.result.winner == "german" and st.result.reason == "points"


def test_4_player_decks_are_75_points_each_split_by_commander():
    from hexwar.game.scenario import load_scenario

    sc = load_scenario("lines-4p")
    st = sc.new_game(seed=4)
    for seat in SEATS4:
        cards_ = st.reserves[seat] + st.hand_units[seat]
        assert 60 <= sum(card(c).cost for c in cards_) <= 75
        role = seat.split("-")[1]
        assert all(card(c).is_crew or role_of(c) == role for c in cards_), seat
    assert check_invariants(st) == []


def test_a_seat_controls_only_its_own_units():
    st = game(
        players=4,
        seed=5,
        decks={s: () for s in SEATS4},
        g_units=(SU("de_grenadiers", "front"), SU("de_ju87g", "air", "de_pilot_regular")),
        s_units=(SU("su_rifles", "front"),),
    )
    end_until(st, Phase.DECLARATION)
    while st.to_act != "german-support":
        st.apply(EndPhase(st.to_act))
    with pytest.raises(IllegalLinesCommand, match="not a unit of german-support"):
        st.apply(Declare("german-support", "de_grenadiers#1", "su_rifles#1", (0,)))
    assert st.check(Declare("german-support", "de_ju87g#1", "su_rifles#1", (0,))) is None


# -- 001 classic ------------------------------------------------------------------------------
def test_classic_commitment_is_hidden_until_every_seat_is_done():
    st = game(("de_grenadiers",), ("su_rifles",), variants=("classic",))
    first = st.to_act
    unit = "de_grenadiers#1" if first == "german" else "su_rifles#1"
    st.apply(Commit(first, unit, "front"))
    assert unit not in st.units and st.hidden  # set aside face down
    assert check_invariants(st) == []
    st.apply(EndPhase(first))
    st.apply(EndPhase(st.to_act))
    assert st.phase == Phase.DECLARATION and unit in st.units and not st.hidden
    assert any(e.kind == "reveal" for e in st.log)


def test_classic_crews_may_move_between_units_in_commitment():
    st = game(
        (),
        (),
        variants=("classic",),
        g_units=(
            SU("de_pz_iv_g", "front", "de_tank_crew_veteran"),
            SU("de_stug_iii_g", "front", "de_tank_crew_regular"),
        ),
        s_units=(SU("su_rifles", "front"),),
    )
    st.units["de_stug_iii_g#1"].crew = None  # the StuG's crew was shot away
    st.units.pop("de_tank_crew_regular#1")
    st.all_cards = tuple(c for c in st.all_cards if c != "de_tank_crew_regular#1")
    act(st, MoveCrew("german", "de_tank_crew_veteran#1", "de_stug_iii_g#1"))
    assert st.units["de_stug_iii_g#1"].crew == "de_tank_crew_veteran#1"
    assert st.units["de_pz_iv_g#1"].crew is None
    assert check_invariants(st) == []
    st2 = game(
        (),
        (),
        g_units=(SU("de_pz_iv_g", "front", "de_tank_crew_veteran"),),
        s_units=(SU("su_rifles", "front"),),
    )
    with pytest.raises(IllegalLinesCommand, match="classic"):
        act(st2, MoveCrew("german", "de_tank_crew_veteran#1", "de_pz_iv_g#1"))


def _one_attack(variants, faces, g_units, s_units, decl, seat="soviet"):
    st = game((), (), variants=variants, g_units=g_units, s_units=s_units)
    end_until(st, Phase.DECLARATION)
    act(st, decl)
    end_until(st, Phase.RESOLUTION)
    while st.to_act != seat:
        st.apply([c for c in st.legal_commands() if isinstance(c, Resolve) and c.bonus is None][0])
    script(st, *faces)
    return st, st.apply(Resolve(seat, next(a.number for a in st.attacks.values() if a.seat == seat)))


def test_classic_natural_2_3_is_friendly_fire_on_the_attackers_most_valuable_unit():
    # T-34 rolls 1+1 = 2: friendly fire; the opponent picks the KV-1S (16 points); Intensity 9:
    # 9 + 7 - 7 = 9 damage on it, no points to anybody
    st, evs = _one_attack(
        ("classic",),
        (1, 1, 9),
        (SU("de_pz_iv_g", "front", "de_tank_crew_regular"),),
        (SU("su_t34_76", "front", "su_tank_crew_regular"), SU("su_kv_1s", "front", "su_tank_crew_regular")),
        Declare("soviet", "su_t34_76#1", "de_pz_iv_g#1", (0,)),
    )
    ff = next(e for e in evs if e.kind == "friendly_fire")
    assert ff.payload.new_target == "su_kv_1s#1"
    assert st.units["su_kv_1s#1"].endurance == 16 - 9
    assert st.vp == {"german": 0, "soviet": 0}
    st, evs = _one_attack(
        (),
        (1, 1),
        (SU("de_pz_iv_g", "front", "de_tank_crew_regular"),),
        (SU("su_t34_76", "front", "su_tank_crew_regular"), SU("su_kv_1s", "front", "su_tank_crew_regular")),
        Declare("soviet", "su_t34_76#1", "de_pz_iv_g#1", (0,)),
    )
    assert not any(e.kind == "friendly_fire" for e in evs)  # 000: just a miss


def test_classic_natural_19_20_destroys_the_target_outright():
    st, evs = _one_attack(
        ("classic",),
        (10, 9),
        (SU("de_tiger_i", "front", "de_tank_crew_regular"),),
        (SU("su_t34_76", "front", "su_tank_crew_regular"),),
        Declare("soviet", "su_t34_76#1", "de_tiger_i#1", (0,)),
    )
    assert "de_tiger_i#1" not in st.units
    assert st.vp["soviet"] == 24 + 2  # Tiger and its crew (destroyed with it)


def test_classic_capture_needs_an_enemy_ground_unit_in_play():
    # an Il-2 (no Soviet ground unit in play) destroys a Pz III M: PTAB 9 vs vehicle, DI 9; 5+5 hits;
    # Intensity 10: 10 + 9 - 5 = 14 = Endurance: destroyed; crew die 10?  use die 5 with a bigger gun
    g = (SU("de_sdkfz_222", "front", "de_tank_crew_regular"),)
    # SdKfz 222: Defense 2, Endurance 8; PTAB: 5 + 9 - 2 = 12 >= 8: destroyed; crew die 5 = captured (000)
    st, evs = _one_attack(
        ("classic",),
        (5, 5, 5),
        g,
        (SU("su_il2", "air", "su_pilot_regular"),),
        Declare("soviet", "su_il2#1", "de_sdkfz_222#1", (0,)),
    )
    fate = next(e for e in evs if e.kind == "crew_fate")
    assert fate.payload.fate == "survives"  # 001: no Soviet ground unit in play to take prisoners
    st, evs = _one_attack(
        (),
        (5, 5, 5),
        g,
        (SU("su_il2", "air", "su_pilot_regular"),),
        Declare("soviet", "su_il2#1", "de_sdkfz_222#1", (0,)),
    )
    assert next(e for e in evs if e.kind == "crew_fate").payload.fate == "captured"
    st, evs = _one_attack(
        ("classic",),
        (5, 5, 5),
        g,
        (SU("su_il2", "air", "su_pilot_regular"), SU("su_rifles", "front")),
        Declare("soviet", "su_il2#1", "de_sdkfz_222#1", (0,)),
    )
    assert next(e for e in evs if e.kind == "crew_fate").payload.fate == "captured"
    assert st.vp["soviet"] == 6 + 2 * 2
