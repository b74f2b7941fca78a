"""What ``hexwar play`` and ``hexwar play lines`` share at the terminal: a person choosing from
numbered legal commands (:class:`TerminalPlayer`), and whether a window can open at all.

Both commands import it (cli/game.py and cli/lines.py used to import each other for these).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

__all__ = ["TerminalPlayer"]


class TerminalPlayer:
    """A person at the terminal (``hexwar play --headless``): the hex game's one terminal menu
    (:mod:`hexwar.game.terminal`, also ``hexwar join --headless``) read through click."""

    name = "human"

    #: A run of more options than this with one hex each is shown as one line (see
    #: :data:`hexwar.game.terminal.GROUP_MIN`).
    GROUP_MIN = 7
    #: Option lines printed before a prompt; ``more`` prints the rest (see
    #: :data:`hexwar.game.terminal.SHOWN`).
    SHOWN = 200

    def __init__(self, side: str, deck: tuple[str, ...] = (), deck_path: str = ""):
        """``side``: the side played; ``deck``: unit card ids of a ``--deck`` file (from
        ``deck_path``), played as the side's Reserves deck in setup (BuildDeck, R4.3)."""
        self.side = side
        self.deck = tuple(deck)
        self.deck_path = deck_path
        self._deck_sent = False
        self._briefed = False

    @staticmethod
    def menu(state: Any, cmds: list[Any]) -> tuple[list[str], list[Any], dict[str, dict[str, Any]]]:
        """The options as the terminal shows them: :func:`hexwar.game.terminal.menu`."""
        from ..game.terminal import menu

        return menu(state, cmds)

    def choose(self, state: Any) -> Any:
        """Prompt until a listed number, a group letter with a hex (``a D07``), ``undo``, or
        ``q`` to stop is entered; ``inspect HEX [FROM]``, ``odds N`` and ``more`` (the options
        past the first :attr:`SHOWN`) answer and ask again (:func:`hexwar.game.terminal.read_choice`).

        Raises:
            click.exceptions.Abort: on ``q`` or the end of input (the CLI prints "aborted").
        """
        from ..game.commands import BuildDeck
        from ..game.terminal import TerminalQuit, read_choice
        from ..game.view import state_from_view, view

        if not self._briefed:  # what wins, before the first choice (R10)
            self._briefed = True
            from ..game.terminal import briefing

            told = briefing(state)
            if told:
                click.echo("\n" + "\n".join(told))
        if self.deck and not self._deck_sent and state.phase == "setup":  # --deck: 000 setup, R4.3
            self._deck_sent = True
            cmd = BuildDeck(self.side, self.deck)
            if state.check(cmd) is None:
                click.echo(f"\n{self.side}: your Reserves deck is {self.deck_path} ({len(self.deck)} cards)")
                return cmd

        if "fog" in state.variants:  # R12.2: the person sees and chooses from the side's view only
            state = state_from_view(view(state, self.side).data, state.scenario)

        def ask(text: str) -> str:  # no default: a stray Enter must not spend anything
            return str(click.prompt(text, default=None, show_default=False))

        try:
            return read_choice(state, self.side, ask, click.echo, shown=self.SHOWN, deck_file=_deck_cards)
        except TerminalQuit:
            raise click.exceptions.Abort() from None


def _deck_cards(text: str) -> tuple[str, ...]:
    """The card ids of the deck file ``text`` names (the deck prompt's ``load FILE``): the
    working folder or the shipped decks only (:func:`hexwar.lines.deckbuilder.read_deck_file`).

    Raises:
        HexwarError: naming the file and what is wrong.
    """
    from ..lines.deckbuilder import read_deck_file

    return read_deck_file(text)[2]


def _no_display() -> bool:
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return False
