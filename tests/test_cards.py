"""Card data and decks (R4): every file validates, deck sizes, cross references, help text."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.errors import ValidationError
from hexwar.rules.cards import (
    CREW_TYPES,
    QUALITIES,
    SIDES,
    TARGET_TYPES,
    CardError,
    Deck,
    Effect,
    EffectKind,
    auto_reserves,
    build_command_deck,
    build_damage_deck,
    build_reserves_deck,
    card_id_of,
    default_cards,
    load_cards,
    validate_card_file,
)
from hexwar.rules.dice import Dice
from hexwar.validate import validate_file

CARDS = default_cards()
DATA = Path(__file__).resolve().parent.parent / "hexwar" / "data" / "cards"


# -- every file validates ------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(DATA.glob("*.toml")), ids=lambda p: p.name)
def test_every_card_file_validates(path):
    validate_card_file(str(path))
    assert validate_file(str(path)) == "hexwar-cards"  # `hexwar validate` knows card files


def test_deck_sizes_are_exactly_50_and_25():
    assert sum(c.copies for c in CARDS.command.values()) == 50
    assert len(CARDS.damage) == 25
    dice = Dice(1)
    cmd = build_command_deck(CARDS, dice)
    assert len(cmd) == 50 and len(set(cmd.cards)) == 50
    assert len(build_damage_deck(CARDS, dice)) == 25
    assert len(CARDS.events) >= 10


def test_each_damage_card_has_all_four_effects():
    for d in CARDS.damage.values():
        assert [s.target_type for s in d.sides] == list(TARGET_TYPES), d.id
        for s in d.sides:
            assert s.effects and s.title, (d.id, s.target_type)
        for ut in ("infantry", "vehicle", "gun", "aircraft", "tank_crew", "pilot"):
            assert d.side_for(ut).effects
    # some edges are temporary (built-in counters), some permanent
    turns = Counter(s.turns for d in CARDS.damage.values() for s in d.sides)
    assert turns[None] > 0 and sum(v for k, v in turns.items() if k) > 0


def test_no_unit_references_a_missing_weapon_or_crew_type():
    for u in CARDS.units.values():
        for w in u.weapons:
            assert CARDS.weapons[w.id] is w
        if u.needs_crew:
            assert u.crew in CREW_TYPES
            assert [c.quality for c in CARDS.crew_cards(u.side, u.crew)] == list(QUALITIES), u.id


def test_a_unit_naming_a_missing_weapon_or_crew_fails_to_load(tmp_path):
    folder = tmp_path / "cards"
    shutil.copytree(DATA, folder)
    units = folder / "units_soviet.toml"
    text = units.read_text()
    text = text.replace('weapons = ["f34", "dt_tank"]', 'weapons = ["f34", "dt_tonk"]', 1)
    text = text.replace('crew = "tank_crew"\ndefense = 7', 'crew = "horse_crew"\ndefense = 7', 1)
    units.write_text(text)
    with pytest.raises(ValidationError) as exc:
        load_cards(folder)
    msgs = [str(p) for p in exc.value.problems]
    assert any("units_soviet.toml" in m and "su_t34_76.weapons[1]" in m and "dt_tonk" in m for m in msgs), (
        msgs
    )
    assert any("su_kv_1s.crew" in m and "horse_crew" in m for m in msgs), msgs


def test_broken_card_files_report_every_problem_at_once(tmp_path):
    folder = tmp_path / "cards"
    shutil.copytree(DATA, folder)
    dmg = folder / "damage.toml"
    text = dmg.read_text()
    # drop dmg25's aircraft edge, and give dmg01 an unknown effect kind
    i = text.rindex("[damage.aircraft]")
    dmg.write_text(
        text[:i].replace('effects = [{ kind = "no_second_weapon" }]', 'effects = [{ kind = "teleport" }]', 1)
    )
    cmd = folder / "command.toml"
    cmd.write_text(
        cmd.read_text()
        .replace("copies = 4", "copies = 5", 1)
        .replace(
            'effects = [{ kind = "defense", value = 1 }]',
            'effects = [{ kind = "extra_damage", value = 1 }]',
            1,
        )
    )
    w = folder / "weapons.toml"
    w.write_text(w.read_text().replace("rof = 3", "rof = 7", 1))
    with pytest.raises(ValidationError) as exc:
        load_cards(folder)
    msgs = "\n".join(str(p) for p in exc.value.problems)
    assert "damage.dmg25.aircraft" in msgs and "all four" in msgs
    assert "teleport" in msgs
    assert "51 copies" in msgs and "50" in msgs
    assert "not allowed on command cards" in msgs
    assert "weapons.toml" in msgs and ".rof" in msgs
    assert len(exc.value.problems) >= 5


def test_bad_toml_and_wrong_header_are_clear_errors(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text(
        'format = "hexwar-cards"\nschema_version = 2\nkind = "units"\nside = "italian"\n[unit.it_x]\n'
    )
    with pytest.raises(ValidationError) as exc:
        validate_card_file(str(p))
    msgs = "\n".join(map(str, exc.value.problems))
    assert "schema_version" in msgs and "side" in msgs and "unit.it_x" in msgs
    p.write_text("format = [")
    with pytest.raises(ValidationError, match="bad TOML"):
        validate_card_file(str(p))


# -- the 1943 unit cards (R4.1, R4.4) -------------------------------------------------------------


REQUIRED = {
    "soviet": [
        "T-34/76 (1942)",
        "T-34/76 (1943)",
        "KV-1S",
        "T-70",
        "SU-76M",
        "SU-122",
        "SU-152",
        "45 mm",
        "ZiS-3",
        "122 mm M-30",
        "Il-2",
        "Yak-9",
    ],
    "german": [
        "Pz.Kpfw. III Ausf. M",
        "Pz.Kpfw. IV Ausf. G",
        "Pz.Kpfw. IV Ausf. H",
        "Tiger I",
        "Panther Ausf. D",
        "StuG III Ausf. G",
        "Marder III",
        "Sd.Kfz. 251",
        "PaK 40",
        "8.8 cm Flak",
        "leFH 18",
        "Ju 87 G",
        "Fw 190 F",
    ],
}


@pytest.mark.parametrize("side", SIDES)
def test_at_least_24_cards_per_side_with_the_required_types(side):
    units = CARDS.side_units(side, crews=False)
    assert len(units) >= 24
    names = [u.name for u in units]
    for want in REQUIRED[side]:
        assert any(want in n for n in names), want
    inf = [u for u in units if u.unit_type == "infantry"]
    assert any(w.flamethrower for u in inf for w in u.weapons)  # pioneers / assault engineers
    assert any("AT rifle" in u.name for u in inf)
    assert any("MG" in u.name for u in inf)
    assert any(any("SMG" in w.name or "MP 40" in w.name or "PPSh" in w.name for w in u.weapons) for u in inf)
    for t in ("vehicle", "gun", "aircraft"):
        assert any(u.unit_type == t for u in units)
    for ct in CREW_TYPES:
        crews = CARDS.crew_cards(side, ct)
        assert [CARDS.quality_of(c).attack for c in crews] == [-1, 0, 1]


def test_values_are_historically_sensible():
    u = CARDS.unit
    assert u("de_tiger_i").defense > u("su_t34_76").defense > u("su_t70").defense
    assert u("de_panther_d").defense >= 8 and u("de_ferdinand").defense > u("de_tiger_i").defense
    assert u("su_kv_1s").defense > u("su_t34_76").defense
    assert u("su_il2").defense > u("su_yak9").defense  # the armoured Shturmovik
    # the long 88 and the Panther's L/70 out-hit the T-34's F-34; the SU-152 hits hardest
    f34 = u("su_t34_76").weapons[0]
    assert u("de_tiger_i").weapons[0].attack_value("vehicle") < f34.attack_value("vehicle")
    assert u("de_panther_d").weapons[0].attack_value("vehicle") < f34.attack_value("vehicle")
    assert u("su_su152").weapons[0].damage_index > u("su_su122").weapons[0].damage_index > f34.damage_index
    # scale of seed 001's M4A1 Sherman (Defense 5, 14/7, cost 14; 75 mm: 10 vs vehicles, DI 7)
    for tank in ("su_t34_76", "de_pz_iv_g", "de_stug_iii_g"):
        c = u(tank)
        assert 4 <= c.defense <= 7 and 12 <= c.endurance_full <= 16 and 10 <= c.cost <= 16
    for c in CARDS.units.values():
        assert c.endurance_half < c.endurance_full
        for w in c.weapons:
            assert all(2 <= v <= 20 for _, v in w.attack)
            # rifle-calibre weapons fire bullets (underscored); cannon and heavy MGs do not
            bullets = any(k in w.name for k in ("MG", "rifles", "scope", "PPSh", "MP 40")) and not any(
                k in w.name for k in ("2 cm", "12.7", "DShK")
            )
            assert w.underscored == bullets, w.name
        if c.unit_type == "aircraft":
            assert c.turns_of_flight and c.mobility is None and all(w.range == 0 for w in c.weapons)
        elif c.unit_type == "gun":
            assert c.mobility is None and c.movement == 0 and c.crew == "artillery_crew"
        elif c.unit_type == "vehicle":
            assert c.mobility in ("tracked", "wheeled") and c.armored
        elif c.unit_type == "infantry":
            assert c.mobility == "foot" and c.soft
    spgs = [c for c in CARDS.units.values() if c.is_spg]
    assert {c.id for c in spgs} >= {"su_su76m", "su_su122", "su_su152"}
    assert all(c.weapons[0].indirect for c in spgs)
    assert u("de_sdkfz_251").crew == "infantry"


def test_find_unit_by_name_or_id():
    assert CARDS.find_unit("tiger").id == "de_tiger_i"
    assert CARDS.find_unit("SU_T34_76").id == "su_t34_76"
    with pytest.raises(CardError, match="several"):
        CARDS.find_unit("T-34")
    assert CARDS.find_unit("Sherman").id == "su_m4a2"  # the Lend-Lease M4A2 (issue 21)
    with pytest.raises(CardError, match="no unit card"):
        CARDS.find_unit("Matilda")


# -- effects and help text (R4.3) -----------------------------------------------------------------


def test_help_text_is_generated_from_the_data():
    tiger = CARDS.unit("de_tiger_i").help_text(CARDS)
    assert "Defense 8" in tiger and "Endurance 20 / Half 10" in tiger and "8.8 cm KwK 36" in tiger
    assert "veh 8" in tiger and "DI 10" in tiger and "range 14" in tiger
    assert "bullets" in CARDS.unit("de_grenadiers").help_text()
    # R4.1 crew required, read as English: "an artillery crew", "a tank crew"
    assert "needs an artillery crew;" in CARDS.unit("de_pak40").help_text()
    assert "needs a tank crew;" in tiger
    dmg = CARDS.damage["dmg01"].help_text(CARDS.rules)
    assert "Immobilized" in dmg and "-2 Defense" in dmg and "opponents +2" in dmg
    assert "for 1 turn" in CARDS.damage["dmg01"].side_for("aircraft").describe()
    assert CARDS.command["hull_down"].help_text().startswith("Hull Down (commitment phase, vehicle")
    assert "Soviet infantry units: +1 Defense" in CARDS.events["ev_order_227"].help_text()
    assert Effect(EffectKind.DEFENSE, 3).describe() == "+3 Defense"
    assert (
        Effect(EffectKind.MOVE_COST, 1, mobility="wheeled").describe()
        == "+1 movement point(s) per hex entered by wheeled units"
    )


def test_effects_are_typed_never_free_text():
    for c in CARDS.command.values():
        assert all(isinstance(e.kind, EffectKind) for e in c.effects)
    for d in CARDS.damage.values():
        assert all(isinstance(e.kind, EffectKind) for s in d.sides for e in s.effects)
    for ev in CARDS.events.values():
        assert all(isinstance(e.kind, EffectKind) for e in ev.effects)


# -- decks and card instances ----------------------------------------------------------------------


def test_command_deck_with_events_shuffled_in():
    dice = Dice(7)
    deck = build_command_deck(CARDS, dice, events=["ev_rasputitsa", "ev_order_227"])
    assert len(deck) == 52 and len(set(deck.cards)) == 52
    assert sum(CARDS.is_event(c) for c in deck.cards) == 2
    assert Counter(card_id_of(c) for c in deck.cards)["aimed_fire"] == 4
    assert dice.log[-1].dice == "shuffle"
    with pytest.raises(CardError, match="unknown Event"):
        build_command_deck(CARDS, dice, events=["ev_nope"])
    with pytest.raises(CardError, match="twice"):
        build_command_deck(CARDS, dice, events=["ev_rasputitsa", "ev_rasputitsa"])


def test_same_seed_same_deck_order():
    a = build_command_deck(CARDS, Dice(3)).cards
    b = build_command_deck(CARDS, Dice(3)).cards
    c = build_command_deck(CARDS, Dice(4)).cards
    assert a == b and a != c and sorted(a) == sorted(c)


def test_damage_deck_draws_then_reshuffles_its_discards():
    dice = Dice(1)
    deck = build_damage_deck(CARDS, dice)
    drawn = [deck.draw(dice) for _ in range(25)]
    assert len(set(drawn)) == 25 and len(deck) == 0
    deck.discard.extend(drawn[:3])
    assert deck.composition() == Counter(card_id_of(c) for c in drawn[:3])
    again = [deck.draw(dice) for _ in range(3)]
    assert sorted(again) == sorted(drawn[:3]) and deck.draw(dice) is None
    with pytest.raises(CardError, match="reshuffled"):
        Deck("damage", [], ["dmg01#1"], reshuffle=True).draw()
    assert Deck.from_json(deck.to_json()) == deck
    with pytest.raises(CardError):
        Deck.from_json({"name": "x", "cards": [1]})


def test_reserves_deck_budget_and_instances():
    ids = (
        ["su_t34_76", "su_t34_76", "su_tank_crew_regular", "su_tank_crew_veteran"]
        + ["su_rifles"] * 4
        + [
            "su_zis3",
            "su_artillery_crew_green",
            "su_smg",
            "su_smg",
            "su_maxim_team",
            "su_ptrd_team",
            "su_t70",
            "su_tank_crew_green",
        ]
    )
    total = sum(CARDS.unit(i).cost for i in ids)
    assert 80 <= total <= 100
    deck = build_reserves_deck(CARDS, "soviet", ids, Dice(2))
    assert sorted(deck.cards)[:2] == ["su_artillery_crew_green#1", "su_maxim_team#1"]
    assert {"su_t34_76#1", "su_t34_76#2", "su_rifles#4"} <= set(deck.cards)
    with pytest.raises(CardError, match="costs"):
        build_reserves_deck(CARDS, "soviet", ids[:5])
    with pytest.raises(CardError, match="german card"):
        build_reserves_deck(CARDS, "soviet", ids + ["de_tiger_i"], check_budget=False)


@given(st.integers(0, 2**32 - 1), st.sampled_from(SIDES))
def test_auto_reserves_are_legal_and_crewed(seed, side):
    picked = auto_reserves(CARDS, side, Dice(seed))
    assert 80 <= sum(CARDS.unit(i).cost for i in picked) <= 100
    counts = Counter(picked)
    for cid in picked:
        u = CARDS.unit(cid)
        assert u.side == side
    for ct in CREW_TYPES:
        needing = sum(n for cid, n in counts.items() if CARDS.unit(cid).crew == ct)
        having = sum(n for cid, n in counts.items() if CARDS.unit(cid).unit_type == ct)
        assert having >= needing


def test_at_least_100_unit_cards_and_every_one_is_used_by_a_shipped_scenario_or_pool():
    """Issue 21: 100+ unit cards of both sides; none is dead data - each appears in a shipped hex
    scenario's Reserves deck, budget pool or starting units (crews included)."""
    from pathlib import Path

    from hexwar.game.scenario import load_scenario

    assert len(CARDS.units) >= 100
    assert len(CARDS.side_units("german")) >= 45 and len(CARDS.side_units("soviet")) >= 45
    used: set[str] = set()
    for p in sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml")):
        if p.stem.startswith("lines"):
            continue
        for ss in load_scenario(p).sides.values():
            used |= (
                set(ss.reserves)
                | set(ss.pool)
                | {u.card for u in ss.units}
                | {u.crew for u in ss.units if u.crew}
            )
    assert sorted(set(CARDS.units) - used) == []
    # the Heavy Weapons kind and the late-1943 cards the issue names are all there
    for cid in (
        "de_ferdinand",
        "de_nashorn",
        "de_marder_iii",
        "de_wespe",
        "de_hummel",
        "de_nebelwerfer",
        "de_hs129b",
        "de_fw190f",
        "su_su76m",
        "su_su122",
        "su_valentine",
        "su_churchill",
        "su_katyusha",
        "su_zis3",
        "su_la5fn",
        "su_yak9t",
    ):
        assert cid in CARDS.units, cid
