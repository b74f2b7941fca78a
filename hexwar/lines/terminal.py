"""The card game on lines at the terminal (R11.1): a person plays a seat with
``hexwar play lines --headless``.

Everything shown comes from the seat's own view (:func:`hexwar.lines.view.seat_view`, R12.1):
both sides' lines with Endurance, Damage cards and the weapons of every unit in play (cards in
play are face up), this seat's hand (unit cards with their weapons, Command cards with their
text), the other seats' hands as counts only, deck sizes, the declared attacks and the score.
The log of what happened is printed through :func:`seat_log_text`, the view's own rule for
what a seat may read (another seat's starting hand and Reserves draws stay hidden).

At the prompt:

* ``N`` - take listed command N;
* ``N +ROLL ...`` - resolve command N with a Command card from hand discarded for +1 on each
  named roll (``to_hit:1``, ``intensity:0``, ``assault_dice``; R1.3 "before any die roll");
* ``odds N`` - the exact odds of listed command N (a declaration, a Close Assault or a
  resolution with or without the Command-card bonus, R6, R1.3);
* ``inspect CARD`` - a card in view in full: any unit in play (by instance id or a unique part
  of its name), or a card of this seat's hand; the opponent's hand is never inspectable,
  whatever is typed;
* ``table`` - show the table again; ``q`` - stop (the game so far is saved with ``--save``).

Starting hands (000 Standard Game Setup) are picked one card at a time from the seat's
Reserves deck, copies included (two Grenadiers are two picks of the same line); ``back`` puts
the last pick back.

Nothing typed can end the game by accident: an error in ``odds`` or ``inspect`` is printed and
the prompt asks again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..errors import HexwarError, small_uint
from .actions.choose_hand import hand_size
from .commands import ChooseHand, Declare, DeclareCloseAssault, LinesCommand, Resolve
from .rules import card, cards
from .view import SeatView, UnitView, describe, seat_log_text, seat_view

if TYPE_CHECKING:  # pragma: no cover
    from .state import LinesState

__all__ = ["LinesTerminalPlayer", "table_text", "command_label", "seat_events_text"]

MAX_SHOWN = 200  # options printed at once


def _unit_line(u: UnitView) -> str:
    dmg = f" [{u.damage[0]}: {u.damage[1]}]" if u.damage else ""
    if u.damage and u.damage[2] is not None:  # the counter: the End Turn of the turn drawn counts
        left = u.damage[2]
        if left <= 0:
            dmg += " (effect over)"
        elif left == 1:
            dmg += " (effect ends at this turn's End Turn)"
        else:
            dmg += f" (effect ends at the End Turn {left - 1} turn(s) from now)"
    crew = f", crew {u.crew}" if u.crew else ""
    cc = f", Command cards {', '.join(u.command_cards)}" if u.command_cards else ""
    tof = f", {u.flight_turns} Turns of Flight" if u.line == "air" else ""
    return f"{u.name} ({u.uid}) {u.endurance}/{u.full}{crew}{tof}{dmg}{cc}"


def _weapons(uid: str) -> list[str]:
    return [f"        {i}. {w.describe()}" for i, w in enumerate(card(uid).weapons, 1)]


def table_text(view: SeatView) -> list[str]:
    """The table as ``view`` shows it (R12.1): the summary of :func:`describe`, then every unit
    in play with its weapons, this seat's hand and the declared attacks.

    Args:
        view: :func:`seat_view` of the seat (or ``None``: a spectator's, no hand).
    """
    out = describe(view)
    out.append("  units in play (weapons: attack values by target type, rate of fire, DI):")
    for side in ("german", "soviet"):
        for ln in ("front", "rear", "air"):
            for u in view.lines[side][ln]:
                out.append(f"    {side} {ln}: {_unit_line(u)}")
                out.extend(_weapons(u.uid))
    if view.attacks:
        out.append("  declared attacks:")
        for a in view.attacks:
            ws = f" with {', '.join(a.weapons)}" if a.weapons else ""
            how = "close assault" if a.close_assault else "attack"
            state = "resolved" if a.resolved else "to resolve"
            out.append(
                f"    {a.number}. {a.seat} {how}: {', '.join(a.attackers)} at {a.target}{ws} ({state})"
            )
    if view.events:
        out.append(f"  Events in play: {', '.join(view.events)}")
    others = ", ".join(
        f"{s} {n[0]} unit / {n[1]} Command" for s, n in view.hand_counts.items() if s != view.seat
    )
    out.append(f"  other hands (cards face down): {others or '-'}")
    if view.seat is not None:
        out.append(f"  your hand ({view.seat}):")
        for uid in view.hand_units:
            out.append(f"    unit: {card(uid).name} ({uid})")
            out.extend(_weapons(uid))
        for cid in view.hand_commands:
            c = cards().command_or_event(cid)
            out.append(f"    Command card: {c.title} ({cid}): {c.help_text(cards().rules)}")
        if not view.hand_units and not view.hand_commands:
            out.append("    (empty)")
    return out


def command_label(state: LinesState, cmd: LinesCommand) -> str:
    """``cmd`` as the menu shows it: its fields with card names beside instance ids."""

    def nm(x: Any) -> str:
        if isinstance(x, str) and "#" in x:
            for title in (lambda: card(x).name, lambda: cards().command_or_event(x).title):
                try:
                    return f"{title()} ({x})"
                except (HexwarError, KeyError, ValueError):
                    continue
        return str(x)

    parts = []
    for k, v in cmd.to_json().items():
        if k in ("cmd", "seat") or v in (None, False, [], ()):
            continue
        if k == "weapons" and isinstance(cmd, Declare):
            ws = card(cmd.unit).weapons
            v = [ws[i].name if 0 <= i < len(ws) else i for i in cmd.weapons]
            parts.append(f"{k}={', '.join(map(str, v))}")
        elif isinstance(v, list):
            parts.append(f"{k}={', '.join(nm(x) for x in v)}")
        else:
            parts.append(f"{k}={nm(v)}")
    return f"{cmd.name.replace('_', ' ')} " + " ".join(parts)


class LinesTerminalPlayer:
    """A person at the terminal playing ``seat`` of a line game (see the module text).

    Args:
        seat: the seat played (``german``, ``soviet``, ``german-front`` ...).
        prompt: reads one line given a prompt text (default ``click.prompt``; end of input
            raises ``click.exceptions.Abort``).
        echo: prints one line (default ``click.echo``).
    """

    name = "human"
    undoes = False  # the line game takes no undo points (R12.3 is the hex game's)

    def __init__(
        self,
        seat: str,
        prompt: Callable[[str], str] | None = None,
        echo: Callable[[str], None] | None = None,
    ):
        self.seat = seat
        self._prompt = prompt or (lambda text: str(click.prompt(text, default=None, show_default=False)))
        self.echo = echo or click.echo

    def ask(self, text: str) -> str:
        """One line of input, stripped; ``q`` raises ``click.exceptions.Abort``."""
        raw = str(self._prompt(text)).strip()
        if raw.lower() in ("q", "quit"):
            raise click.exceptions.Abort()
        return raw

    # -- the view ----------------------------------------------------------------------
    def view(self, state: LinesState) -> SeatView:
        """This seat's view (R12.1): the one function that decides what the terminal shows."""
        return seat_view(state, self.seat, log_lines=1)  # the terminal prints its own log

    def show_table(self, state: LinesState) -> None:
        """Print the table from this seat's view."""
        for ln in table_text(self.view(state)):
            self.echo(ln)

    # -- inspect and odds ---------------------------------------------------------------
    def visible_cards(self, state: LinesState) -> dict[str, str]:
        """Instance id -> ``"unit"`` / ``"command"`` for every card this seat may inspect: the
        units in play (both sides) and this seat's own hand. Never another seat's hand."""
        v = self.view(state)
        out = {u.uid: "unit" for side in v.lines.values() for units in side.values() for u in units}
        out.update({x: "unit" for x in v.hand_units})
        out.update({x: "command" for x in v.hand_commands})
        return out

    def inspect(self, state: LinesState, what: str) -> str:
        """``inspect CARD``: a visible card in full (instance id, or a unique part of its name).

        Returns:
            the text to print (an explanation when nothing visible matches).
        """
        vis = self.visible_cards(state)
        key = what.strip()
        hit = [x for x in vis if x.lower() == key.lower()]
        if not hit:
            hit = [
                x
                for x, kind in vis.items()
                if key.lower()
                in (card(x).name if kind == "unit" else cards().command_or_event(x).title).lower()
            ]
        if not hit:
            return f"inspect: no card in your view matches {key[:40]!r} (units in play and your hand)"
        if len(hit) > 1:
            return "inspect: which one? " + ", ".join(sorted(hit)[:20])
        x = hit[0]
        if vis[x] == "command":
            c = cards().command_or_event(x)
            return f"{c.title} ({x}): {c.help_text(cards().rules)}"
        text = card(x).help_text(cards())
        v = self.view(state)
        for side in v.lines.values():
            for units in side.values():
                for u in units:
                    if u.uid == x:
                        text += f"\nin play: {u.side} {u.line}: " + _unit_line(u)
        return text

    def odds(self, state: LinesState, cmd: LinesCommand) -> str:
        """``odds N``: the exact odds of a listed declaration, Close Assault or resolution (R6)."""
        from ..game.odds import odds_lines
        from ..rules.combat import CombatError
        from .odds import close_assault_line_odds, declare_odds

        try:
            if isinstance(cmd, Declare):
                o = declare_odds(state, cmd.unit, cmd.target, tuple(cmd.weapons), cmd.at_crew)
            elif isinstance(cmd, DeclareCloseAssault):
                o = close_assault_line_odds(state, tuple(cmd.units), cmd.target)
            elif isinstance(cmd, Resolve) and cmd.number in state.attacks:
                a = state.attacks[cmd.number]
                if a.close_assault:
                    o = close_assault_line_odds(state, tuple(a.attackers), a.target)
                else:
                    o = declare_odds(
                        state,
                        a.attackers[0],
                        a.target,
                        tuple(a.weapons),
                        a.at_crew,
                        bonus=cmd.bonus is not None,
                    )
            else:
                return "odds: give the number of a listed declare, close assault or resolve command"
        except (CombatError, HexwarError, KeyError, IndexError, ValueError) as exc:
            return f"odds: not possible now: {exc}"
        return "\n".join([f"odds of {command_label(state, cmd)}:"] + ["  " + ln for ln in odds_lines(o)])

    def with_bonus_rolls(self, state: LinesState, cmd: LinesCommand, rolls: list[str]) -> LinesCommand | str:
        """``N +ROLL ...``: listed resolve command N with a Command card discarded for +1 on
        each named roll (R1.3, 000 "before any die roll"): ``to_hit:1``, ``intensity:0``,
        ``assault_dice``. The cards are the hand's first ones not already spent by ``cmd``.

        Returns:
            the command, or the reason it is refused (to print).
        """
        import dataclasses

        if not isinstance(cmd, Resolve):
            return "+ROLL: only a resolve command takes Command-card bonuses on its rolls"
        free = [c for c in state.hand_commands[self.seat] if c != cmd.bonus]
        if len(free) < len(rolls):
            return f"+ROLL: you have {len(free)} Command card(s) to spend, not {len(rolls)}"
        new = dataclasses.replace(cmd, bonus_rolls=tuple(rolls), bonus_cards=tuple(free[: len(rolls)]))
        why = state.check(new)
        return f"+ROLL: {why}" if why is not None else new

    # -- choosing -----------------------------------------------------------------------
    def choose_hand(self, state: LinesState) -> ChooseHand:
        """000 setup: pick the starting unit cards one at a time, copies included."""
        n = hand_size(state, self.seat)
        pool = sorted(state.reserves[self.seat])
        kinds: dict[str, list[str]] = {}
        for x in pool:
            kinds.setdefault(x.rsplit("#", 1)[0], []).append(x)
        order = sorted(kinds, key=lambda k: (card(kinds[k][0]).name, k))
        picked: list[str] = []
        while True:
            if len(picked) == n:
                cmd = ChooseHand(self.seat, tuple(picked))
                why = state.check(cmd)
                if why is None:
                    return cmd
                self.echo(f"that hand is refused: {why}")  # pragma: no cover - every pick is legal
                picked.clear()
            self.echo(
                f"\n{self.seat}: choose {n} unit cards for your starting hand (000 setup); {len(picked)} taken"
            )
            left = {k: [x for x in kinds[k] if x not in picked] for k in order}
            for i, k in enumerate(order):
                c = card(kinds[k][0])
                self.echo(f"  {i:3d}  {c.name} ({k}) {c.unit_type}, cost {c.cost}: {len(left[k])} left")
            if picked:
                self.echo("  taken: " + ", ".join(f"{card(x).name} ({x})" for x in picked))
            raw = self.ask("card number (copies allowed), inspect NUMBER, back, q to quit")
            words = raw.split()
            if words and words[0].lower() == "back":
                if picked:
                    picked.pop()
                continue
            if len(words) == 2 and words[0].lower() == "inspect" and small_uint(words[1]) is not None:
                j = int(words[1])
                if j < len(order):
                    self.echo(card(kinds[order[j]][0]).help_text(cards()))
                    continue
            pick = small_uint(raw) if raw else None
            if pick is None or pick >= len(order):
                self.echo(f"enter a number 0..{len(order) - 1}, back, inspect NUMBER, or q to quit")
                continue
            if not left[order[pick]]:
                self.echo(f"no {card(kinds[order[pick]][0]).name} left in your Reserves deck")
                continue
            picked.append(left[order[pick]][0])

    def choose(self, state: LinesState) -> LinesCommand:
        """Show the table and the legal commands from this seat's view; read a choice.

        Raises:
            click.exceptions.Abort: on ``q`` or the end of input.
        """
        cmds = state.legal_commands(self.seat)
        if cmds and all(isinstance(c, ChooseHand) for c in cmds):
            return self.choose_hand(state)
        self.show_table(state)
        self.echo(f"\n{self.seat}, turn {state.turn}, {state.phase} phase: choose a command")
        for i, c in enumerate(cmds[:MAX_SHOWN]):
            self.echo(f"  {i:3d}  {command_label(state, c)}")
        if len(cmds) > MAX_SHOWN:
            self.echo(f"  ... {len(cmds) - MAX_SHOWN} more not shown")
        while True:
            raw = self.ask("number, N +ROLL, odds N, inspect CARD, table (q to quit)")
            words = raw.split()
            n = small_uint(raw) if raw else None
            if n is not None and n < min(len(cmds), MAX_SHOWN):
                return cmds[n]
            k = small_uint(words[0]) if words else None
            if (
                k is not None
                and k < len(cmds)
                and len(words) > 1
                and all(w.startswith("+") for w in words[1:])
            ):
                got = self.with_bonus_rolls(state, cmds[k], [w[1:] for w in words[1:]])
                if isinstance(got, str):
                    self.echo(got)
                    continue
                return got
            if words and words[0].lower() == "odds" and len(words) == 2:
                k = small_uint(words[1])
                if k is not None and k < len(cmds):
                    self.echo(self.odds(state, cmds[k]))
                    continue
            if words and words[0].lower() == "inspect" and len(words) >= 2:
                self.echo(self.inspect(state, raw.split(None, 1)[1]))
                continue
            if raw.lower() == "table":
                self.show_table(state)
                continue
            self.echo(
                f"enter a number 0..{min(len(cmds), MAX_SHOWN) - 1}, odds N, inspect CARD, table, or q to quit"
            )


def seat_events_text(events: list[Any], seat: str | None) -> list[str]:
    """The log lines of ``events`` as ``seat`` may read them (:func:`seat_log_text`)."""
    return [seat_log_text(e, seat) for e in events]
