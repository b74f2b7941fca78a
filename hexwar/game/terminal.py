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

The setup (000 Standard Game Setup) is read another way (:func:`setup_choice`): the side's
Reserves deck is listed card by card with its costs and the starting hand is chosen as
``hand 1 4 7 9`` (numbers or card ids), not from a list of every combination; in a point-budget
scenario (the ``standard`` game, R4.3) ``deck`` opens a deck prompt (:func:`deck_prompt`) that
lists the scenario's cards with their costs and takes card ids (``add de_pz_iv_h 2``), shows the
running total and the game's own reason a deck is not yet legal
(:func:`hexwar.game.actions.build_deck.deck_problems`), and ends in
:class:`~hexwar.game.commands.BuildDeck`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..errors import HexwarError, clip, small_uint
from . import ruleset
from .actions.build_deck import deck_limits, deck_problems
from .commands import BuildDeck, ChooseHand, Commit, Declare, Move, TargetArtillery, Undo
from .inspect import inspect_hex
from .odds import declare_odds, odds_lines
from .victory import conditions

__all__ = ["GROUP_MIN", "TerminalQuit", "menu", "read_choice", "setup_choice", "deck_prompt"]

#: A run of more options than this with one hex each (artillery targets, one unit's moves, one
#: card's deploy hexes) is shown as one line chosen by letter and hex.
GROUP_MIN = 7

#: Option lines printed before a prompt; ``more`` prints the rest (the starting hand, up to
#: C(14, 4) = 1001 options, is read as cards instead: :func:`setup_choice`).
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


#: The setup prompt (000 Standard Game Setup).
SETUP_PROMPT = "hand N N N N (numbers or card ids), deck, list (q to quit)"
#: The deck prompt (R4.3).
DECK_PROMPT = (
    "deck> card ids or numbers to add, add/remove CARD [N], clear, show, cards, load FILE, done, cancel"
)


def _card_row(cid: str) -> str:
    """``"Pz.Kpfw. IV Ausf. H  vehicle, Frontline, 15 pts, needs a tank crew"``."""
    u = ruleset.unit_card(cid)
    lines = {"frontline": ", Frontline", "rear": ", Rear Line", "aircraft": ""}
    line = "" if u.is_crew else lines.get(u.line, ", Frontline or Rear Line")
    crew = (ruleset.crew_required(cid) or "").replace("_", " ")
    needs = f", needs {'an' if crew[:1] in 'aeiou' else 'a'} {crew}" if crew not in ("", "infantry") else ""
    return f"{u.name}  {u.unit_type.replace('_', ' ')}{line}, {u.cost} pts{needs}"


def _buildable(state: Any, side: str) -> bool:
    """The side may build its Reserves deck (a point budget, no fixed deck or hand, R4.3)."""
    ss = state.scenario.sides[side]
    return ss.budget is not None and not ss.reserves and not ss.hand and side not in state.done


def setup_choice(
    state: Any,
    side: str,
    ask: Callable[[str], str],
    out: Callable[[str], None],
    deck_file: Callable[[str], Any] | None = None,
) -> Any:
    """The setup read as a player would (module doc): the Reserves deck listed card by card,
    ``hand N N N N`` (list numbers or card ids; crews count, 000 setup) chooses the starting
    hand, ``deck`` (a point-budget side, R4.3) builds a deck (:func:`deck_prompt`), ``list``
    lists the deck again.

    Args:
        state, side, ask, out: as :func:`read_choice`.
        deck_file: ``(text) -> card ids`` reading a deck file for ``load FILE`` in the deck
            prompt (raising :class:`~hexwar.errors.HexwarError` with the reason), or ``None``
            where files cannot be opened (a network seat).

    Returns:
        a :class:`~hexwar.game.commands.ChooseHand` or :class:`~hexwar.game.commands.BuildDeck`
        the rules allow (checked with ``state.check``).

    Raises:
        TerminalQuit: on ``q`` or the end of input.
    """
    deck = list(state.reserves[side])
    want = min(state.scenario.sides[side].hand_size, len(deck))
    can_build = _buildable(state, side)

    def listing() -> None:
        pts = sum(ruleset.cost(c) for c in deck)
        out(f"\n{side}, setup: your Reserves deck, {len(deck)} cards, {pts} points (000 Standard Game Setup)")
        for i, c in enumerate(deck, 1):
            out(f"  {i:3d}  {_card_row(c)}  [{c}]")
        out(
            f"Choose your starting hand: `hand` and {want} numbers from the list (or card ids), e.g. "
            f"`hand {' '.join(str(i) for i in range(1, want + 1))}`; a unit that needs a crew wants its crew in hand."
        )
        if can_build:
            lo, hi = _limits(state, side)
            out(
                f"Or `deck`: build your own Reserves deck ({lo}-{hi} points from the scenario's cards, R4.3)."
            )

    listing()
    while True:
        raw, words, head = _read(ask, SETUP_PROMPT)
        if head == "list":
            listing()
            continue
        if head == "deck":
            if not can_build:
                out("deck: this side plays the scenario's Reserves deck (no point budget, R4.3)")
                continue
            cmd = deck_prompt(state, side, ask, out, deck_file)
            if cmd is not None:
                return cmd
            listing()
            continue
        if head == "hand":
            picked: list[str] = []
            bad = ""
            for w in words[1:]:
                n = small_uint(w)
                if n is not None and 1 <= n <= len(deck):
                    inst = deck[n - 1]
                else:
                    inst = next((c for c in deck if c.split("#")[0] == w.lower() and c not in picked), "")
                if not inst or inst in picked:
                    bad = (
                        f"{clip(w)}: not a number 1..{len(deck)} or a card id of your deck"
                        if not inst
                        else f"{w}: named twice"
                    )
                    break
                picked.append(inst)
            if bad:
                out(f"hand: {bad}")
                continue
            cmd = ChooseHand(side, tuple(picked))
            why = state.check(cmd)
            if why is None:
                return cmd
            out(f"hand: {why}")
            continue
        out(
            f"type `hand` and {want} numbers (e.g. `hand 1 2 3 4`)"
            + (", `deck`" if can_build else "")
            + ", or q to quit"
        )


def _limits(state: Any, side: str) -> tuple[int, int]:
    lo, hi, _ = deck_limits(state.scenario.sides[side])
    return lo, hi


def _read(ask: Callable[[str], str], prompt: str) -> tuple[str, list[str], str]:
    """One answer to ``prompt``: ``(the line stripped, its words, the first word lower-cased)``.

    Raises:
        TerminalQuit: on ``q``/``quit`` or the end of input.
    """
    try:
        raw = str(ask(prompt)).strip()
    except EOFError:
        raise TerminalQuit() from None
    words = raw.split()
    head = words[0].lower() if words else ""
    if head in ("q", "quit"):
        raise TerminalQuit()
    return raw, words, head


def deck_prompt(
    state: Any,
    side: str,
    ask: Callable[[str], str],
    out: Callable[[str], None],
    deck_file: Callable[[str], Any] | None = None,
) -> Any:
    """Build a Reserves deck at the terminal (000 Standard Game Setup, R4.3): the scenario's
    cards for the side (its ``pool``) numbered with their costs; ``add CARD [N]`` /
    ``remove CARD [N]`` (a card id or a number from the list), or card ids alone (each added
    once), ``clear``, ``show``, ``cards``, ``load FILE`` (a deck file, through ``deck_file``),
    ``done`` and ``cancel``. After each change the running total, the limits and the game's
    reasons the deck is not legal yet (:func:`~hexwar.game.actions.build_deck.deck_problems`)
    are printed; ``done`` is refused with all of them.

    Starts from the side's current Reserves deck (dealt or built).

    Returns:
        the :class:`~hexwar.game.commands.BuildDeck` (legal), or ``None`` for ``cancel``.

    Raises:
        TerminalQuit: on ``q`` or the end of input.
    """
    ss = state.scenario.sides[side]
    lo, hi, copies = deck_limits(ss)
    pool = list(ss.pool) or [c for c, u in ruleset.cards().units.items() if u.side == side]
    pool.sort(key=lambda c: (ruleset.is_crew(c), ruleset.unit_type(c), ruleset.cost(c), c))
    cards = [c.split("#")[0] for c in state.reserves[side]]

    def show_pool() -> None:
        lim = f", at most {copies} copies of a unit card (R10.4)" if copies else ""
        out(
            f"\nThe {side} cards of this scenario ({lo}-{hi} points a deck{lim}; crews for units that need them, R4.1):"
        )
        for i, c in enumerate(pool, 1):
            out(f"  {i:3d}  {c:<28} {_card_row(c)}")

    def show_deck() -> None:
        tally = Counter(cards)
        out("your deck: " + (", ".join(f"{n} x {c}" for c, n in sorted(tally.items())) or "(empty)"))

    def status() -> None:
        pts = sum(ruleset.cost(c) for c in cards)
        state_ = (
            f"{lo - pts} more needed"
            if pts < lo
            else f"{pts - hi} too many"
            if pts > hi
            else "within the limits"
        )
        whys = deck_problems(ss, side, cards)
        tail = "ready: `done` plays it" if not whys else f"not yet: {whys[0]}"
        out(f"deck: {len(cards)} cards, {pts} points (limits {lo}-{hi}: {state_}); {tail}")
        for w in whys[1:]:
            out(f"  and: {w}")

    def card_of_word(w: str) -> str | None:
        n = small_uint(w)
        if n is not None and 1 <= n <= len(pool):
            return pool[n - 1]
        w = w.lower()
        return w if w in pool else None

    show_pool()
    out("Your deck as it is now (the dealt one until you build another); `clear` empties it:")
    show_deck()
    status()
    while True:
        raw, words, head = _read(ask, DECK_PROMPT)
        if not words:
            out("deck: type card ids to add them, `done` to play the deck or `cancel`")
            continue
        if head == "cancel":
            out("deck: nothing changed")
            return None
        if head == "cards":
            show_pool()
            continue
        if head == "show":
            show_deck()
            status()
            continue
        if head == "clear":
            cards.clear()
            status()
            continue
        if head == "done":
            whys = deck_problems(ss, side, cards)
            if whys:
                out("deck: not yet: " + "; ".join(whys))
                continue
            return BuildDeck(side, tuple(cards))
        if head == "load":
            if deck_file is None:
                out("load: deck files cannot be opened here; type the card ids")
                continue
            try:
                loaded = list(deck_file(raw.split(None, 1)[1] if len(words) > 1 else ""))
            except HexwarError as exc:
                out(f"load: {exc}")
                continue
            outside = [c for c in dict.fromkeys(loaded) if c not in pool]
            if outside:
                out(f"load: {', '.join(outside)} not among this scenario's {side} cards")
                continue
            cards[:] = loaded
            show_deck()
            status()
            continue
        if head in ("add", "remove", "+", "-"):
            if len(words) not in (2, 3) or (len(words) == 3 and small_uint(words[2]) is None):
                out(f"{head}: give a card id or list number, and how many (e.g. `{head} de_pz_iv_h 2`)")
                continue
            cid = card_of_word(words[1])
            n = int(words[2]) if len(words) == 3 else 1
            if cid is None:
                out(f"{head}: {clip(words[1])} is not a card of the list (type `cards`)")
                continue
            if head in ("remove", "-"):
                gone = 0
                while gone < n and cid in cards:
                    cards.remove(cid)
                    gone += 1
                if not gone:
                    out(f"remove: {cid} is not in your deck")
                    continue
            else:
                _add(cards, cid, min(n, 20), copies, out)
            status()
            continue
        ids = [card_of_word(w) for w in words]
        if all(ids):
            said: list[str] = []  # one line per refused card, not per word (a pasted 50,000-word line)
            for cid in ids:
                _add(cards, str(cid), 1, copies, said.append)
            for line in dict.fromkeys(said):
                out(line)
            status()
            continue
        bad = words[ids.index(None)]
        out(f"deck: {clip(bad)} is not a card of the list (type `cards` to see them, `done` or `cancel`)")


def _add(cards: list[str], cid: str, n: int, copies: int, out: Callable[[str], None]) -> None:
    """Add ``n`` copies of ``cid``, at most ``copies`` of a unit card (R10.4; crews free)."""
    for _ in range(n):
        if copies and not ruleset.is_crew(cid) and cards.count(cid) >= copies:
            out(f"add: at most {copies} copies of {ruleset.card_name(cid)} (R10.4)")
            return
        cards.append(cid)


def read_choice(
    state: Any,
    side: str,
    ask: Callable[[str], str],
    out: Callable[[str], None],
    shown: int = SHOWN,
    deck_file: Callable[[str], Any] | None = None,
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
        deck_file: for the setup's deck prompt, ``(text) -> card ids`` of a deck file
            (:func:`setup_choice`), or ``None``.

    Returns:
        the command chosen (not applied; the caller applies or sends it).

    Raises:
        TerminalQuit: on ``q`` or the end of input.
    """
    cmds = state.legal_commands(side)
    if hasattr(state, "battlemap") and any(isinstance(c, ChooseHand) for c in cmds):
        return setup_choice(state, side, ask, out, deck_file)  # 000 setup: cards, not combinations
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


def briefing(state: Any) -> list[str]:
    """The lines a person at the terminal reads before the first choice: the scenario's name,
    its briefing (the scenario's ``description``) and what wins
    (:func:`hexwar.game.victory.conditions`: victory points and Overrun R10.1, the hold victory
    and the objectives R10.2); none for an object without a ``scenario``."""
    sc = getattr(state, "scenario", None)
    if sc is None:  # a stand-in for a game (tests' menus) has nothing to tell
        return []
    out = [f"== {sc.name} =="]
    if sc.description.strip():
        out += [sc.description.strip(), ""]
    return out + conditions(state)
