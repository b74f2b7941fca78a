"""The deck builder's model (000 setup): a side's unit cards with their full card text, the
deck being built with a running point total, the crew warning (000's tip) or rule (R4.1), saving
to a deck file (``decks/*.toml``, written atomically) and opening one.

One model serves both games (the window page is :class:`hexwar.ui.deck_builder.DeckPage`):

* the card game on lines (R11.1): every unit card of the side (a 4-player commander's, a
  scenario card's restrictions), 80-100 points, crews a warning;
* the hex game's point-budget scenarios (000 Standard Game Setup, R4.3; the ``standard``
  scenario): :meth:`DeckBuilder.for_hex_side` takes the side's ``pool``, the limits of
  :func:`hexwar.game.actions.build_deck.deck_limits` and the game's own check
  :func:`~hexwar.game.actions.build_deck.deck_problem` as the deck's rule, so the page refuses
  exactly what the :class:`~hexwar.game.commands.BuildDeck` command would refuse, with its
  reason.

Deck files are opened only from the working folder (and below) or hexwar's shipped ``decks/``
folder (:func:`resolve_deck_path`), so a name typed into the page or given with ``--deck``
never reaches a file elsewhere, not even through ``..`` or a link.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError, ValidationError, clip
from ..fileio import atomic_write_text
from ..rules.cards import default_cards
from .scenario import DECK_FORMAT, LinesSide, deck_problems, load_deck, restriction_problems

__all__ = ["DeckBuilder", "deck_roots", "resolve_deck_path", "read_deck_file", "outside_working_folder"]


def deck_roots() -> list[Path]:
    """The folders deck files may be opened from: the working folder (and below) and the
    shipped ``decks/`` folder (:func:`hexwar.paths.content_dir`), resolved."""
    from ..paths import content_dir

    roots = [Path.cwd().resolve()]
    try:
        roots.append(content_dir("decks").resolve())
    except FileNotFoundError:
        pass
    return roots


def outside_working_folder(path: str) -> str | None:
    """Why a deck page inside a game will not save to ``path`` (text as typed), or ``None``:
    deck files are saved inside the working folder, the folder :func:`resolve_deck_path` (Ctrl+O,
    ``--deck``) opens them from, so a saved deck always opens again. An empty ``path`` is left
    to :meth:`DeckBuilder.save`, which names it.

    Raises:
        nothing: a name the file system refuses (too long) is a reason, not an error.
    """
    if not path:
        return None
    cwd = deck_roots()[0]
    try:
        r = (Path(path) if os.path.isabs(path) else cwd / path).resolve()
    except (OSError, RuntimeError) as exc:
        return f"{clip(path)}: cannot be used as a file name ({exc})"
    if r != cwd and cwd not in r.parents:
        return f"{clip(path)}: outside the working folder {cwd}; save deck files there (decks/NAME.toml), where they open again"
    return None


def _inside(p: Path, root: Path) -> bool:
    return p == root or root in p.parents


def resolve_deck_path(value: str | os.PathLike[str]) -> Path:
    """The deck file ``value`` names, resolved safely (links followed): a path inside the
    working folder or the shipped ``decks/`` folder (:func:`deck_roots`), or a bare name
    (``german_kursk_panzers``) looked up as ``decks/NAME.toml`` and ``NAME.toml`` in the working
    folder, then among the shipped decks; ``decks/NAME.toml`` is looked up in the working folder,
    then among the shipped decks.

    Raises:
        HexwarError: one sentence naming ``value``: nothing given, a path that resolves outside
            those folders (``..``, an absolute path elsewhere, a link out), or no such file.
    """
    text = str(value).strip()
    if not text:
        raise HexwarError("no deck file named (give a path such as decks/my_german.toml)")
    roots = deck_roots()
    cwd = roots[0]
    bare = "/" not in text and "\\" not in text and not text.lower().endswith(".toml")
    if bare:
        cands = [cwd / "decks" / f"{text}.toml", cwd / f"{text}.toml"] + [
            r / f"{text}.toml" for r in roots[1:]
        ]
    else:
        p = Path(text).expanduser()
        cands = [p if p.is_absolute() else cwd / p]
        if not p.is_absolute() and len(p.parts) == 2 and p.parts[0] == "decks" and p.parts[1] != "..":
            # the docs' `decks/NAME.toml` names a shipped deck from any working folder (a file
            # name: `decks/..` is the working folder, not the shipped decks' parent)
            cands += [r / p.parts[1] for r in roots[1:]]
    try:
        return _find_deck(text, cands, roots)
    except OSError as exc:  # a name too long for the file system, a path it refuses
        raise HexwarError(
            f"{clip(text)}: cannot be used as a deck file name ({exc.strerror or exc})"
        ) from None


def _shown(p: Path) -> str:
    """A path in a one-line message: as it is, or quoted with its escapes when it holds a
    newline or another control character (:func:`hexwar.errors.clip`)."""
    return clip(str(p), limit=4096, quote=False)


def _find_deck(text: str, cands: list[Path], roots: list[Path]) -> Path:
    """The first of ``cands`` that is a deck file inside ``roots`` (:func:`resolve_deck_path`)."""
    for c in dict.fromkeys(cands):  # the shipped decks/ may be the working folder's
        r = c.resolve()
        if not any(_inside(r, root) for root in roots):
            where = " or ".join(str(x) for x in roots)
            raise HexwarError(
                f"{clip(text)}: resolves to {_shown(r)}, outside the folders deck files are opened from ({where}); "
                "copy the deck file into the working folder"
            )
        if r.is_file():
            return r
    if len(cands) == 1 and cands[0].resolve().is_dir():
        raise HexwarError(f"{clip(text)}: is a folder; expected a deck file such as decks/my_german.toml")
    looked = " and ".join(_shown(c) for c in dict.fromkeys(cands))
    raise HexwarError(f"{clip(text)}: no such deck file (looked for {looked})")


def read_deck_file(value: str | os.PathLike[str]) -> tuple[Path, str, tuple[str, ...]]:
    """Open the deck file ``value`` names (:func:`resolve_deck_path`) and read it
    (:func:`hexwar.lines.scenario.load_deck`): ``(path, side, card ids)``. The cards are unit
    cards of the side; whether they make a deck a game allows is the game's check.

    Raises:
        HexwarError: one line naming the file and what is wrong (a missing or unreadable file,
            bad TOML, an unknown card id, a card of the other side).
    """
    path = resolve_deck_path(value)
    try:
        side, cards, _warnings = load_deck(path, points=None)  # the game judges the points
    except ValidationError as exc:
        raise HexwarError("; ".join(str(p) for p in exc.problems)) from None
    return path, side, tuple(cards)


@dataclass
class DeckBuilder:
    """A Reserves deck in the making for ``side`` within ``budget`` (min, max) points.

    Attributes:
        side: ``german`` or ``soviet``.
        budget: the point limits (80-100; 75 per deck in the 4-player game).
        role: 4-player commander role (``front`` / ``support``) or ``None``.
        cards: the card ids picked, in order.
        name: the deck's name (for the file).
        restrictions: a scenario side's Reserves restrictions (``max_card_cost``,
            ``exclude_types``), or ``None`` for the standard game.
        pool: the unit cards a scenario offers the side (a hex scenario's ``pool``, crews
            included); empty: every unit card of the side.
        max_copies: copies of one unit card a deck may hold, crews not counted (R10.4);
            0: no limit.
        rule: a game's own check of a whole deck, ``rule(cards) -> reason or None`` (the hex
            game's :func:`~hexwar.game.actions.build_deck.deck_problem`); when given it decides
            what is an error (points, pool, copies, crews), and its reason is shown as is.
        crews_required: crews are a rule (R4.1, the hex game), not 000's tip: each kind of
            crew missing is listed (:func:`~hexwar.game.actions.build_deck.crew_shortfalls`).
    """

    side: str
    budget: tuple[int, int] = (80, 100)
    role: str | None = None
    cards: list[str] = field(default_factory=list)
    name: str = "my deck"
    restrictions: LinesSide | None = None
    pool: tuple[str, ...] = ()
    max_copies: int = 0
    rule: Callable[[Sequence[str]], str | None] | None = None
    crews_required: bool = False

    @classmethod
    def for_hex_side(cls, ss: Any, side: str, cards: Sequence[str] = (), name: str = "") -> DeckBuilder:
        """The deck builder of a hex scenario's side with a point budget (000 Standard Game
        Setup, R4.3): its ``pool``, the limits of
        :func:`~hexwar.game.actions.build_deck.deck_limits` (80..budget points, the copies)
        and :func:`~hexwar.game.actions.build_deck.deck_problem` as the rule.

        Args:
            ss: the side's :class:`~hexwar.game.scenario.SideSetup`.
            side: ``"german"`` or ``"soviet"``.
            cards: unit card ids to start from (the side's current Reserves deck).
            name: the deck's name (default ``"my SIDE deck"``).

        Raises:
            HexwarError: when the side plays a fixed deck (no budget).
        """
        from functools import partial

        from ..game.actions.build_deck import deck_limits, deck_problem

        lo, hi, copies = deck_limits(ss)
        return cls(
            side,
            budget=(lo, hi),
            cards=list(cards),
            name=name or f"my {side} deck",
            pool=tuple(ss.pool),
            max_copies=copies,
            rule=partial(deck_problem, ss, side),
            crews_required=True,
        )

    def catalogue(self) -> list[tuple[str, str]]:
        """``(card id, full card text)`` of every unit card of the side, crews included; with a
        4-player ``role`` only that commander's units and the crews (000 4-player, R11.1); with
        a ``pool`` only its cards."""
        from .rules import role_of

        cs = default_cards()
        units = sorted(cs.side_units(self.side), key=lambda u: (u.unit_type, u.id))
        pool = set(self.pool)
        return [
            (u.id, u.help_text(cs))
            for u in units
            if (self.role is None or u.is_crew or role_of(u.id) == self.role)
            and not restriction_problems(self.restrictions, [u.id])
            and (not pool or u.id in pool)
        ]

    def add(self, card_id: str) -> None:
        """Add a card.

        Raises:
            HexwarError: for a card that is not a unit card of the side, one outside the
                ``pool``, or a copy over ``max_copies`` (R10.4; crews are not limited).
        """
        u = default_cards().units.get(card_id)
        if u is None or u.side != self.side:
            raise HexwarError(f"{card_id!r} is not a {self.side} unit card")
        if self.pool and card_id not in self.pool:
            raise HexwarError(f"{u.name} is not among this scenario's cards for the {self.side} side")
        if self.max_copies and not u.is_crew and self.cards.count(card_id) >= self.max_copies:
            raise HexwarError(f"at most {self.max_copies} copies of {u.name} (R10.4)")
        self.cards.append(card_id)

    def remove(self, card_id: str) -> None:
        """Remove one copy of a card (nothing if absent)."""
        if card_id in self.cards:
            self.cards.remove(card_id)

    @property
    def points(self) -> int:
        """The running point total."""
        cs = default_cards()
        return sum(cs.unit(c).cost for c in self.cards)

    def problems(self) -> tuple[list[str], list[str]]:
        """``(errors, warnings)``: points, side, role, the scenario's restrictions; the crew tip
        as a warning. With a :attr:`rule` its reason is the one error (the game refuses
        exactly that), and with :attr:`crews_required` the warnings are every kind of crew
        still missing (R4.1) that the error does not already name."""
        errors, warnings = deck_problems(self.side, list(self.cards), self.budget, self.role)
        errors += restriction_problems(self.restrictions, self.cards)
        if self.rule is not None:
            why = self.rule(list(self.cards))
            errors = [why] if why else []
        if self.crews_required:
            from ..game.actions.build_deck import crew_shortfalls

            try:
                short = crew_shortfalls(self.cards)
            except (KeyError, HexwarError):  # an unknown id: the error names it
                short = []
            warnings = [w for w in short if w not in errors]
        return errors, warnings

    @property
    def crew_label(self) -> str:
        """How the page heads a crew line: ``"Crew rule"`` (R4.1, the hex game) or ``"Crew
        warning"`` (000's tip)."""
        return "Crew rule" if self.crews_required else "Crew warning"

    def copies_left(self, card_id: str) -> int | None:
        """Copies of ``card_id`` that may still be added (``None``: no limit; crews never)."""
        if not self.max_copies or default_cards().unit(card_id).is_crew:
            return None
        return max(0, self.max_copies - self.cards.count(card_id))

    def open(self, value: str | os.PathLike[str]) -> Path:
        """Replace the cards with those of the deck file ``value`` names (:func:`read_deck_file`:
        the working folder or the shipped decks only); its name becomes the deck's name. The
        cards are not checked against the limits here: :meth:`problems` shows what is wrong.

        Returns:
            the file opened.

        Raises:
            HexwarError: naming the file: unreadable, not a deck file, a card of no side's
                deck, or a deck of the other side.
        """
        path, side, cards = read_deck_file(value)
        if side != self.side:
            raise HexwarError(f"{path}: a {side} deck; this deck is for the {self.side} side")
        if self.pool:
            outside = [c for c in dict.fromkeys(cards) if c not in self.pool]
            if outside:
                raise HexwarError(
                    f"{path}: {', '.join(outside)} not among this scenario's cards for the {self.side} side"
                )
        self.cards = list(cards)
        try:
            from ..fileio import loads_toml, read_text

            doc = loads_toml(read_text(path, kind=DECK_FORMAT), str(path))
            deck = doc.get("deck") if isinstance(doc, dict) else None
            if isinstance(deck, dict) and isinstance(deck.get("name"), str) and deck["name"].strip():
                self.name = deck["name"].strip()[:80]
        except HexwarError:  # pragma: no cover - read_deck_file read it already
            pass
        return path

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the deck file (atomically, :func:`hexwar.fileio.atomic_write_text`); an existing
        file is replaced only when it is a hexwar deck file (never lost data).

        Raises:
            HexwarError: when the deck is not legal (points, side), the path is an existing file
                that is not a deck file, or the file cannot be written.
        """
        import tomlkit

        errors, _ = self.problems()
        if errors:
            raise HexwarError("the deck cannot be saved: " + "; ".join(errors))
        if not str(path).strip():
            raise HexwarError("the deck cannot be saved: no file name given")
        if os.path.isdir(path):
            raise HexwarError(f"{path}: is a folder; expected a deck file name such as decks/my_deck.toml")
        if os.path.exists(path):
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    head = fh.read(4096)
            except OSError as exc:
                raise HexwarError(f"{path}: cannot be read ({exc.strerror})") from None
            if DECK_FORMAT not in head:
                raise HexwarError(
                    f"{path}: exists and is not a hexwar deck file; not overwritten "
                    "(choose another file name)"
                )
        doc = tomlkit.document()
        doc.add(tomlkit.comment(f"hexwar deck file (Reserves deck, 000 setup): {self.points} points"))
        doc["format"] = DECK_FORMAT
        doc["schema_version"] = 1
        deck = tomlkit.table()
        deck["name"] = self.name
        deck["side"] = self.side
        deck["cards"] = list(self.cards)
        doc["deck"] = deck
        try:
            atomic_write_text(path, tomlkit.dumps(doc))
        except OSError as exc:
            raise HexwarError(f"{path}: cannot be written ({exc.strerror})") from None
