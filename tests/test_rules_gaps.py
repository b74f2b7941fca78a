"""Rules gaps of issue 13, worked by hand: R1.3 on every roll (to-hit by rate of fire, the second
weapon, Intensity, close-assault dice, initiative, the fire damage check; never fire spread),
crew fate from the destroying attack's Intensity die (000 step g; rules revision 2 and the
migration of older saves), moving crews in Commitment (001) and variant ``crews-fight`` (000's
optional rule, R11.3); plus random games with the new choices under the invariants."""

from __future__ import annotations

import json

import pytest
from game_helpers import H, advance_to, place, scenario, script_dice, step

from hexwar.game import ruleset
from hexwar.game.ai import make_player
from hexwar.game.commands import Declare, DeclareCloseAssault, Draw, IllegalCommand, MoveCrew, Resolve
from hexwar.game.save import read_save, save_data
from hexwar.game.state import Phase, check_invariants
from hexwar.rules.combat import RULES_REVISION


def empty(variants=()):
    return scenario("game_empty").new_game(seed=1, variants=variants)


def give_card(g, side):
    """Move the top Command card of the deck into ``side``'s hand (a real zone change)."""
    c = next(x for x in g.command_deck if not ruleset.is_event(x))
    g.command_deck.remove(c)
    g.hand_commands[side].append(c)
    return c


def rolls(events, kind="to_hit"):
    """The to-hit rolls of ``events`` (``kind="roll"``: every die roll, in order)."""
    if kind == "roll":
        return [e.data for e in events if e.kind == "roll"]
    return [e.data["roll"] for e in events if e.kind == kind]


def mg_attack(weapons=(1,)):
    g = empty()
    a = place(g, "de_pz_iv_g", "C05", crew="de_tank_crew_regular")
    t = place(g, "su_rifles", "E05")
    advance_to(g, Phase.DECLARATION, "german")
    g.apply(Declare("german", a.uid, t.uid, weapons))
    advance_to(g, Phase.RESOLUTION, "german")
    return g, min(g.attacks)


# -- R1.3 on every roll -----------------------------------------------------------------------
def test_a_command_card_adds_one_to_the_second_rate_of_fire_roll_only():
    g, n = mg_attack()  # MG 34s: rate of fire 2, needs 12 vs infantry
    card = give_card(g, "german")
    hand = len(g.hand_commands["german"])
    script_dice(g, 1, 2, 1, 2)  # 3: miss; 3 + 1 = 4: miss
    ev = g.apply(Resolve("german", n, bonus_rolls=("to_hit:1",), bonus_cards=(card,)))
    first, second = rolls(ev)
    assert first["modifiers"] == [] and first["result"] == 3
    assert second["modifiers"] == [["command card", 1]] and second["result"] == 4
    assert card in g.command_discard and len(g.hand_commands["german"]) == hand - 1
    assert not check_invariants(g)


def test_the_second_weapons_rolls_are_numbered_after_the_first_weapons_rate_of_fire():
    g, n = mg_attack(weapons=(0, 1))  # KwK 40 (rate of fire 1), then the MG 34s (2)
    assert ruleset.weapons("de_pz_iv_g")[0].rate_of_fire == 1
    card = give_card(g, "german")
    script_dice(g, 1, 2, 1, 2, 1, 2)  # three misses
    ev = g.apply(Resolve("german", n, bonus_rolls=("to_hit:1",), bonus_cards=(card,)))
    assert [r["modifiers"] for r in rolls(ev)] == [[], [["command card", 1]], []]
    assert "MG 34" in rolls(ev)[1]["purpose"]


def test_a_command_card_adds_one_to_the_intensity_die_of_the_hit():
    g, n = mg_attack()
    card = give_card(g, "german")
    # 6 + 6 = 12: hit; Intensity 2 + 1 = 3: 3 + DI 1 - Defense 0 = 4 damage to the squad (8 -> 4)
    script_dice(g, 6, 6, 2, 1, 2)
    ev = g.apply(Resolve("german", n, bonus_rolls=("intensity:0",), bonus_cards=(card,)))
    inten = rolls(ev, "roll")[1]
    assert inten["dice"] == "1d10" and inten["result"] == 3 and inten["modifiers"] == [["command card", 1]]
    dmg = next(e for e in ev if e.kind == "damage")
    assert dmg.data["raw"] == 3 and card in g.command_discard


def test_a_bonus_on_a_roll_that_is_never_made_keeps_its_card():
    g, n = mg_attack()
    card = give_card(g, "german")
    script_dice(g, 1, 2, 1, 2)  # two misses: no Intensity roll
    g.apply(Resolve("german", n, bonus_rolls=("intensity:0",), bonus_cards=(card,)))
    assert card in g.hand_commands["german"] and card not in g.command_discard


@pytest.mark.parametrize(
    "bad, why",
    [
        ((("to_hit:2",), 1), "makes no roll"),  # rate of fire 2: rolls 0 and 1 only
        ((("to_hit:0", "to_hit:0"), 2), "one Command card per roll"),
        ((("to_hit:0",), 0), "one Command card for each roll"),
        ((("assault_dice",), 1), "makes no roll"),
    ],
)
def test_bonus_rolls_are_refused_unless_the_attack_makes_them_one_card_each(bad, why):
    g, n = mg_attack()
    names, k = bad
    cards = tuple(give_card(g, "german") for _ in range(k))
    before = g.state_hash()
    with pytest.raises(IllegalCommand, match=why):
        g.apply(Resolve("german", n, bonus_rolls=names, bonus_cards=cards))
    assert g.state_hash() == before


def test_the_legal_commands_offer_a_bonus_on_every_roll_of_the_attack():
    g, n = mg_attack(weapons=(0, 1))
    card = g.hand_commands["german"][0]
    offered = [
        c.bonus_rolls for c in g.legal_commands() if isinstance(c, Resolve) and c.bonus_cards == (card,)
    ]
    assert offered == [
        (r,) for r in ("to_hit:0", "intensity:0", "to_hit:1", "intensity:1", "to_hit:2", "intensity:2")
    ]


def test_a_command_card_adds_one_to_the_close_assault_dice():
    g = empty()
    tank = place(g, "de_pz_iv_g", "E04", crew="de_tank_crew_regular")  # Defense 6
    inf = [place(g, c, h) for c, h in (("su_ptrd_team", "F04"), ("su_smg", "D04"), ("su_guards", "E05"))]
    advance_to(g, Phase.DECLARATION, "soviet")
    g.apply(DeclareCloseAssault("soviet", tuple(u.uid for u in inf), tank.uid))
    advance_to(g, Phase.RESOLUTION, "soviet")
    card = give_card(g, "soviet")
    n = next(k for k, a in g.attacks.items() if a.side == "soviet")
    assert set(c.bonus_rolls for c in g.legal_commands() if isinstance(c, Resolve) and c.attack == n) >= {
        (),
        ("to_hit:0",),
        ("assault_dice",),
    }
    script_dice(g, 6, 7, 3, 3, 3)  # 13 >= 12 hits; assault dice 3 + 3 + 3 + 1 = 10 - Defense 6 = 4
    ev = g.apply(Resolve("soviet", n, bonus_rolls=("assault_dice",), bonus_cards=(card,)))
    dice = [r for r in rolls(ev, "roll") if r["dice"] == "3d10"][0]
    assert dice["result"] == 10 and dice["modifiers"] == [["command card", 1]]
    assert next(e for e in ev if e.kind == "damage").data["raw"] == 10


def test_a_command_card_set_aside_at_the_draw_adds_one_to_the_next_initiative_roll():
    g = empty()
    place(g, "de_grenadiers", "C05")
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.DRAW, "german")
    card = g.hand_commands["german"][0]
    assert Draw("german", ("reserves", "reserves"), initiative_card=card) in g.legal_commands() or any(
        isinstance(c, Draw) and c.initiative_card == card for c in g.legal_commands()
    )
    extra = next(c.extra for c in g.legal_commands() if isinstance(c, Draw))
    ev = g.apply(Draw("german", extra, initiative_card=card))
    assert card in g.command_discard and any(e.kind == "roll_bonus" for e in ev)
    while g.turn == 1:
        step(g)
    ini = [e.data for e in g.log if e.kind == "roll" and e.data["purpose"] == "initiative german"][-1]
    assert ini["modifiers"] == [["command card bonus", 1]] and ini["result"] == ini["natural"] + 1
    sov = [e.data for e in g.log if e.kind == "roll" and e.data["purpose"] == "initiative soviet"][-1]
    assert sov["modifiers"] == []
    assert "initiative_bonus" not in g.pending["german"]


def test_fire_damage_check_may_be_lowered_by_one_with_a_command_card():
    g = empty()
    u = place(g, "de_grenadiers", "G02")
    g.battlemap.set_fire(H("G02"))
    g.battlemap.fire_turns[g.battlemap.index(H("G02"))] = 1
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.DRAW, "german")
    card = g.hand_commands["german"][0]
    assert any(isinstance(c, Draw) and c.fire_units == (u.uid,) for c in g.legal_commands())
    extra = next(c.extra for c in g.legal_commands() if isinstance(c, Draw))
    g.apply(Draw("german", extra, fire_units=(u.uid,), fire_cards=(card,)))
    # Begin Turn 2: spread 1+1 (+6) twice (unmodifiable); fire check 4 + 4 = 8 - 1 = 7 < 8: no hit
    script_dice(g, 1, 1, 1, 1, 4, 4)
    while g.turn == 1:
        step(g)
    check = next(e for e in g.log if e.kind == "fire_damage_check")
    assert check.data["command_card"] is True and check.data["hit"] is False and u.uid in g.units
    spread = [e.data for e in g.log if e.kind == "roll" and "spread" in e.data["purpose"]]
    assert spread and all(r["modifiers"] == [["fire spread", 6]] for r in spread)


def test_fire_spread_roll_is_never_offered_a_bonus():
    """003: spread rolls "may not be modified with CAPs": no command names them; a bonus is
    only taken for a unit that will take a fire damage check."""
    g = empty()
    g.battlemap.set_fire(H("G02"))
    place(g, "de_grenadiers", "C05")
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.DRAW, "german")
    offers = [c for c in g.legal_commands() if isinstance(c, Draw) and (c.fire_units or c.initiative_card)]
    assert offers and all(not c.fire_units for c in offers)  # nobody stands in the fire
    grenadiers = next(uid for uid in g.units if uid.startswith("de_grenadiers"))
    with pytest.raises(IllegalCommand, match="fire damage check"):
        g.apply(
            Draw(
                "german",
                ("command", "command"),
                fire_units=(grenadiers,),
                fire_cards=(g.hand_commands["german"][0],),
            )
        )


# -- item 11: crew fate and the rules revision -------------------------------------------------
def test_new_saves_record_the_rules_revision_and_old_saves_replay_with_revision_1(tmp_path):
    g = empty()
    data = save_data(g)
    assert data["rules_revision"] == RULES_REVISION == 2
    del data["rules_revision"]
    p = tmp_path / "old.json"
    p.write_text(json.dumps(data))
    assert read_save(p).rules_revision == 1
    data["rules_revision"] = 7
    p.write_text(json.dumps(data))
    with pytest.raises(Exception, match="rules_revision"):
        read_save(p)


def test_commands_without_the_new_choices_keep_their_round_1_json():
    assert Resolve("german", 3).to_json() == {
        "cmd": "resolve",
        "side": "german",
        "attack": 3,
        "bonus_card": None,
    }
    assert Draw("german").to_json() == {"cmd": "draw", "side": "german", "extra": ["command", "reserves"]}


# -- item 13: crews ----------------------------------------------------------------------------
def test_a_crew_moves_to_a_crewless_unit_next_to_it_in_commitment():
    g = empty()
    a = place(g, "de_pz_iv_g", "C05", crew="de_tank_crew_veteran")
    b = place(g, "de_pz_iv_g", "C06")  # crewless, next to it
    far = place(g, "de_pz_iv_g", "C08")  # crewless, 3 hexes away
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.COMMITMENT, "german")
    crew = a.crew
    legal = [c for c in g.legal_commands() if isinstance(c, MoveCrew)]
    assert legal == [MoveCrew("german", crew, b.uid)]
    with pytest.raises(IllegalCommand, match="next to"):
        g.apply(MoveCrew("german", crew, far.uid))
    g.apply(MoveCrew("german", crew, b.uid))
    assert a.crew is None and b.crew == crew and g.units[crew].crewing == b.uid
    assert g.units[crew].hex == H("C06") and not check_invariants(g)


def test_crews_do_not_move_in_games_of_rules_revision_1():
    g = empty()
    a = place(g, "de_pz_iv_g", "C05", crew="de_tank_crew_veteran")
    b = place(g, "de_pz_iv_g", "C06")
    place(g, "su_rifles", "J08")
    g.rules_revision = 1
    advance_to(g, Phase.COMMITMENT, "german")
    assert not any(isinstance(c, MoveCrew) for c in g.legal_commands())
    with pytest.raises(IllegalCommand, match="revision 2"):
        g.apply(MoveCrew("german", a.crew, b.uid))


def _destroy_crewed_tank(variants, crew):
    g = empty(variants)
    a = place(g, "su_t34_76", "E05", crew="su_tank_crew_regular")
    t = place(g, "de_pz_iv_g", "C05", crew=crew, endurance=3)
    advance_to(g, Phase.DECLARATION, "soviet")
    g.apply(Declare("soviet", a.uid, t.uid, (0,)))
    advance_to(g, Phase.RESOLUTION, "soviet")
    # F-34 needs 10: 5 + 5 hits; Intensity 2 + DI 7 - Defense 6 = 3 >= 3: destroyed; die 2: survives
    script_dice(g, 5, 5, 2)
    g.apply(Resolve("soviet", next(k for k, x in g.attacks.items() if x.side == "soviet")))
    assert t.uid not in g.units
    return g, t.crew


def test_crews_fight_a_regular_crew_of_a_destroyed_tank_stays_and_fights_as_infantry():
    g, crew = _destroy_crewed_tank(("crews-fight",), "de_tank_crew_regular")
    c = g.units[crew]
    assert c.crewing is None and c.hex == H("C05") and c.endurance == 4
    assert crew not in g.reserves["german"] and not check_invariants(g)
    card = ruleset.unit_card(c.card)
    assert [w.id for w in card.weapons] == ["mp40_crew"] and card.movement == 3 and card.mobility == "foot"
    assert next(e for e in g.log if e.kind == "crew").data["fate"] == "fights"


@pytest.mark.parametrize(
    "variants, crew", [((), "de_tank_crew_regular"), (("crews-fight",), "de_tank_crew_green")]
)
def test_without_the_variant_or_as_green_crew_a_surviving_crew_goes_under_the_reserves(variants, crew):
    g, cid = _destroy_crewed_tank(variants, crew)
    assert cid not in g.units and cid in g.reserves["german"]


# -- invariants over random games with the new choices -----------------------------------------
@pytest.mark.parametrize("i", range(8))
def test_random_games_with_bonuses_crew_moves_and_crews_fight_keep_the_invariants(i):
    seed = 7000 + i
    variants = ("crews-fight",) + (("classic",) if i % 2 else ())
    g = scenario("game_tiny").new_game(seed=seed, variants=variants)
    kinds = ("random", "standard")
    players = {
        "german": make_player(kinds[i % 2], "german", seed),
        "soviet": make_player("random", "soviet", seed),
    }
    n = 0
    while not g.over:
        cmd = players[g.to_act].choose(g)
        g.apply(cmd)
        n += 1
        broken = check_invariants(g)
        assert not broken, f"seed {seed}, after command {n} ({cmd}): {broken[:3]}"
        assert n < 5000, f"seed {seed}: no end"


def test_the_random_games_use_the_new_choices():
    used = {"bonus": 0, "draw": 0}
    for i in range(8):
        seed = 7000 + i
        g = scenario("game_tiny").new_game(seed=seed, variants=("crews-fight",))
        players = {s: make_player("random", s, seed) for s in ("german", "soviet")}
        while not g.over:
            g.apply(players[g.to_act].choose(g))
        used["bonus"] += sum(1 for c in g.commands if isinstance(c, Resolve) and c.bonus_rolls)
        used["draw"] += sum(
            1 for c in g.commands if isinstance(c, Draw) and (c.initiative_card or c.fire_units)
        )
    assert used["bonus"] > 0 and used["draw"] > 0, used
