"""The play screen's side panel (issue 34 split of :mod:`hexwar.ui.panels`): the selected
unit's card (R4.1), the prepared attack's exact odds as labelled bars (R6), the artillery strike
(R9.3), the Damage cards drawn (R6.6), the objectives with the hold victory (R10.2) and the
combat log with every roll (R1.2)."""

from __future__ import annotations

import functools

from ..errors import HexwarError
from ..game import ruleset
from ..game.state import Phase, card_of
from ..render.looks import Looks
from .card_face import UNIT_CARD_SIZE, InPlay, paint_card, paint_unit_card, unit_card_height
from .controller import LogLine, PlayController
from .guidance import crew_need, crewless
from .play_layout import PANEL_SOLID, Layout, ScreenFlags
from .widgets import Painter, wrap
from .widgets.theme import (
    ACTIVE,
    DARK,
    DIM,
    ERROR,
    FAINT,
    LINE,
    ROLL,
    SECTION,
    TEXT,
    Colour,
)

__all__ = ["in_play_of_unit", "paint_side", "damage_cards_shown"]


def _section(p: Painter, x0: float, x1: float, y: float, title: str, right: str = "") -> float:
    """A section header at ``y`` (its top); returns the y below it."""
    p.rect(x0, y - 22, x1, y, SECTION)
    p.text(title.upper(), x0 + 10, y - 11, 11, ACTIVE, style="bold")
    if right:
        p.text(right, x1 - 10, y - 11, 11, DIM, ax="right")
    return y - 28


def _unit_title(ctl: PlayController, uid: str) -> str:
    return ruleset.card_name(ctl.state.units[uid].card)


def paint_side(p: Painter, ctl: PlayController, lay: Layout, flags: ScreenFlags, looks: Looks) -> None:
    """Paint the side panel into ``lay.side``: the unit card, the odds, the strike, the Damage
    cards and the log (module doc)."""
    st = ctl.state
    x0, y0, x1, y1 = lay.side
    p.rect(x0, y0, x1, y1, PANEL_SOLID)
    p.rect(x0, y0, x0 + 1, y1, LINE)
    px0, px1 = x0 + 10, x1 - 10
    y = y1 - 8
    # a hand card under the mouse or the card cursor, or the picked one: in full (item 2)
    hand = ctl.hand_cards() if ctl.hand_visible() else []
    card = ctl.hover_card if ctl.hover_card in hand else None
    if card is None and ctl.card in hand and ctl.selected is None:
        card = ctl.card
    uid = ctl.selected if ctl.selected in st.units else None
    if card is not None:
        y = _card_block(p, ctl, card, x0, x1, y, min(300.0, (y1 - y0) * 0.5), looks)
    # the unit card (R4.1): selected, else the one under the cursor
    title = "Selected unit"
    if uid is None and card is None:
        us = ctl.units_at(ctl.hover)
        if us:
            uid, title = us[0], "Unit under the cursor"
    if uid is not None or card is None:
        y = _section(p, x0 + 6, x1 - 6, y, title, st.hex_label(st.units[uid].hex) if uid else "")
    if uid is None and card is None:
        p.text("Click a unit to select it; hover for its card.", px0, y - 6, 12, DIM, max_width=px1 - px0)
        y -= 22
    elif uid is not None:
        y = _unit_block(p, ctl, uid, px0, px1, y, max_lines=4 if card is None else 1, looks=looks)
    y -= 6
    # pre-attack odds (R6), artillery (R9), damage cards (R6.6)
    if ctl.pending is not None:
        y = _odds_block(p, ctl, px0, px1, y, x0, x1)
    elif (
        st.phase == Phase.RESOLUTION
        and ctl.last_attack is None
        and any(not a.resolved for a in st.attacks.values())
    ):
        pass
    if ctl.strike is not None and ctl.strike.turn >= st.turn - 1:
        y = _section(p, x0 + 6, x1 - 6, y, "Artillery strike", f"turn {ctl.strike.turn}")
        s = ctl.strike
        for ln in wrap(p.atlas, s.text, px1 - px0, 12)[:3]:
            p.text(ln, px0, y - 6, 12, TEXT)
            y -= 17
        left = " · ".join(f"{k.capitalize()} {v}" for k, v in st.artillery_left.items())
        p.text(f"Missions left: {left}", px0, y - 6, 11, DIM)
        y -= 24
    if ctl.damage_cards or (uid is not None and st.units[uid].damage_card):
        y = _damage_block(p, ctl, uid, x0, x1, y, max(0.0, y - y0 - 120))
    if st.scenario.objectives and y - y0 > 220:  # R10.2: what they are worth, and the hold victory
        y = _objectives_block(p, ctl, x0, x1, y)
    # the combat log fills the rest (every roll, R1.2)
    _log_block(p, ctl, x0, x1, y0 + 8, y, flags)


def _objectives_block(p: Painter, ctl: PlayController, x0: float, x1: float, y: float) -> float:
    """The objectives' section (R10.2): the objective points each side holds now in its header,
    and the scenario's hold victory (who wins holding how many at the end of which turn) or the
    points comparison at the turn limit under it; returns the y below."""
    from ..game.victory import hold_sentence, objective_points

    st = ctl.state
    held = objective_points(st)
    n = len(st.scenario.objectives)
    y = _section(
        p, x0 + 6, x1 - 6, y, f"Objectives ({n})", f"German {held['german']} · Soviet {held['soviet']} pts"
    )
    hold = hold_sentence(st)
    text = (
        f"Hold victory: {hold}."
        if hold is not None
        else f"At the end of turn {st.scenario.turns} they count with the victory points (R10.2)."
        if st.scenario.turns
        else "They count with the victory points (R10.2)."
    )
    for ln in wrap(p.atlas, text, x1 - x0 - 20, 12)[:3]:
        p.text(ln, x0 + 10, y - 6, 12, TEXT)
        y -= 17
    return y - 8


#: a Damage card's size in the side panel (points): its band, the edge's title, three lines of
#: effect and its footer
DAMAGE_CARD_W, DAMAGE_CARD_H = 236.0, 92.0


def damage_cards_shown(ctl: PlayController, uid: str | None) -> list[str]:
    """The units whose Damage card the side panel draws (R6.6), at most two: ``uid``'s (the
    selected or hovered unit) first, then those of the last Damage cards drawn (found by the
    unit's card name in the log line) that still carry one and that the shown side sees."""
    st = ctl.state
    out: list[str] = [uid] if uid is not None and uid in st.units and st.units[uid].damage_card else []
    for dl in reversed(ctl.damage_cards):
        if len(out) >= 2:
            break
        for vid, u in st.units.items():  # only units the shown side sees on the map (R12.2)
            if vid in out or not u.damage_card or ruleset.card_name(u.card) not in dl.text:
                continue
            if vid in ctl.units_at(u.hex):
                out.append(vid)
                break
    return out[:2]


def _damage_block(
    p: Painter, ctl: PlayController, uid: str | None, x0: float, x1: float, y: float, room: float
) -> float:
    """The Damage cards section (R6.6, issue 36: it was lines of text): the Damage card on the
    shown unit and on the units of the last draws, each drawn as its card
    (:func:`hexwar.ui.card_face.paint_paper_card`: the edge for the unit's type, its effect, the
    turns left or "permanent" and the unit it lies under, in its footer), as many as ``room``
    points hold; returns the y below."""
    from .card_face import paint_paper_card

    y = _section(p, x0 + 6, x1 - 6, y, "Damage cards", f"{len(ctl.damage_cards)} drawn")
    w = min(x1 - x0 - 24, DAMAGE_CARD_W)
    for vid in damage_cards_shown(ctl, uid):
        if room < DAMAGE_CARD_H + 8:
            break
        ip = in_play_of_unit(ctl, vid)
        if ip.damage is None:
            continue
        title, effect, turns = ip.damage
        u = ctl.state.units[vid]
        lasts = f"{turns} turn{'s' if turns != 1 else ''} left" if turns else "permanent"
        paint_paper_card(p, "damage", title, [effect.removeprefix(title + ": ")], x0 + 12, y - DAMAGE_CARD_H, w,
                         DAMAGE_CARD_H, footer=f"{lasts} - under {ruleset.card_name(u.card)}")  # fmt: skip
        y -= DAMAGE_CARD_H + 8
        room -= DAMAGE_CARD_H + 8
    return y - 4


def _card_block(
    p: Painter, ctl: PlayController, card: str, x0: float, x1: float, y: float, h: float, looks: Looks
) -> float:
    """A hand card drawn in full (every fact, R4.1/R4.3) with what it needs beside it (R5.2)."""
    kind = "unit" if card_of(card) in ruleset.cards().units else "command"
    need = crew_need(card) if kind == "unit" else None
    y = _section(p, x0 + 6, x1 - 6, y, "Card", "needs " + need if need else "")
    c = ruleset.unit_card(card_of(card)) if kind == "unit" else ruleset.command_card(card_of(card))
    w = min(x1 - x0 - 24, UNIT_CARD_SIZE[0] + 24)
    ch = min(h, unit_card_height(c) + 4) if kind == "unit" else min(h, 170.0)
    paint_card(p, c, x0 + 12, y - ch, w, ch, looks=looks, rules=ruleset.cards().rules)
    y -= ch + 8
    if need:
        lacking = card in crewless(ctl.hand_pick if ctl.state.phase == Phase.SETUP else ctl.hand()[0])
        text = f"Needs {need} from your hand to be committed (R5.2)" + (
            ": none kept yet." if lacking else "."
        )
        for ln in wrap(p.atlas, text, x1 - x0 - 24, 12)[:2]:
            p.text(ln, x0 + 12, y - 6, 12, ERROR if lacking else DIM)
            y -= 16
    return y - 6


def in_play_of_unit(ctl: PlayController, uid: str) -> InPlay:
    """What unit ``uid``'s card in play shows beyond its printed face
    (:class:`hexwar.ui.card_face.InPlay`): current Endurance (R6.5), its crew (or "no crew"
    when it needs one, R5.2), the edge of its Damage card for its type with the turns left
    (R6.6), Turns of Flight left aloft (R7.4) and the Command cards under it (R4.3)."""
    u = ctl.state.units[uid]
    card = ruleset.unit_card(u.card)
    crew = ruleset.card_name(u.crew) if u.crew else ("no crew" if ruleset.needs_crew(u.card) else None)
    dmg = None
    if u.damage_card:
        dc = ruleset.cards().damage.get(card_of(u.damage_card))
        if dc is not None:
            try:
                edge = dc.side_for(card.target_type)
                dmg = (edge.title, edge.describe(ruleset.cards().rules), u.damage_turns or None)
            except HexwarError:  # pragma: no cover - validation gives every card every edge
                dmg = (card_of(u.damage_card), "", u.damage_turns or None)
    under = ", ".join(ruleset.card_name(c) for c in u.command_cards)
    return InPlay(u.endurance, crew, dmg, u.flight_turns if u.aloft else None, under)


def _unit_block(
    p: Painter,
    ctl: PlayController,
    uid: str,
    px0: float,
    px1: float,
    y: float,
    max_lines: int,
    looks: Looks | None = None,
    z: int = 0,
) -> float:
    """Unit ``uid`` as its card in play (:func:`hexwar.ui.card_face.paint_unit_card`, R4.1),
    then what the card does not print: movement and ranges, its state now (MP left, aloft,
    captured), the Command cards under it and its note; returns the y below it."""
    st = ctl.state
    u = st.units[uid]
    card = ruleset.unit_card(u.card)
    ip = in_play_of_unit(ctl, uid)
    w = min(px1 - px0, UNIT_CARD_SIZE[0] + 24)
    h = unit_card_height(card, in_play=True) + (26.0 if ip.damage is not None else 0.0)
    paint_unit_card(p, card, px0, y - h, w, h, looks, ip, z=z)
    y -= h + 8
    move = f"Movement {card.movement} ({card.mobility})" if card.mobility else "Does not move"
    ranges = " / ".join(str(wp.range) for wp in card.weapons)
    bits = [move + (f"; range {ranges}" if ranges else "")]
    if st.phase == Phase.MOVEMENT and u.mp_left:
        bits.append(f"{u.mp_left:g} MP left")
    if u.side != u.owner:
        bits.append(f"captured from {u.owner}")
    lines = ["; ".join(bits)]
    lines += [f"Card under it: {ruleset.card_name(c)}" for c in u.command_cards]
    if card.note:
        lines.append("  " + card.note)
    n = 0
    for raw in lines:
        col = DIM if raw.startswith("  ") else TEXT
        for ln in wrap(p.atlas, raw.strip(), px1 - px0, 12):
            if n >= max_lines:
                return y
            p.text(ln, px0, y - 6, 12, col, z=z)
            y -= 16
            n += 1
    return y


def _odds_block(
    p: Painter, ctl: PlayController, px0: float, px1: float, y: float, x0: float, x1: float
) -> float:
    st = ctl.state
    pa = ctl.pending
    assert pa is not None
    y = _section(p, x0 + 6, x1 - 6, y, "Attack odds (exact)", "before you declare")
    att, tgt = st.units[pa.attacker], st.units[pa.target]
    tgt_name = ruleset.card_name(tgt.card) + (" (crew)" if pa.at_crew else "")
    p.text(
        f"{_unit_title(ctl, pa.attacker)}  >  {tgt_name}",
        px0,
        y - 6,
        13,
        TEXT,
        style="bold",
        max_width=px1 - px0,
    )
    y -= 20
    ttype = ruleset.unit_card(tgt.crew if pa.at_crew and tgt.crew else tgt.card).target_type
    from ..game import targeting

    for i, w in enumerate(ruleset.weapons(att.card)):
        if i not in pa.options:
            continue
        on = i in pa.weapons
        box = (px0, y - 13, px0 + 12, y - 1)
        p.rect(*box, ACTIVE if on else (90, 92, 96, 255))
        p.rect(box[0] + 1.5, box[1] + 1.5, box[2] - 1.5, box[3] - 1.5, ACTIVE if on else (30, 31, 34, 255))
        if on:
            p.line(box[0] + 2.5, box[1] + 6, box[0] + 5, box[1] + 3, 2.0, DARK)
            p.line(box[0] + 5, box[1] + 3, box[2] - 2, box[3] - 2.5, 2.0, DARK)
        av = w.attack_value(ttype)
        _, mode, hind = targeting.weapon_problem(st, pa.attacker, pa.target, i, pa.at_crew)
        need = (
            f"needs {av}"
            + (f" +{hind} hindrance" if hind else "")
            + (f", {mode}" if mode and mode != "direct" else "")
        )
        p.text(f"{i + 1}. {w.name}", px0 + 18, y - 7, 12, TEXT if on else DIM, max_width=px1 - px0 - 150)
        p.text(need, px1, y - 7, 12, ROLL if on else FAINT, ax="right")
        p.widget(px0, y - 15, px1 - px0, 17, functools.partial(ctl.toggle_weapon, i), f"weapon {i + 1}")
        y -= 19
    o = ctl.odds()
    if o is None:
        p.text("No odds: this attack is not legal as chosen.", px0, y - 6, 12, ERROR)
        return y - 26
    rows = (
        ("Destroyed", o.destroyed, (192, 57, 43, 255)),
        ("Damage card", o.damage_card, (226, 120, 48, 255)),
        ("Damaged", o.damaged, (214, 169, 40, 255)),
        ("No effect", o.no_effect, (132, 136, 128, 255)),
        ("Miss", o.miss, (86, 90, 96, 255)),
    )
    y -= 2
    bw = px1 - px0 - 150
    for name, v, col in rows:
        p.text(name, px0, y - 6, 12, TEXT)
        p.rect(px0 + 92, y - 12, px0 + 92 + bw, y - 1, (24, 25, 28, 255))
        p.rect(px0 + 92, y - 12, px0 + 92 + bw * max(0.0, min(1.0, v)), y - 1, col)
        p.text(f"{100 * v:.1f}%", px1, y - 6, 12, TEXT, ax="right", style="bold")
        y -= 17
    p.text(
        f"Expected {o.expected_vp:.1f} VP, {o.expected_damage:.1f} Endurance; hit {100 * o.hit:.0f}%",
        px0,
        y - 6,
        11.5,
        DIM,
    )
    return y - 28


def _log_colour(line: LogLine) -> tuple[Colour, str, float]:
    k = line.kind
    if k == "begin_turn":
        return ACTIVE, "bold", 12.5
    if k == "phase":
        return (200, 176, 120, 255), "bold", 11.5
    if k == "roll":
        return ROLL, "regular", 11.5
    if k in ("destroyed", "damage_card", "crew_fate", "captured", "victory"):
        return ERROR, "regular", 12.0
    if k in ("to_hit", "damage", "extra_damage", "artillery_strike", "artillery_unit_attack"):
        return (236, 214, 170, 255), "regular", 12.0
    if k in ("end_phase", "deal", "hand", "draw", "discard", "auto_end"):
        return DIM, "regular", 11.5
    return TEXT, "regular", 12.0


def _log_block(
    p: Painter, ctl: PlayController, x0: float, x1: float, ybot: float, ytop: float, flags: ScreenFlags
) -> None:
    n = len(ctl.log)
    ytop = _section(p, x0 + 6, x1 - 6, ytop, "Combat log", f"{n} lines · PgUp/PgDn")
    px0, px1 = x0 + 10, x1 - 12
    rows: list[tuple[str, Colour, str, float]] = []
    avail = ytop - ybot
    # newest at the bottom; walk back until the space is full
    end = max(0, n - flags.log_scroll)
    i = end - 1
    used = 0.0
    while i >= 0 and used < avail:
        ln = ctl.log[i]
        col, style, size = _log_colour(ln)
        indent = 12.0 if ln.kind == "roll" else 0.0
        text = ln.text
        if ln.kind == "begin_turn":
            text = text.strip("= ").strip()
        parts = wrap(p.atlas, text, px1 - px0 - indent - (10 if ln.kind != "roll" else 0), size, style)
        block = [(("  " if k else "") + s, col, style, size) for k, s in enumerate(parts)]
        h = sum(15.5 if b[3] < 12.4 else 17 for b in block) + (6 if ln.kind == "begin_turn" else 0)
        if used + h > avail and rows:
            break
        rows[:0] = [
            (("\u2022 " if ln.kind == "roll" and k == 0 else "") + s, c, st_, sz)
            for k, (s, c, st_, sz) in enumerate(block)
        ]
        if ln.kind == "begin_turn":
            rows.insert(0, ("---", FAINT, "regular", 6.0))
        used += h
        i -= 1
    y = ytop - 4
    for s, col, style, size in rows:
        if s == "---":
            p.rect(px0, y - 3, px1, y - 2, (70, 72, 76, 255))
            y -= 6
            continue
        indent = 12.0 if col == ROLL else 0.0
        p.text(s, px0 + indent, y - 7, size, col, style=style, max_width=px1 - px0 - indent)
        y -= 15.5 if size < 12.4 else 17
    if flags.log_scroll:
        p.text(f"{flags.log_scroll} newer lines below", px1, ybot + 2, 10.5, DIM, ax="right")
