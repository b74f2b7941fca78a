"""The card table's action buttons: every key's action of the phase as a button, so the table is
played with the mouse alone as well as with the keyboard alone (issue 36).

:func:`table_buttons` says which buttons the phase offers (GL-free, tested headless);
:func:`button_widgets` lays them out as toolkit :class:`~hexwar.ui.widgets.Button` widgets,
each in its fixed slot (:data:`SLOTS`: the main action and End phase first, Bonus and Play card
under them, then the weapons), so no button moves between phases (the card table's side panel
holds them). Exactly
one button is *primary* (highlighted): what Enter / Space does now, or, in the Draw Phase
before drawing, the way of drawing Space takes (R5.5: one Command card plus two sources; V or a
click picks another way).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..lines.commands import DeclareCloseAssault, Draw, UseCommandCard
from ..lines.rules import card
from ..lines.state import Phase
from .widgets import Rect

__all__ = ["TableButton", "table_buttons", "draw_label", "button_widgets", "SLOTS", "PHASE_ROWS", "slot_of"]


@dataclass(frozen=True)
class TableButton:
    """One action button of the card table.

    Attributes:
        label: the text, with its key in brackets (``"End phase (Space)"``).
        action: what a click does (the controller's method for that key).
        primary: the one highlighted button (what Enter / Space does now).
        enabled: a disabled button is drawn dim and does nothing.
        tip: the hit box's name (tests, tooltips).
        short: a shorter label for a narrow slot (``"End phase"``), or ``""``.
    """

    label: str
    action: Callable[[], Any]
    primary: bool = False
    enabled: bool = True
    tip: str = ""
    short: str = ""


def draw_label(d: Draw) -> str:
    """A way of drawing for people: ``"1 Command + 2 Reserves"`` (R5.5: the Command card every
    draw takes, then the two sources of ``d.extra``)."""
    n_cmd = 1 + sum(1 for x in d.extra if x == "command")
    n_res = sum(1 for x in d.extra if x == "reserves")
    parts = [f"{n_cmd} Command"] + ([f"{n_res} Reserves"] if n_res else [])
    return " + ".join(parts)


def _draw_way(ctl: Any, i: int) -> bool:
    """Draw the ``i``-th legal way (a click on its button)."""
    draws = ctl.draw_options()
    if not 0 <= i < len(draws):
        return False
    ctl.choice = 0
    return bool(ctl.issue(draws[i]))


def table_buttons(ctl: Any) -> list[TableButton]:
    """The buttons of the phase for the person at the screen (none while the computer acts,
    behind the hand-over screen, or once the game is over or stopped).

    Args:
        ctl: the :class:`~hexwar.lines.table.TableController`.

    Returns:
        the buttons in reading order; at most one is ``primary``.
    """
    st = ctl.state
    seat = st.to_act
    if ctl.held():  # a resolution is shown: the next decision waits for this (or the pause)
        return [TableButton("Next (Space)", ctl.go_on, primary=True, tip="go on")]
    if st.over and getattr(ctl, "on_new_game", None) is not None:  # the next game, with a new seed
        return [TableButton("New game (N)", ctl.new_game, primary=True, tip="new game")]
    if st.over or ctl.stopped() or seat is None or not ctl.human_to_act() or ctl.passing:
        return []
    ph = st.phase
    end = TableButton("End phase (Space)", ctl.end_phase, tip="end phase", short="End phase")
    out: list[TableButton] = []
    if ph == Phase.SETUP:  # 000 setup: the Reserves cards are clicked in the picker, then taken
        from ..lines.actions.choose_hand import hand_size

        n = hand_size(st, seat)
        ready = len(ctl.picks) == n
        label = "Take this hand (Enter)" if ready else f"Take this hand ({len(ctl.picks)} of {n})"
        return [TableButton(label, ctl.confirm, primary=True, enabled=ready, tip="take hand")]
    if ph == Phase.COMMITMENT:
        opts = ctl.commit_options()
        out.append(
            TableButton("Commit (Enter)", ctl.confirm, primary=bool(opts), enabled=bool(opts), tip="commit")
        )
        if len(opts) > 1:
            out.append(TableButton(f"Next way (V, {len(opts)})", ctl.next_choice, tip="next way"))
        hand = st.hand_commands.get(seat, ())
        if ctl.selected in hand:
            out.append(TableButton("Play card (P)", ctl.play_card, tip="play card"))
        out.append(TableButton(end.label, end.action, primary=not opts, tip=end.tip, short=end.short))
        return out
    elif ph == Phase.DECLARATION:
        # Declare is offered (and highlighted) only when the declaration is legal as chosen (R6.1)
        ready = ctl.selected in st.units and ctl.target is not None and ctl.attack_odds() is not None
        out.append(TableButton("Declare (Enter)", ctl.confirm, primary=ready, enabled=ready, tip="declare"))
        if ctl.selected in st.units:
            ws = card(ctl.selected).weapons
            for i, w in enumerate(ws):  # every weapon (R6.1: any two of them)
                mark = "[x]" if i in ctl.weapons else "[ ]"
                out.append(
                    TableButton(
                        f"{mark} {i + 1}. {w.name}", partial(ctl.toggle_weapon, i), tip=f"weapon {i + 1}"
                    )
                )
        if ctl.target is not None and any(
            isinstance(c, DeclareCloseAssault) and c.target == ctl.target for c in st.legal_commands()
        ):
            out.append(TableButton("Close Assault (A)", ctl.close_assault, tip="close assault"))
        out.append(TableButton("Bonus +1 (B)", ctl.offer_bonus, tip="bonus"))
        out.append(TableButton(end.label, end.action, primary=not ready, tip=end.tip, short=end.short))
    elif ph == Phase.RESOLUTION:
        out.append(TableButton("Resolve (R)", ctl.resolve, primary=True, tip="resolve"))
        out.append(TableButton("Bonus +1 (B)", ctl.offer_bonus, tip="bonus"))
    elif ph == Phase.DRAW:
        draws = ctl.draw_options()
        if draws:
            chosen = (ctl._default_draw(draws) + ctl.choice) % len(draws)
            for i, d in enumerate(draws):
                key = " (Space)" if i == chosen else ""
                out.append(
                    TableButton(
                        f"Draw {draw_label(d)}{key}",
                        partial(_draw_way, ctl, i),
                        primary=i == chosen,
                        tip=f"draw {i + 1}",
                    )
                )
        else:
            in_hand = ctl.selected in (*st.hand_units.get(seat, ()), *st.hand_commands.get(seat, ()))
            out.append(TableButton("Discard (Delete)", ctl.discard, enabled=in_hand, tip="discard"))
            out.append(TableButton(end.label, end.action, primary=True, tip=end.tip, short=end.short))
    else:
        out.append(TableButton(end.label, end.action, primary=True, tip=end.tip, short=end.short))
    if _playable_now(ctl, st):  # a Command card of any phase (R4.3), not only Commitment's
        out.insert(len(out) - 1 if out and out[-1].tip == "end phase" else len(out),
                   TableButton("Play card (P)", ctl.play_card, tip="play card"))  # fmt: skip
    return out


def _playable_now(ctl: Any, st: Any) -> bool:
    """Whether the selected hand card is a Command card with a legal play now (R4.3): the
    mouse's way to what P does, offered only where P would play it."""
    if ctl.selected not in st.hand_commands.get(st.to_act, ()):
        return False
    return any(isinstance(c, UseCommandCard) and c.card == ctl.selected for c in st.legal_commands())


#: Each button's fixed slot, by its tip: ``(row, column)``; column 0 / 1 is a half of the row,
#: ``None`` the whole row. A button keeps its slot in every phase (fresh-user pass, item 8:
#: buttons laid out one after another shifted between phases and with the selection). The
#: weapons (``"weapon k"``, R6.1: any of the unit's, up to three on a card) and the other ways
#: of drawing (``"draw k"``, R5.5: as many as Draw effects such as Supply Run give, k >= 2)
#: take a whole row each, from row 2 (:func:`slot_of`).
SLOTS: dict[str, tuple[int, int | None]] = {
    **{t: (0, 0) for t in ("take hand", "commit", "declare", "resolve", "discard", "go on", "new game")},
    "draw 1": (0, None),  # the ways of drawing a whole row each (no End phase beside them)
    "end phase": (0, 1),
    "bonus": (1, 0),
    "next way": (1, 0),
    "play card": (1, 1),
    "close assault": (2, 0),
    **{f"weapon {k}": (2 + k, None) for k in (1, 2, 3)},
    **{f"draw {k}": (k, None) for k in range(2, 9)},
}

#: rows a phase keeps for its buttons even while some are not offered (the Declaration
#: Phase's weapons and Close Assault come with the selection: the odds below stay put)
PHASE_ROWS: dict[str, int] = {"declaration": 6, "commitment": 2, "resolution": 2}


def slot_of(tip: str) -> tuple[int, int | None]:
    """The fixed slot of the button named ``tip`` (:data:`SLOTS`); a ``"draw k"`` or
    ``"weapon k"`` beyond the table takes row ``k`` / ``k + 2`` (a whole row): no two buttons
    of a phase ever share a slot (fresh-user pass 2, item 1: the fourth and fifth ways of
    drawing after Supply Run fell into one slot and overlapped).

    Raises:
        KeyError: for a tip that is no button's.
    """
    if tip in SLOTS:
        return SLOTS[tip]
    kind, _, k = tip.rpartition(" ")
    if kind in ("draw", "weapon") and k.isdigit():
        return (int(k) + (2 if kind == "weapon" else 0), None)
    raise KeyError(tip)


def button_widgets(p: Any, ctl: Any, r: Rect, size: float = 10.5) -> tuple[list[Any], float]:
    """The phase's buttons (:func:`table_buttons`) as toolkit :class:`~hexwar.ui.widgets.Button`
    widgets in ``r`` from its top, each in its fixed :data:`SLOTS` place: two half-width
    columns a row, the weapons and the other ways of drawing a whole row each; the main
    action's slot takes the whole first row when no End phase button stands beside it. A
    label too wide for its slot is cut with an ellipsis (the whole label is the button's tip
    text when cut).

    Args:
        p: the :class:`~hexwar.ui.widgets.Painter` (its measure sizes the labels).
        ctl: the :class:`~hexwar.lines.table.TableController`.
        r: the room (points, y up); only its top rows are used.
        size: label size in points.

    Returns:
        ``(buttons, y below the phase's rows)`` (``r.y1`` when there are no buttons); the
        phase keeps :data:`PHASE_ROWS` rows even while fewer are used.
    """
    from .widgets import Button
    from .widgets.text import ellipsize

    out: list[Any] = []
    h, gap, pad = 22.0 * size / 10.5, 6.0, 16.0
    half = (r.w - gap) / 2
    buttons = table_buttons(ctl)
    tips = {b.tip for b in buttons}
    rows = 0
    for b in buttons:
        row, col = slot_of(b.tip)
        style = "bold" if b.primary else "regular"
        if row == 0 and col == 0 and "end phase" not in tips and p.measure(b.label, size, style) > half - pad:
            col = None  # alone in the first row and too long for half of it: the whole row
        x, w = (r.x, r.w) if col is None else (r.x + col * (half + gap), half)
        y = r.y1 - row * (h + gap)
        label = b.label
        if p.measure(label, size, style) > w - pad and b.short:
            label = b.short  # a narrow slot: the short form, then an ellipsis if need be
        label = ellipsize(p.atlas, label, w - pad, size, style)
        btn = Button(label, b.action, primary=b.primary, tip=b.tip, size=size, align="center")
        btn.enabled = b.enabled
        btn.layout(Rect(x, y - h, w, h))
        out.append(btn)
        rows = max(rows, row + 1)
    if not out:
        return out, r.y1
    rows = max(rows, PHASE_ROWS.get(str(ctl.state.phase), 0))
    return out, r.y1 - rows * (h + gap)
