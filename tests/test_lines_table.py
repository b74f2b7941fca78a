"""The card-table controller (headless): hot-seat hands, declaring with odds, the bonus offer."""

from __future__ import annotations

from lines_helpers import end_until, game

from hexwar.lines.ai import LinesAI
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase
from hexwar.lines.table import SHORTCUTS, TABLE_KEYS, TableController


def test_hot_seat_shows_only_the_hand_of_the_seat_to_act():
    st = game(("de_grenadiers",), ("su_rifles",))
    t = TableController(st)
    first = st.to_act
    assert t.viewer == first
    assert t.view().hand_units == tuple(st.hand_units[first])
    t.end_phase()
    assert t.viewer == st.to_act != first
    assert not any(c in t.view().hand_units for c in st.hand_units[first])


def test_commit_declare_with_odds_and_resolve_with_the_bonus_through_the_table():
    st = game(
        ("de_pz_iv_g", "de_tank_crew_regular"),
        (),
        s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"),),
    )
    t = TableController(st, ai={"soviet": LinesAI("soviet", 1)})
    t.run_ai()
    assert st.to_act == "german"
    t.click("de_pz_iv_g#1")
    assert t.confirm()  # committed with its crew
    assert st.lines["german"]["front"] == ["de_pz_iv_g#1"]
    t.end_phase()
    t.run_ai()
    assert st.phase == Phase.DECLARATION and st.to_act == "german"
    t.click("de_pz_iv_g#1")
    t.click("su_t34_76#1")
    assert t.weapons == (0,)
    assert t.odds().startswith("hit ")
    assert t.confirm()
    end_until(st, Phase.RESOLUTION)
    t.run_ai()
    if st.to_act == "german":
        msg = t.offer_bonus()
        assert msg.startswith("+1 on the first to-hit roll")
        card = t.bonus
        assert t.resolve()
        assert card in st.command_discard


def test_table_keys_follow_the_hex_screens_shortcuts():
    assert TABLE_KEYS[0x20] == "end_phase" and TABLE_KEYS[ord("r")] == "resolve"
    assert TABLE_KEYS[ord("h")] == "help" and TABLE_KEYS[0xFF1B] == "cancel"
    assert any(k.startswith("H / F1") for k, _ in SHORTCUTS)
    st = game(("de_grenadiers",), ())
    t = TableController(st)
    t.key("help")
    assert t.help
    t.key("cancel")
    assert not t.help


def test_the_table_recrews_by_clicks_moves_an_spg_with_l_and_fires_at_a_guns_crew_with_c():
    st = game(
        ("de_tank_crew_regular",),
        ("su_smg",),
        g_units=(
            SU("de_pz_iv_g", "front", None),
            SU("de_wespe", "front", "de_tank_crew_regular"),
            SU("de_pak40", "front", "de_artillery_crew_regular"),
        ),
        s_units=(SU("su_rifles", "front", None),),
    )
    assert st.units["de_pz_iv_g#1"].crew is None
    end_until(st, Phase.COMMITMENT)
    while st.to_act != "german":
        st.apply(next(c for c in st.legal_commands() if c.name == "end_phase"))
    t = TableController(st, ai={})
    crew = next(c for c in st.hand_units["german"] if c.startswith("de_tank_crew_regular"))
    t.click(crew)
    t.click("de_pz_iv_g#1")  # the crew card onto the crewless tank (000: replacing a lost crew)
    assert st.units["de_pz_iv_g#1"].crew == crew, t.message
    t.click("de_wespe#1")
    t.key("move_line")  # L: the SPG to the Rear Line
    assert "de_wespe#1" in st.lines["german"]["rear"], t.message
    end_until(st, Phase.DECLARATION)
    while st.to_act != "soviet":
        st.apply(next(c for c in st.legal_commands() if c.name == "end_phase"))
    t.click("su_rifles#1")
    t.click("de_pak40#1")
    t.key("at_crew")  # C: infantry at a Frontline gun's crew
    assert t.at_crew and t.weapons
    assert t.confirm(), t.message
    assert st.attacks[max(st.attacks)].at_crew


def test_v_chooses_the_crew_of_a_commitment_and_the_sources_of_a_draw_and_a_closes_assault():
    st = game(
        ("de_tiger_i", "de_tank_crew_veteran", "de_tank_crew_regular"),
        ("su_rifles", "su_guards", "su_smg"),
        s_units=(SU("su_rifles", "front", None), SU("su_guards", "front", None), SU("su_smg", "front", None)),
    )
    end_until(st, Phase.COMMITMENT)
    while st.to_act != "german":
        st.apply(next(c for c in st.legal_commands() if c.name == "end_phase"))
    t = TableController(st, ai={})
    t.click("de_tiger_i#1")
    first = t.choice_text()
    assert first.startswith("Enter commits Tiger I with Panzer crew") and "(V: next of 2 ways)" in first
    t.key("next_choice")
    second = t.choice_text()
    assert second != first and second.startswith("Enter commits Tiger I with Panzer crew")
    chosen = "de_tank_crew_veteran#1" if "veteran" in second else "de_tank_crew_regular#1"
    assert t.prompt() == f"Commitment: {second}; or click your Frontline / Rear Line row."
    assert t.confirm()
    assert st.units["de_tiger_i#1"].crew == chosen  # the crew V chose, not the first
    end_until(st, Phase.DECLARATION)
    while st.to_act != "soviet":
        st.apply(next(c for c in st.legal_commands() if c.name == "end_phase"))
    front = list(st.lines["soviet"]["front"])  # the three starting infantry units
    t.click(front[0])
    t.click("de_tiger_i#1")
    t.key("close_assault")  # A: three Frontline infantry on a Frontline vehicle (000)
    ca = st.attacks[max(st.attacks)]
    assert ca.close_assault and set(ca.attackers) == set(front) and len(front) == 3, t.message
    end_until(st, Phase.DRAW)
    while st.to_act is not None and st.phase == Phase.DRAW and st.to_act in st.drawn:
        st.apply(next(c for c in st.legal_commands() if c.name == "end_phase"))
    assert st.phase == Phase.DRAW and st.to_act not in st.drawn
    seat = st.to_act
    t = TableController(st, ai={})
    ways = [t.choice_text()]
    for _ in range(len(t.draw_options()) - 1):
        t.key("next_choice")
        ways.append(t.choice_text())
    assert len(set(ways)) == len(t.draw_options()) >= 2
    for _ in range(len(ways)):  # the prompt counts the cards (pass 2, item 1)
        if t.choice_text().startswith("Space draws 1 Command + 2 Reserves"):
            break
        t.key("next_choice")
    assert t.choice_text().startswith("Space draws 1 Command + 2 Reserves"), ways
    assert t.end_phase()
    from hexwar.lines.events import Drew

    drew = [e for e in st.log if isinstance(e, Drew) and e.seat == seat][-1]
    assert drew.sources == ("reserves", "reserves")  # the sources V chose


def test_every_phase_tells_the_person_at_the_screen_what_they_can_do_now():
    from hexwar.game.scenario import load_scenario

    st = load_scenario("lines-4p").new_game(seed=5)
    t = TableController(st, ai={})
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    seen = set()
    for _ in range(400):
        if st.over or len(seen) == 5:
            break
        t.take_seat()
        words = {
            "setup": "Setup:",
            "commitment": "Commitment:",
            "declaration": "Declaration:",
            "resolution": "Resolution:",
            "draw": "Draw:",
        }
        assert t.prompt().startswith(words[st.phase]), (st.phase, t.prompt())
        seen.add(st.phase)
        st.apply(ai[st.to_act].choose(st))
        t._follow()
    assert seen == {"setup", "commitment", "declaration", "resolution", "draw"}


def test_the_turn_cap_of_play_turns_stops_the_table_after_that_turn_and_nobody_acts_after_it():
    """``hexwar play lines --turns 1`` in the window: once turn 1 is complete the computer seat
    makes no more decisions, a person's command is refused with the reason, and the prompt says
    the game stopped unfinished (the terminal game's ``max_turns``)."""
    st = game(("de_grenadiers",), ("su_rifles",))
    t = TableController(st, ai={"soviet": LinesAI("soviet", 1)}, max_turns=1)
    for _ in range(400):  # the person ends every phase; the computer plays its own
        if t.stopped() or st.over:
            break
        if not t.run_ai():
            t.end_phase()
    assert st.turn == 2 and not st.over and t.stopped()
    seat, before = st.to_act, len(st.log)
    assert t.run_ai() == 0 and len(st.log) == before
    assert not t.issue(st.legal_commands()[0]) and "--turns" in t.message
    assert len(st.log) == before
    assert t.prompt().startswith("Stopped after turn 1 (--turns)")
    assert st.to_act == seat
    assert not TableController(game(("de_grenadiers",), ()), max_turns=None).stopped()
