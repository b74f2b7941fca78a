"""The campaign window's trips found by playing a whole year as a new player would (issue 36,
docs/screenshots/README.md), each pinned here; and the screen's widget tree (issue 34): every
panel inside the window, no two panels overlapping, every text inside its own panel, at every
size of :data:`hexwar.ui.layout_check.SIZES`."""

from __future__ import annotations

import pytest

from hexwar.campaign.ai import make_player
from hexwar.campaign.state import new_campaign
from hexwar.render.mesh import TexMesh
from hexwar.ui.campaign_controller import CampaignController
from hexwar.ui.campaign_panels import PANELS, CampaignLayout, panel_problems
from hexwar.ui.campaign_screen import paint_campaign
from hexwar.ui.layout_check import SIZES, layout_problems
from hexwar.ui.widgets import MonoMeasure, Painter, top_hit


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure (0.55 em a character, near DejaVu's) and draws nothing."""

    advance = 0.55

    def text(self, *a, **k):
        return TexMesh.empty()


def _ctl(seed: int = 1941) -> CampaignController:
    st, _ = new_campaign(seed)
    return CampaignController(st, ai={"soviet": make_player("standard", "soviet", seed)}, reveal_seconds=0.0)


def _settle(c: CampaignController) -> None:
    while c.update():
        pass
    c.skip_reveal()


def _paint(c: CampaignController, w: float = 1400, h: float = 900) -> tuple[Painter, CampaignLayout]:
    p = Painter(FakeAtlas())
    root = paint_campaign(p, c, w, h)
    return p, root


def _battle(c: CampaignController, key: str = "1") -> None:
    c.key(key)
    c.key("ENTER")
    _settle(c)


def _start(c: CampaignController) -> None:
    c.key("Q")
    c.key("ENTER")
    _settle(c)


def test_the_year_end_summary_is_drawn_after_the_last_battle_of_the_year():
    """Trip: after battle 7 of 1941 the screen went straight to 1942 with no summary (the
    controller made one; nothing drew it)."""
    c = _ctl()
    _start(c)
    for _ in range(7):
        _battle(c)
    assert c.state.year == 1942 and c.state.phase == "choose_tactics"
    for w, h in ((1400, 900), (800, 600)):
        p, _ = _paint(c, w, h)
        assert c.year_summary[0] in p.texts, (w, h)  # "1941 is over: the 1941 year card goes to ..."
        assert any(t.startswith("battles won: German ") for t in p.texts)
    c.key("Q")
    c.key("W")
    c.key("ENTER")
    _settle(c)  # 1942's tactic cards chosen: the Soviet places battle 1; the summary stays until ours
    p, _ = _paint(c)
    assert c.year_summary[0] in p.texts
    _battle(c)
    p, _ = _paint(c)
    assert c.year_summary == [] and not any(" is over: " in t for t in p.texts)


def test_key_a_shows_the_hint_and_a_button_does_the_same():
    """Trip: A (what the hard player would have played) changed nothing on screen, and no
    button offered it to a mouse-only player."""
    c = _ctl()
    _start(c)
    _battle(c)
    assert c.hint
    p, _ = _paint(c)
    assert not any(t.startswith("Hint: ") for t in p.texts)
    button = next(b for b in p.widgets if b.action == c.toggle_hint)
    c.key("A")
    p, _ = _paint(c)
    assert any(t.startswith("Hint: ") for t in p.texts)
    hint = next(t for t in p.texts if t.startswith("Hint: "))
    assert hint.startswith(f"Hint: {c.hint[:20]}")
    assert "Hide hint" in p.texts
    x, y = button.centre
    hit = top_hit(p.widgets, x, y)
    assert hit is not None and hit.action is not None
    hit.action()  # the button hides it again
    p, _ = _paint(c)
    assert not any(t.startswith("Hint: ") for t in p.texts)


def test_a_fought_battle_beside_the_next_battles_cards_is_labelled_with_its_number():
    """Trip: once the computer placed the next battle's card, the last battle's "score 6 - 4"
    and "German wins the battle" sat beside the new battle's slots as if it were that one."""
    c = _ctl()
    _start(c)
    _battle(c)
    assert c.state.battle == 2 and c.state.slots["soviet"] is not None  # the computer placed first
    p, _ = _paint(c)
    last = c.state.history[-1]
    assert not any(t.startswith("score ") for t in p.texts)
    assert f"battle 1: {last.german_score} - {last.soviet_score}" in p.texts
    who = {"german": "German", "soviet": "Soviet"}.get(last.winner or "")
    if who:
        assert any(t.startswith(f"{who} won battle 1 (") for t in p.texts)
    else:
        assert "Battle 1: stalemate" in p.texts


@pytest.mark.parametrize("size", [(1400, 900), (800, 600)], ids=["1400x900", "800x600"])
def test_every_tactic_cards_text_is_shown_whole_while_placing(size):
    """Trip: with the odds on it, Bluff read "returns to your hand after use (not" (three
    lines kept, no mark of the cut); at 800x600 "the oppone... tactic"."""
    from hexwar.campaign.cards import card_help

    c = _ctl()
    _start(c)  # Q: Bluff, the longest text
    assert c.state.phase == "place" and c.state.tactics_hand["german"]
    p, _ = _paint(c, *size)
    assert any("%" in t for t in p.texts)  # the odds are on the cards
    words = " ".join(p.texts).split()
    for t in c.state.tactics_hand["german"]:
        for word in card_help(c.state.cards, t).split(": ", 1)[1].split():
            assert word in words, (t, word)


def test_the_events_in_play_are_named_at_800x600():
    """Trip: at 800x600 the top bar had no room and the event cards in play were not shown."""
    c = _ctl()
    for w, h in SIZES:
        p, root = _paint(c, w, h)
        title = c.state.cards.title(c.state.events_in_play[0])
        shown = [  # what the top bar and the opponent row drew (the log names it too)
            b[4] for name in ("top bar", "opponent") for b in p.text_boxes[slice(*root.spans[name])]
        ]
        assert any(title in t for t in shown), (w, h, root.events_on_top)


def test_the_history_names_the_winner_before_the_cards():
    """Trip: "1941/2: schwere Panzer-Abteilung 7 - 6 Guards Rifle Divisio..." cut the winner off."""
    c = _ctl()
    _start(c)
    for _ in range(3):
        _battle(c)
    p, _ = _paint(c, 800, 600)
    for rec in c.state.history:
        who = {"german": "German", "soviet": "Soviet"}.get(rec.winner or "", "nobody")
        assert f"{rec.year}/{rec.number} {who}:" in p.texts


def test_no_empty_list_prints_as_nothing():
    """Trip: "tactic cards: ; used: Flank Attack" once the opponent's were all played."""
    c = _ctl()
    _start(c)
    for _ in range(3):
        _battle(c)
    p, _ = _paint(c)
    assert not any(": ;" in t or t.endswith(": ") for t in p.texts)


def test_the_widget_tree_is_built_once_per_size_and_every_panel_holds_its_texts():
    """Issue 34: the campaign screen as widgets. The tree is the same object while the size
    stays, a new one when it changes; at every size every panel lies in the window, no two
    panels overlap, every text lies inside its panel, and the painter's layout check holds."""
    c = _ctl()
    _start(c)
    _battle(c)
    p = Painter(FakeAtlas())
    root = paint_campaign(p, c, 1400, 900)
    assert paint_campaign(Painter(FakeAtlas()), c, 1400, 900, root) is root
    assert paint_campaign(Painter(FakeAtlas()), c, 800, 600, root) is not root
    assert [ch.tip for ch in root.children] == list(PANELS)
    found: list[str] = []
    for w, h in SIZES:
        for helping in (False, True):
            c.show_help = helping
            p = Painter(FakeAtlas())
            root = paint_campaign(p, c, w, h)
            found += panel_problems(root, p, f"campaign help={helping}")
            found += layout_problems(p, w, h, f"campaign help={helping}")
    c.show_help = False
    assert not found, "\n".join(found)


def test_panel_problems_finds_a_text_outside_its_panel():
    """The check itself: a text drawn below its panel is reported with the panel's name."""
    c = _ctl()
    p = Painter(FakeAtlas())
    root = paint_campaign(p, c, 1400, 900)
    first, end = root.spans["top bar"]
    x0, y0, x1, y1, s, z = p.text_boxes[first]
    p.text_boxes[first] = (x0, y0 - 200, x1, y1 - 200, s, z)
    got = panel_problems(root, p)
    assert len(got) == 1 and "leaves panel 'top bar'" in got[0] and repr(s) in got[0]


def test_the_last_battles_card_is_not_left_picked_into_the_next_year():
    """Trip: after battle 7 the card placed in it stayed framed as picked in 1942's hand."""
    c = _ctl()
    _start(c)
    for _ in range(7):
        _battle(c, "1")
    assert c.state.year == 1942 and c.picked_battle is None and c.picked_tactic is None
    p, _ = _paint(c)
    first = c.state.cards.title(c.state.hands["german"][0])
    assert first in p.texts


def test_the_reveal_is_titled_with_the_battle_being_revealed():
    """Trip: while battle 1's cards were being turned over the table was titled "battle 2 of 7"
    (the war had moved on; the reveal is paced)."""
    from hexwar.ui.clock import ManualClock

    st, _ = new_campaign(1941)
    clock = ManualClock()
    c = CampaignController(st, ai={"soviet": make_player("standard", "soviet", 1941)}, clock=clock,
                           reveal_seconds=1.0)  # fmt: skip
    _start(c)
    c.key("1")
    c.key("ENTER")
    assert c.revealing and st.battle == 2
    p, _ = _paint(c)
    assert "1941, battle 1 of 7: the cards are turned over" in p.texts
    assert not any(t.startswith("1941, battle 2") for t in p.texts)
    while c.revealing:
        clock.advance(1.0)
        c.update()
    p, _ = _paint(c)
    assert any(t.startswith("1941, battle 1 of 7") or t.startswith("1941, battle 2 of 7") for t in p.texts)
