"""What ``hexwar play`` and ``hexwar play lines`` share at the terminal: a person choosing from
numbered legal commands (:class:`TerminalPlayer`), and whether a window can open at all.

Both commands import it (cli/game.py and cli/lines.py used to import each other for these).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from ..errors import HexwarError, small_uint

__all__ = ["TerminalPlayer"]


class TerminalPlayer:
    """A person at the terminal: shows the legal commands numbered and reads a choice."""

    name = "human"

    def __init__(self, side: str):
        self.side = side

    @staticmethod
    def _inspect(state: Any, labels: list[str]) -> str:
        """``inspect HEX [FROM]``: the hex in plain text, with LOS from FROM (R3)."""
        from ..game.inspect import inspect_hex

        try:
            hexes = [state.battlemap.hex_at(x.upper()) for x in labels]
        except (HexwarError, ValueError) as exc:
            return f"inspect: {exc}"
        return inspect_hex(state, hexes[0], hexes[1] if len(hexes) > 1 else None)

    #: A run of more options than this with one hex each (artillery targets, one unit's
    #: moves, one card's deploy hexes) is shown as one line chosen by letter and hex.
    GROUP_MIN = 7
    #: Option lines printed before a prompt; ``more`` prints the rest (a starting hand of 4
    #: cards from 14 is up to C(14, 4) = 1001 options).
    SHOWN = 200

    @staticmethod
    def menu(state: Any, cmds: list[Any]) -> tuple[list[str], list[Any], dict[str, dict[str, Any]]]:
        """The options as the terminal shows them (issue 17 item 3).

        Returns:
            ``(lines, numbered, groups)``: the printed lines; the commands chosen by number;
            the collapsed groups by letter, each ``{hex label: command}`` (R9.2 artillery
            targets, R5.3 moves of one unit, R5.2 deploy hexes of one card).
        """
        from ..game import ruleset
        from ..game.commands import Commit, Move, TargetArtillery

        def hex_of(c: Any) -> Any:
            if isinstance(c, TargetArtillery):
                return c.hex
            if isinstance(c, Move) and c.path:
                return c.path[-1]
            if isinstance(c, Commit):
                return c.hex
            return None

        def key(c: Any) -> Any:
            if isinstance(c, TargetArtillery):
                return ("artillery",)
            if isinstance(c, Move):
                return ("move", c.unit)
            if isinstance(c, Commit) and c.hex is not None:
                return ("commit", c.unit, c.crew, c.carry)
            return None

        runs: dict[Any, list[Any]] = {}
        for c in cmds:
            k = key(c)
            if k is not None and hex_of(c) is not None:
                runs.setdefault(k, []).append(c)
        big = {
            k: v
            for k, v in runs.items()
            if len(v) >= TerminalPlayer.GROUP_MIN and len({hex_of(c) for c in v}) == len(v)
        }
        lines: list[str] = []
        numbered: list[Any] = []
        groups: dict[str, dict[str, Any]] = {}
        letters = iter("abcdefghijklmnopqrstuvwxyz")
        shown: set[Any] = set()
        for c in cmds:
            k = key(c)
            if k in big:
                if k in shown:
                    continue
                shown.add(k)
                letter = next(letters, None)
                if letter is None:  # pragma: no cover - more than 26 groups
                    big.pop(k)
                else:
                    members = {state.hex_label(hex_of(x)): x for x in big[k]}
                    groups[letter] = members
                    if k[0] == "artillery":
                        what = "call an artillery mission on a hex (R9)"
                    elif k[0] == "move":
                        u = state.units[c.unit]
                        what = f"move {ruleset.card_name(u.card)} ({c.unit}) from {state.hex_label(u.hex)} (R5.3)"
                    else:
                        what = f"commit {ruleset.card_name(c.unit)} ({c.unit}) into a deploy hex (R5.2)"
                    labels = sorted(members)
                    sample = " ".join(labels[:14]) + (" ..." if len(labels) > 14 else "")
                    lines.append(
                        f"    {letter}  {what}: {len(labels)} hexes, type `{letter} HEX`  [{sample}]"
                    )
                    continue
            lines.append(f"  {len(numbered):3d}  {c}")
            numbered.append(c)
        return lines, numbered, groups

    @staticmethod
    def _odds(state: Any, c: Any) -> str:
        """``odds N``: the exact odds of listed declaration N (R6)."""
        from ..game.commands import Declare
        from ..game.odds import declare_odds, odds_lines

        if not isinstance(c, Declare):
            return "odds: give the number of a listed declare command"
        o = declare_odds(state, c.attacker, c.target, tuple(c.weapons), c.at_crew)
        if o is None:
            return "odds: this attack has no odds (not legal as listed)"
        return "\n".join([f"odds of {c}:"] + ["  " + ln for ln in odds_lines(o)])

    def choose(self, state: Any) -> Any:
        """Prompt until a listed number, a group letter with a hex (``a D07``), ``undo``, or
        ``q`` to stop is entered; ``inspect HEX [FROM]``, ``odds N`` and ``more`` (the options
        past the first :attr:`SHOWN`) answer and ask again.

        Raises:
            click.exceptions.Abort: on ``q`` or the end of input (the CLI prints "aborted").
        """
        from ..game.view import state_from_view, view

        if "fog" in state.variants:  # R12.2: the person sees and chooses from the side's view only
            state = state_from_view(view(state, self.side).data, state.scenario)
        cmds = state.legal_commands(self.side)
        lines, numbered, groups = self.menu(state, cmds)
        click.echo(f"\n{self.side}, turn {state.turn}, {state.phase} phase: choose a command")
        for ln in lines[: self.SHOWN]:
            click.echo(ln)
        if len(lines) > self.SHOWN:
            click.echo(f"  ... {len(lines) - self.SHOWN} more: type `more` to list them")
        while True:  # no default: a stray Enter must not spend anything
            raw = str(
                click.prompt(
                    "number, LETTER HEX, undo, odds N, inspect HEX [FROM] (q to quit)",
                    default=None,
                    show_default=False,
                )
            ).strip()
            if raw.lower() in ("q", "quit"):
                raise click.exceptions.Abort()
            if raw.lower() == "more":  # every option stays reachable by sight, not only by number
                for ln in lines[self.SHOWN :] or ["  (every option is listed above)"]:
                    click.echo(ln)
                continue
            if (small_uint(raw) if raw else None) is not None and int(raw) < len(numbered):  # never negative
                return numbered[int(raw)]
            words = raw.split()
            if words and words[0].lower() in groups:
                members = groups[words[0].lower()]
                if len(words) == 2 and words[1].upper() in members:
                    return members[words[1].upper()]
                click.echo(f"{words[0].lower()}: give one of these hexes: {' '.join(sorted(members))}")
                continue
            hex_game = hasattr(state, "battlemap")  # the card game on lines has no map and no undo
            if words and words[0].lower() in ("undo", "inspect") and not hex_game:
                click.echo(f"{words[0].lower()}: not in the card game on lines (R11.1): the hex game has it")
                continue
            if words and words[0].lower() == "undo":
                from ..game.commands import Undo

                why = state.check(Undo(self.side))
                if why is None:
                    return Undo(self.side)
                click.echo(f"cannot undo: {why}")
                continue
            if words and words[0].lower() == "inspect" and len(words) in (2, 3):
                click.echo(self._inspect(state, words[1:]))
                continue
            if (
                words
                and words[0].lower() == "odds"
                and len(words) == 2
                and small_uint(words[1]) is not None
                and int(words[1]) < len(numbered)
            ):
                click.echo(self._odds(state, numbered[int(words[1])]))
                continue
            click.echo(
                f"enter a number 0..{len(numbered) - 1}"
                + (f", a letter {'/'.join(groups)} with a hex" if groups else "")
                + ", or q to quit"
            )


def _no_display() -> bool:
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return False
