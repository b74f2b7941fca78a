"""Cards drawn as cards (hexwar/ui/card_face.py, issue 36): a unit card as 001 "Card Types
Detailed" lays it out (Defense, title and line, cost, Half / Full Endurance, the armament table
per target type with rate of fire, underscored values and Damage Index; in play the current
Endurance, crew and Damage card), and Command, Event and Damage cards as paper cards; every text
inside its card and at 10 points or more. Values below are the Pz.Kpfw. IV Ausf. G's card
(hexwar/data/cards/units_german.toml, weapons.toml: KwK 40 L/43 11/9/10/- DI 8; MG 34s 2x
12/17/14/16 DI 1, underscored)."""

from __future__ import annotations

import pytest

from hexwar.lines.rules import cards
from hexwar.render.mesh import TexMesh
from hexwar.ui.card_face import MIN_TEXT, UNIT_CARD_SIZE, InPlay, armament_rows, paint_card, paint_unit_card
from hexwar.ui.widgets import MonoMeasure, Painter


class FakeAtlas(MonoMeasure):
    def text(self, *a, **k):
        return TexMesh.empty()


class RecPainter(Painter):
    """Records lines too (the underlines under underscored values)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.lines: list[tuple] = []

    def line(self, *a, **k):
        self.lines.append(a)
        return super().line(*a, **k)


X, Y = 20.0, 30.0


def _inside(p, w, h):
    for x0, y0, x1, y1, s, _ in p.text_boxes:
        assert X - 0.5 <= x0 and x1 <= X + w + 0.5 and Y - 0.5 <= y0 and y1 <= Y + h + 0.5, (
            s,
            x0,
            y0,
            x1,
            y1,
        )
    assert min(p.text_sizes) >= MIN_TEXT


def test_the_armament_table_reads_as_the_printed_card():
    rows = armament_rows(cards().unit("de_pz_iv_g"))
    assert rows[0] == (
        "7.5 cm KwK 40 L/43",
        "",
        [("11", False), ("9", False), ("10", False), ("", False)],
        "8",
    )
    name, rof, vals, di = rows[1]
    assert rof == "2x" and di == "1" and [v for v, _ in vals] == ["12", "17", "14", "16"]
    assert all(u for _, u in vals)  # R4.2: the MG's values are underscored


def test_a_unit_card_in_play_shows_every_part_inside_its_card():
    c = cards().unit("de_pz_iv_g")
    w, h = UNIT_CARD_SIZE[0], UNIT_CARD_SIZE[1] + 26
    p = RecPainter(FakeAtlas(0.5))
    ip = InPlay(5, "Panzer crew (regular)", ("Immobilized", "may not move; opponents +2 to attack it", None))
    paint_unit_card(p, c, X, Y, w, h, in_play=ip)
    t = p.texts
    for s in ("6", "Pz.Kpfw. IV Ausf. G", "14", "Frontline", "Half 7 / Full 14", "Armament", "Inf", "Veh", "Gun",
              "Air", "DI", "7.5 cm KwK 40 L/43", "11", "9", "10", "8", "End 5/14", "Panzer crew (regular)",
              "Damage: Immobilized"):  # fmt: skip
        assert s in t, s
    assert any(s.startswith("2x MG 34s") for s in t)
    # the underlines: one thin rectangle under each of the MG's four underscored values
    flat = [
        ln for ln in p.lines if ln[1] == ln[3] and ln[4] == 1.0
    ]  # (the 0.8 rule under the title row is not one)
    assert len(flat) == 4
    _inside(p, w, h)


@pytest.mark.parametrize("kind", ["command", "event", "damage"])
def test_command_event_and_damage_cards_are_drawn_as_cards(kind):
    cs = cards()
    defn = {
        "command": cs.command["hull_down"],
        "event": cs.events["ev_morning_mist"],
        "damage": next(iter(cs.damage.values())),
    }[kind]
    w, h = UNIT_CARD_SIZE[0], UNIT_CARD_SIZE[1] + (56 if kind == "damage" else 0)
    p = Painter(FakeAtlas(0.5))
    paint_card(p, defn, X, Y, w, h, rules=cs.rules)
    assert p.texts[0] == kind.upper()
    title = {"command": "Hull Down", "event": "Morning Mist", "damage": "Damage card 1"}[kind]
    assert title in p.texts
    if kind == "event":
        assert "lasts: 1 turn" in p.texts  # not "1 turns"
    if kind == "damage":  # one edge per unit type (R6.6)
        joined = " ".join(p.texts)
        assert all(f"{tt}:" in joined for tt in ("infantry", "vehicle", "gun", "aircraft"))
    _inside(p, w, h)


@pytest.mark.parametrize("w", [150.0, 170.0, 200.0])
def test_a_narrow_card_in_a_fanned_hand_keeps_its_armament_table(w):
    """Walk-through trip: hand cards 150-170 points wide showed "1 weapons (card too small for
    the table)" instead of the values; the columns narrow (one-letter headings) first."""
    from hexwar.ui.layout_check import layout_problems

    c = cards().unit("de_pz_iv_g")
    p = Painter(FakeAtlas(0.5))
    paint_unit_card(p, c, 0.0, 0.0, w, 110.0)
    assert not any("card too small" in t for t in p.texts)
    i = (
        p.texts.index("7.5 cm KwK 40 L/43")
        if "7.5 cm KwK 40 L/43" in p.texts
        else next(k for k, t in enumerate(p.texts) if t.startswith("7.5 cm"))
    )
    assert p.texts[i + 1 : i + 5] == ["11", "9", "10", "8"]
    assert not layout_problems(p, w, 110.0, f"card {w}")
