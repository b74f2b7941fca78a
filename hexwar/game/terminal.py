"""The hex game's one terminal player (issue 36): ``hexwar play --headless`` and
``hexwar join --headless`` show the same menu and read the same answers.

The legal commands of the side (its view under fog, R12.2) are listed; a run of many options
that differ only by hex (artillery targets R9.2, one unit's moves R5.3, one card's deploy hexes
R5.2) is one line chosen as ``LETTER HEX``; ``odds N`` prints the exact odds of declaration N
(R6), ``inspect HEX [FROM]`` the hex in words with LOS from FROM (R3), ``undo`` takes back the
last command while no die was rolled (R12.3), ``more`` lists the options past the first
:data:`SHOWN`, ``q`` stops. The card game on lines has no map and no undo: there ``inspect``
and ``undo`` say so and ask again. Reading and printing are given as callables, so the local
CLI (click) and the network client (a thread over ``input``) share it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import HexwarError, small_uint
from . import ruleset
from .commands import Commit, Declare, Move, TargetArtillery, Undo
from .inspect import inspect_hex
from .odds import declare_odds, odds_lines

__all__ = ["GROUP_MIN", "TerminalQuit", "menu", "read_choice"]

#: A run of more options than this with one hex each (artillery targets, one unit's moves, one
#: card's deploy hexes) is shown as one line chosen by letter and hex.
GROUP_MIN = 7

#: Option lines printed before a prompt; ``more`` prints the rest (a starting hand of 4 cards
#: from 14 is up to C(14, 4) = 1001 options).
SHOWN = 200

#: The prompt of every terminal choice.
PROMPT = "number, LETTER HEX, undo, odds N, inspect HEX [FROM] (q to quit)"


class TerminalQuit(Exception):
    """The person typed ``q`` (or the input ended): stop playing."""


def menu(state: Any, cmds: list[Any]) -> tuple[list[str], list[Any], dict[str, dict[str, Any]]]:
    """The options as the terminal shows them (issue 17 item 3).

    Args:
        state: the game (or the state rebuilt from a side's view).
        cmds: its legal commands for the side, in order.

    Returns:
        ``(lines, numbered, groups)``: the printed lines; the commands chosen by number;
        the collapsed groups by letter, each ``{hex label: command}`` (R9.2 artillery
        targets, R5.3 moves of one unit, R5.2 deploy hexes of one card).
    """

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
    big = {k: v for k, v in runs.items() if len(v) >= GROUP_MIN and len({hex_of(c) for c in v}) == len(v)}
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
                lines.append(f"    {letter}  {what}: {len(labels)} hexes, type `{letter} HEX`  [{sample}]")
                continue
        lines.append(f"  {len(numbered):3d}  {c}")
        numbered.append(c)
    return lines, numbered, groups


def inspect_text(state: Any, labels: list[str]) -> str:
    """``inspect HEX [FROM]``: the hex in plain text, with LOS from FROM (R3)."""
    try:
        hexes = [state.battlemap.hex_at(x.upper()) for x in labels]
    except (HexwarError, ValueError) as exc:
        return f"inspect: {exc}"
    return inspect_hex(state, hexes[0], hexes[1] if len(hexes) > 1 else None)


def odds_text(state: Any, c: Any) -> str:
    """``odds N``: the exact odds of listed declaration N (R6)."""
    if not isinstance(c, Declare):
        return "odds: give the number of a listed declare command"
    o = declare_odds(state, c.attacker, c.target, tuple(c.weapons), c.at_crew)
    if o is None:
        return "odds: this attack has no odds (not legal as listed)"
    return "\n".join([f"odds of {c}:"] + ["  " + ln for ln in odds_lines(o)])


def read_choice(
    state: Any, side: str, ask: Callable[[str], str], out: Callable[[str], None], shown: int = SHOWN
) -> Any:
    """Show ``side``'s menu for ``state`` through ``out`` and read answers through ``ask`` until
    a command is chosen: a listed number, a group letter with a hex (``a D07``) or ``undo``;
    ``inspect HEX [FROM]`` and ``odds N`` answer and ask again.

    Args:
        state: the game as the side may see it (under fog, the state rebuilt from its view).
        side: the side choosing.
        ask: ``(prompt) -> str``, one line of input (raising ``EOFError`` at the end of input).
        out: ``(text) -> None``, one line of output.
        shown: option lines printed before the first prompt (``more`` prints the rest).

    Returns:
        the command chosen (not applied; the caller applies or sends it).

    Raises:
        TerminalQuit: on ``q`` or the end of input.
    """
    cmds = state.legal_commands(side)
    lines, numbered, groups = menu(state, cmds)
    out(f"\n{side}, turn {state.turn}, {state.phase} phase: choose a command")
    for ln in lines[:shown]:
        out(ln)
    if len(lines) > shown:
        out(f"  ... {len(lines) - shown} more: type `more` to list them")
    while True:
        try:
            raw = str(ask(PROMPT)).strip()
        except EOFError:
            raise TerminalQuit() from None
        if raw.lower() in ("q", "quit"):
            raise TerminalQuit()
        if raw.lower() == "more":  # every option stays reachable by sight, not only by number
            for ln in lines[shown:] or ["  (every option is listed above)"]:
                out(ln)
            continue
        if (small_uint(raw) if raw else None) is not None and int(raw) < len(numbered):  # never negative
            return numbered[int(raw)]
        words = raw.split()
        if words and words[0].lower() in groups:
            members = groups[words[0].lower()]
            if len(words) == 2 and words[1].upper() in members:
                return members[words[1].upper()]
            out(f"{words[0].lower()}: give one of these hexes: {' '.join(sorted(members))}")
            continue
        hex_game = hasattr(state, "battlemap")  # the card game on lines has no map and no undo
        if words and words[0].lower() in ("undo", "inspect") and not hex_game:
            out(f"{words[0].lower()}: not in the card game on lines (R11.1): the hex game has it")
            continue
        if words and words[0].lower() == "undo":
            why = state.check(Undo(side))
            if why is None:
                return Undo(side)
            out(f"cannot undo: {why}")
            continue
        if words and words[0].lower() == "inspect" and len(words) in (2, 3):
            out(inspect_text(state, words[1:]))
            continue
        if (
            words
            and words[0].lower() == "odds"
            and len(words) == 2
            and small_uint(words[1]) is not None
            and int(words[1]) < len(numbered)
        ):
            out(odds_text(state, numbered[int(words[1])]))
            continue
        out(
            f"enter a number 0..{len(numbered) - 1}"
            + (f", a letter {'/'.join(groups)} with a hex" if groups else "")
            + ", or q to quit"
        )
