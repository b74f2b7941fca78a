"""The lines rules the engine read more narrowly than the books (issue 33), each decided and
hand-worked here with the seed's words (000 = Spearpoint 1943 Eastern Front, 001 = Spearpoint
1943). docs/rules.md "Lines rules decisions (issue 33)" gives each decision and its reason.
"""

from __future__ import annotations

import pytest
from lines_helpers import act, end_until, game, script

from hexwar.lines.commands import Declare, Draw, IllegalLinesCommand, Resolve
from hexwar.lines.players import make_lines_player
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase


def _to_resolution(st, *decls):
    end_until(st, Phase.DECLARATION)
    for d in sorted(decls, key=lambda d: st.order.index(d.seat)):  # declared in initiative order
        act(st, d)
    end_until(st, Phase.RESOLUTION)
    return st


def _resolve_first(st, seat):
    """End the other seat's choices (their plain resolves) until ``seat`` chooses."""
    while st.to_act != seat:
        st.apply([c for c in st.legal_commands() if isinstance(c, Resolve) and c.bonus is None][0])


# -- 1. the Command-card +1 "before any die roll" ---------------------------------------------
def test_a_command_card_adds_1_to_the_intensity_roll_not_only_the_first_to_hit():
    """000: "A maximum of 1 Command card may be discarded before any die roll (instead of playing
    the function of the card) for a +1 Bonus to that die roll." 001: "Players may discard one
    Command card before any die roll to improve that roll by +1".

    T-34/76 76 mm F-34 (vehicle 10, DI 7) on a Pz IV G (Defense 6, Endurance 14): to-hit 5+5 = 10
    hits; Intensity 2, +1 from the card = 3: 3 + 7 - 6 = 4 damage -> Endurance 10 (without the
    card: 2 + 7 - 6 = 3 -> 11)."""
    st = _to_resolution(
        game(
            (),
            (),
            g_units=(SU("de_pz_iv_g", "front", "de_tank_crew_regular"),),
            s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"),),
        ),
        Declare("soviet", "su_t34_76#1", "de_pz_iv_g#1", (0,)),
    )
    _resolve_first(st, "soviet")
    card = st.hand_commands["soviet"][0]
    script(st, 5, 5, 2)
    evs = st.apply(Resolve("soviet", 1, None, ("intensity:0",), (card,)))
    assert st.units["de_pz_iv_g#1"].endurance == 10
    assert card in st.command_discard and card not in st.hand_commands["soviet"]
    assert any(e.kind == "bonus" and "intensity:0" in e.text for e in evs)


def test_a_command_card_on_the_second_to_hit_roll_turns_its_miss_into_a_hit():
    """000 "before any die roll": the second rate-of-fire roll of the DP-27 (2x, infantry 11,
    DI 2) on Grenadiers (Defense 0, Endurance 8): roll 1 is 5+5 = 10, a miss; roll 2 is 6+4 = 10,
    +1 = 11 hits: Intensity 3 + 2 - 0 = 5 -> Endurance 3 (Half 4: a Damage card too)."""
    st = _to_resolution(
        game((), (), g_units=(SU("de_grenadiers", "front"),), s_units=(SU("su_rifles", "front"),)),
        Declare("soviet", "su_rifles#1", "de_grenadiers#1", (1,)),
    )
    _resolve_first(st, "soviet")
    card = st.hand_commands["soviet"][0]
    script(st, 5, 5, 6, 4, 3)
    evs = st.apply(Resolve("soviet", 1, None, ("to_hit:1",), (card,)))
    hits = [e for e in evs if e.kind == "to_hit"]
    assert [h.payload.outcome for h in hits] == ["miss", "hit"]
    assert hits[1].payload.roll.result == 11
    assert st.units["de_grenadiers#1"].endurance == 3


def test_one_card_per_roll_and_only_rolls_the_attack_makes():
    st = _to_resolution(
        game(
            (),
            (),
            g_units=(SU("de_pz_iv_g", "front", "de_tank_crew_regular"),),
            s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"),),
        ),
        Declare("soviet", "su_t34_76#1", "de_pz_iv_g#1", (0,)),
    )
    _resolve_first(st, "soviet")
    c0 = st.hand_commands["soviet"][0]
    c1 = st.hand_commands["soviet"][1]
    assert "at most one Command card per roll" in st.check(Resolve("soviet", 1, c0, ("to_hit:0",), (c1,)))
    assert "makes no roll 'to_hit:1'" in st.check(Resolve("soviet", 1, None, ("to_hit:1",), (c0,)))
    assert "one Command card for each roll" in st.check(Resolve("soviet", 1, None, ("to_hit:0",), ()))
    # a bonus on a roll never made (the attack missed: no Intensity) keeps its card in hand
    script(st, 1, 2)
    st.apply(Resolve("soviet", 1, None, ("intensity:0",), (c0,)))
    assert c0 in st.hand_commands["soviet"]


# -- 2. temporary Damage effects "for 1 turn" --------------------------------------------------
def test_a_one_turn_damage_effect_acts_for_the_rest_of_the_turn_it_is_drawn_in():
    """000 End Turn: "Count down all Damage Effects and other counters"; 000: "count the Damage
    Effect down with each new turn"; 001: "Evasive Maneuver - No attack. Remove effect after 1
    turn." Decision (docs/rules.md): the End Turn of the turn the card is drawn counts, as in the
    hex game, so "Pinned (no attack, 1 turn)" drawn in a Combat Phase stops the unit's own attack
    still to resolve that phase, and is over by the next turn.

    German and Soviet rifles fire at each other; the first to resolve rolls 10+10 = 20 (000
    19-20: "Automatically draw a Damage card") and the top Damage card is dmg02 (infantry edge
    "Pinned": no attack, 1 turn); the hit's Intensity 1 + DI 2 - 0 = 3 leaves Endurance 5. The
    other squad's own attack is then void."""
    st = _to_resolution(
        game((), (), g_units=(SU("de_grenadiers", "front"),), s_units=(SU("su_rifles", "front"),)),
        Declare("soviet", "su_rifles#1", "de_grenadiers#1", (0,)),
        Declare("german", "de_grenadiers#1", "su_rifles#1", (0,)),
    )
    first = st.to_act
    other = "german" if first == "soviet" else "soviet"
    mine = next(a.number for a in st.attacks.values() if a.seat == first)
    victim = next(a.attackers[0] for a in st.attacks.values() if a.seat == other)
    st.damage_deck.remove("dmg02#1")
    st.damage_deck.insert(0, "dmg02#1")
    script(st, 10, 10, 1)
    st.apply(Resolve(first, mine))
    assert st.units[victim].endurance == 5  # Intensity 1 + DI 2 - Defense 0 = 3
    assert st.units[victim].damage_card == "dmg02#1" and st.units[victim].damage_turns == 1
    from hexwar.lines.terminal import LinesTerminalPlayer, table_text

    shown = "\n".join(table_text(LinesTerminalPlayer(other).view(st)))
    assert "Pinned: No attack (for 1 turn)" in shown  # the card text, and what it means here:
    assert "(effect ends at this turn's End Turn)" in shown
    theirs = next(a.number for a in st.attacks.values() if a.seat == other)
    evs = st.apply(Resolve(other, theirs))
    assert any(e.kind == "attack_void" and "Pinned" in e.text for e in evs)
    end_until(st, Phase.DECLARATION, turn=2)
    assert st.units[victim].damage_card == "dmg02#1" and st.units[victim].damage_turns == 0
    target = "su_rifles#1" if other == "german" else "de_grenadiers#1"
    act(st, Declare(other, victim, target, (0,)))
    assert any(a.attackers == (victim,) for a in st.attacks.values())  # it attacks again in turn 2


# -- 3. 001's initiative after target declaration ----------------------------------------------
def test_classic_rolls_initiative_at_begin_turn_and_its_winner_resolves_first():
    """001: "After Target Declaration, each player rolls Initiative using 1D10 ... The highest
    result determines who resolves the first attack." Decision (docs/rules.md): hexwar keeps
    000's Begin Turn roll ("Roll Initiative for this turn using 1d10") in the classic variant
    too; its winner resolves first, as 001 says. Initiative 2 (German) vs 9 (Soviet) in turn 2:
    the Soviet declares first and chooses the first attack to resolve."""
    st = game(
        (),
        (),
        variants=("classic",),
        g_units=(SU("de_grenadiers", "front"),),
        s_units=(SU("su_rifles", "front"),),
    )
    end_until(st, Phase.DRAW)
    for _ in range(10):
        if st.phase != Phase.DRAW:
            break
        if st.to_act not in st.drawn and all(s in st.drawn for s in st.seats if s != st.to_act):
            script(st, 2, 9)  # the last draw: the next rolls are turn 2's initiative
        st.apply(next(c for c in st.legal_commands() if c.name in ("draw", "discard", "end_phase")))
    assert st.turn == 2
    inits = [e for e in st.log if e.kind == "roll" and "initiative" in e.text][-2:]
    assert [e.text.split(":")[0] for e in inits] == ["initiative german", "initiative soviet"]
    assert st.order[0] == "soviet"
    end_until(st, Phase.DECLARATION, turn=2)
    assert st.to_act == "soviet"  # declares first in initiative order (000 Declaration)
    act(st, Declare("soviet", "su_rifles#1", "de_grenadiers#1", (0,)))
    act(st, Declare("german", "de_grenadiers#1", "su_rifles#1", (0,)))
    end_until(st, Phase.RESOLUTION, turn=2)
    assert st.to_act == "soviet"  # 001: the highest initiative resolves the first attack


# -- 4. 001's friendly-fire victim ---------------------------------------------------------------
def test_classic_friendly_fire_victim_is_the_most_valuable_unit_the_weapon_can_affect():
    """001: "On an Attack sum of 2-3, Friendly Fire occurs. The opponent chooses a single Legal
    Target friendly to the attacker that is automatically hit. Apply Damage and score no points
    if destroyed." Decision (docs/rules.md): the engine never stops inside an attack, so the
    opponent's choice is made for them by a fixed rule: the firer's most valuable other unit the
    weapon can affect (an opponent hurts the firer most there), ties to the lowest instance id.

    Rifle squad's Mosin-Nagant rifles (bullets) roll 1+1 = 2: the KV-1S (16 points, Defense 7)
    cannot be affected by bullets, so the victim is the other Rifle squad (4 points, Defense 0):
    Intensity 4 + DI 2 - 0 = 6 -> Endurance 8 - 6 = 2; nobody scores."""
    st = _to_resolution(
        game(
            (),
            (),
            variants=("classic",),
            g_units=(SU("de_grenadiers", "front"),),
            s_units=(
                SU("su_rifles", "front"),
                SU("su_kv_1s", "front", "su_tank_crew_regular"),
                SU("su_rifles", "front"),
            ),
        ),
        Declare("soviet", "su_rifles#1", "de_grenadiers#1", (0,)),
    )
    _resolve_first(st, "soviet")
    script(st, 1, 1, 4)
    evs = st.apply(Resolve("soviet", 1))
    ff = next(e for e in evs if e.kind == "friendly_fire")
    assert ff.payload.new_target == "su_rifles#2"
    assert st.units["su_rifles#2"].endurance == 2 and st.units["su_kv_1s#1"].endurance == 16
    assert st.vp == {"german": 0, "soviet": 0}


# -- 5. a void attack ----------------------------------------------------------------------------
def test_no_command_card_is_discarded_for_a_void_attack_but_it_is_still_a_resolution_choice():
    """000: "a. Choose an Attack to Resolve ... Attack choice alternates until all declared
    attacks are resolved"; R6.2: an attack whose target is gone is void. A Command card is
    discarded "before any die roll ... for a +1 Bonus to that die roll" (000): a void attack rolls
    no die, so no card may be spent on it (before: the card was discarded for nothing). The void
    attack stays its owner's choice, resolved as void (decision in docs/rules.md).

    SU-152 152 mm (infantry 9, DI 13) rolls 5+5 = 10 on Grenadiers, Intensity 5: 5 + 13 = 18
    destroys them; the Rifle squad's attack on the same Grenadiers is then void."""
    st = _to_resolution(
        game(
            (),
            (),
            g_units=(SU("de_grenadiers", "front"),),
            s_units=(SU("su_su152", "front", "su_tank_crew_regular"), SU("su_rifles", "front")),
        ),
        Declare("soviet", "su_su152#1", "de_grenadiers#1", (0,)),
        Declare("soviet", "su_rifles#1", "de_grenadiers#1", (0,)),
    )
    _resolve_first(st, "soviet")
    script(st, 5, 5, 5)
    st.apply(Resolve("soviet", 1))
    assert "de_grenadiers#1" not in st.units
    _resolve_first(st, "soviet")
    card = st.hand_commands["soviet"][0]
    with pytest.raises(IllegalLinesCommand, match="void"):
        st.apply(Resolve("soviet", 2, card))
    with pytest.raises(IllegalLinesCommand, match="void"):
        st.apply(Resolve("soviet", 2, None, ("to_hit:0",), (card,)))
    listed = [c for c in st.legal_commands("soviet") if isinstance(c, Resolve) and c.number == 2]
    assert listed == [Resolve("soviet", 2)]
    evs = st.apply(Resolve("soviet", 2))
    assert any(e.kind == "attack_void" for e in evs) and card in st.hand_commands["soviet"]


# -- 6. the computer and an empty Reserves deck ----------------------------------------------------
def test_the_computer_draws_no_card_from_an_empty_reserves_deck():
    """000 Draw Phase: "Draw 1 Command card. Draw any combination of 2 additional cards (Command
    or Unit from Reserves)." With its Reserves deck empty a draw from it gives nothing: the
    computer (with 0 unit cards in hand, which otherwise takes 2 from the Reserves) draws both
    from the Command deck."""
    st = game((), (), g_units=(SU("de_grenadiers", "front"),), s_units=(SU("su_rifles", "front"),))
    end_until(st, Phase.DRAW)
    assert st.reserves["german"] == [] and st.hand_units["german"] == [] and st.command_deck
    while st.to_act != "german":
        st.apply(next(c for c in st.legal_commands() if c.name in ("draw", "end_phase", "discard")))
    cmd = make_lines_player("standard", "german", 1).choose(st)
    assert isinstance(cmd, Draw) and cmd.extra == ("command", "command")
    before = len(st.hand_commands["german"])
    st.apply(cmd)
    assert len(st.hand_commands["german"]) - before == 3 or not st.command_deck
