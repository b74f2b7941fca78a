"""Play a war without a window: players (computer or terminal) choose commands, the engine applies them.

:func:`play_war` is the loop the CLI (``hexwar campaign --headless``), the tests and the
balance command use::

    st, _ = new_campaign(seed, options)
    while not st.over:
        side = st.to_act                       # a side, or "umpire" (a battle's game)
        cmd = fighter.fight(st) if side == "umpire" else players[side].choose(st)
        events = st.apply(cmd)                 # the only way the war changes

:class:`TerminalCampaignPlayer` is a person at the terminal: numbered choices with the exact
odds beside every battle and tactic card; in hot-seat (two people) each placement is preceded
by a "pass the terminal" screen so the other player's face-down cards stay hidden (R12.1).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import HexwarError, small_uint
from .ai import CampaignPlayer
from .battles import BattleFighter
from .cards import SIDES, card_help
from .commands import UMPIRE, BattleResult, Command, PlaceBattleCard, PlaceTacticCard
from .events import BattleStalemate, BattleWon, CampaignEvent, WarOver, describe
from .odds import BEST, MODELS, informed_odds, odds_table
from .save import write_campaign_save
from .state import CampaignState

__all__ = ["WarRun", "play_war", "TerminalCampaignPlayer", "MAX_COMMANDS"]

MAX_COMMANDS = 5000  # a war has at most ~5 x (7 x 8 + 2) commands; this is a safety net


@dataclass
class WarRun:
    """The outcome of :func:`play_war`: the final state and per-side decision times (seconds)."""

    state: CampaignState
    decisions: dict[str, list[float]] = field(default_factory=dict)


def play_war(
    st: CampaignState,
    players: dict[str, CampaignPlayer],
    fighter: BattleFighter | None = None,
    save_path: str | os.PathLike[str] | None = None,
    on_events: Callable[[CampaignState, list[CampaignEvent]], None] | None = None,
    player_names: dict[str, str] | None = None,
    stop_after_year: int | None = None,
) -> WarRun:
    """Play ``st`` to the end of the war (or of ``stop_after_year``).

    Args:
        st: the war (new or continued).
        players: a player per side.
        fighter: fights battles for ``--battles hex|lines`` (``None``: the cards decide).
        save_path: save after every battle and at the end (atomic writes).
        on_events: called with the events of every command.
        player_names: who played each side, written into the save.
        stop_after_year: stop once this year is over (the war itself is unchanged).

    Raises:
        HexwarError: when a battle needs a game and there is no fighter, or a player never
            moves the war on.
    """
    names = player_names or {s: players[s].name for s in SIDES}
    decisions: dict[str, list[float]] = {s: [] for s in SIDES}
    n = 0
    while not st.over:
        if stop_after_year is not None and st.year > stop_after_year:
            break
        side = st.to_act
        assert side is not None
        if side == UMPIRE:
            if fighter is None:
                raise HexwarError(
                    f"battle {st.battle} of {st.year} waits for a game's result, but no --battles fighter runs"
                )
            cmd: Command = fighter.fight(st)
        else:
            t0 = time.perf_counter()
            cmd = players[side].choose(st)
            decisions[side].append(time.perf_counter() - t0)
        events = st.apply(cmd)
        n += 1
        if on_events is not None:
            on_events(st, events)
        if save_path is not None and any(
            isinstance(e, (BattleWon, BattleStalemate, WarOver)) for e in events
        ):
            write_campaign_save(st, save_path, names)
        if n > MAX_COMMANDS:
            raise HexwarError(f"over {MAX_COMMANDS} commands without the war ending")
    if save_path is not None:
        write_campaign_save(st, save_path, names)
    return WarRun(st, decisions)


def _pct(p: Any) -> str:
    return f"{float(p) * 100:5.1f}% ({p})"


class TerminalCampaignPlayer:
    """A person at the terminal (see the module text).

    Args:
        side: the side played.
        hot_seat: another person plays the other side at the same terminal.
        prompt: reads one line (``click.prompt`` in the CLI; tests pass a scripted reader).
        echo: prints one line.
    """

    name = "human"

    def __init__(
        self,
        side: str,
        hot_seat: bool = False,
        prompt: Callable[[str], str] | None = None,
        echo: Callable[[str], None] | None = None,
    ):
        self.side = side
        self.hot_seat = hot_seat
        self._prompt = prompt or input
        self._echo = echo or print
        self._handed = (-1, -1, "")

    def _status(self, st: CampaignState) -> None:
        c, me = st.cards, self.side
        v = st.view(me)
        e = self._echo
        e("")
        e(
            f"{st.year}, battle {st.battle} of {c.rules.battles_per_year} - {me.capitalize()} "
            f"({c.ranks[st.ranks[me] - 1].title}, {st.tactic_allowance(me)} tactic cards a year)"
        )
        e(
            f"  year cards: German {v['year_cards']['german']}  Soviet {v['year_cards']['soviet']}; "
            f"battles this year: German {st.wins['german']}  Soviet {st.wins['soviet']}; "
            f"initiative: {st.initiative.capitalize()}"
        )
        e("  events in play: " + "; ".join(card_help(c, ev) for ev in st.events_in_play))
        opp = "soviet" if me == "german" else "german"
        e(
            f"  {opp.capitalize()} still holds: "
            + ", ".join(f"{c.title(b)} {c.battle[b].value}" for b in v["hands"][opp])
            + (" (one of them lies face down)" if st.slots[opp] else "")
        )
        th = v["tactics_hand"][opp]
        e(
            f"  {opp.capitalize()} tactic cards: "
            + (", ".join(c.title(t) for t in th) if isinstance(th, list) else f"{th} face down")
        )
        if st.campaign_declared:
            e(
                f"  campaign card declared: {st.campaign_declared[0].capitalize()} {c.title(st.campaign_declared[1])}"
            )

    def choose(self, st: CampaignState) -> Command:
        """Show the state and the numbered legal commands (odds beside the cards); read a number.

        Raises:
            HexwarError: on ``q`` or the end of input (the CLI prints it as one line).
        """
        me = self.side
        key = (st.year, st.battle, st.phase)
        if self.hot_seat and st.phase in ("place", "choose_tactics", "campaign") and self._handed != key:
            self._echo("\n" * 40 + f"Pass the terminal to the {me.capitalize()} player.")
            self._read("press Enter when only the " + me.capitalize() + " player is looking")
            self._handed = key
        self._status(st)
        cmds = st.legal_commands(me)
        odds = odds_table(st, me) if st.phase == "place" else {}
        self._best: dict[tuple[str, str | None], float] = {}
        if st.phase == "place":
            info = informed_odds(st, me)
            rep: dict[str, str] = info["rep"]  # type: ignore[assignment]
            by_row = {(p["battle"], p["tactic"]): p[BEST] for p in info["plays"]}  # type: ignore[attr-defined]
            self._best = {(b, t): by_row[(r, t)] for b, r in rep.items() for (rb, t) in by_row if rb == r}
            self._echo(
                "  P(win this battle): " + " / ".join(MODELS) + ("" if info["exact"] else " (approximate)")
            )
        for i, c in enumerate(cmds):
            self._echo(f"  {i:3d}  {self._label(st, c, odds)}")
        while True:
            raw = self._read("number (q to quit)").strip()
            if raw.lower() in ("q", "quit"):
                raise HexwarError("the war was stopped at the terminal (the save, if any, keeps it)")
            if small_uint(raw) is not None and int(raw) < len(cmds):
                return cmds[int(raw)]
            self._echo(f"enter a number 0..{len(cmds) - 1}, or q to quit")

    def _read(self, text: str) -> str:
        try:
            return self._prompt(text)
        except EOFError:
            raise HexwarError("the war was stopped: end of input at the terminal") from None

    def _label(self, st: CampaignState, c: Command, odds: dict[str, dict[str | None, Any]]) -> str:
        cards = st.cards
        if isinstance(c, PlaceBattleCard):
            row = odds.get(c.card, {})
            best = max(row.values()) if row else None
            none = row.get(None) if None in row else (next(iter(row.values())) if row else None)
            t0 = st.tactic_slots[self.side] if st.tactic_decided[self.side] else None
            eq = self._best.get((c.card, t0))
            extra = f"   P(win) {_pct(eq) + ' / ' if eq is not None else ''}{_pct(none)}" + (
                f", best with a tactic {_pct(best)} (at random)" if best is not None and best != none else ""
            )
            return f"place {card_help(cards, c.card)}{extra}"
        if isinstance(c, PlaceTacticCard):
            if st.slots[self.side] is not None:
                p = odds.get(st.slots[self.side], {}).get(c.tactic)  # type: ignore[arg-type]
                eq = self._best.get((st.slots[self.side], c.tactic))  # type: ignore[arg-type]
                tail = (
                    f"   P(win) {_pct(eq) + ' / ' if eq is not None else ''}{_pct(p)}"
                    if p is not None
                    else ""
                )
            else:
                tail = ""
            return (f"place {card_help(cards, c.tactic)}" if c.tactic else "no tactic card") + tail
        if isinstance(c, BattleResult):
            return str(c)
        text = str(c)
        for cid in (getattr(c, "card", None), getattr(c, "event", None)):
            if cid:
                text += f"   [{card_help(cards, cid)}]"
        if hasattr(c, "tactics"):
            text = f"{self.side}: choose " + ", ".join(cards.title(t) for t in c.tactics)  # type: ignore[attr-defined]
        return text


def show_events(
    st: CampaignState, events: list[CampaignEvent], viewer: str | None, echo: Callable[[str], None]
) -> None:
    """Print the readable lines of ``events`` for ``viewer`` (random draws indented)."""
    for e in events:
        line = describe(e, st.cards, viewer)
        echo(("      " if e.kind == "random_draw" else "   ") + line)
