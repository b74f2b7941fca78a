"""The campaign screen's controller (issue 16): what the person has picked, turned into commands.

No pyglet: the window (:mod:`hexwar.ui.campaign_screen`) draws what this says and forwards
clicks and keys here; tests drive it directly. Legality comes only from the engine
(``state.check`` / ``state.legal_commands``), odds from :mod:`hexwar.campaign.odds`, text from
:func:`hexwar.campaign.events.describe` for the shown side's view (R12.1).

- ``hand_side``: whose hand is shown face up. Against the computer it is the person's side;
  in hot-seat it is the side to act, behind a "pass the screen" cover (``cover``) that the
  person lifts (``lift_cover``) so the other player never sees it.
- The reveal of a battle is shown step by step (``reveal``: tactic cards, battle cards, the
  score, the winner), one step per ``Pace.reveal`` seconds of the injected clock.
- Computer sides act one command per due ``update()``; ``battles=hex`` battles are fought by
  the fighter in ``update()`` as the umpire.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..campaign.cards import SIDES, card_help
from ..campaign.commands import (
    UMPIRE,
    ChooseTactics,
    Command,
    DeclareCampaignCard,
    KeepEvents,
    PassCampaignCard,
    PlaceBattleCard,
    PlaceTacticCard,
    SwapEvent,
)
from ..campaign.events import (
    BattleBegins,
    BattleCardsRevealed,
    BattleScored,
    BattleStalemate,
    BattleWon,
    CampaignEvent,
    Promoted,
    TacticRevealed,
    YearWon,
    describe,
)
from ..campaign.odds import BEST, RANDOM, informed_odds
from ..campaign.state import CampaignState

__all__ = ["CampaignController", "SHORTCUTS", "RevealStep"]

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("1-7", "pick a battle card of your hand"),
    ("Q W E R T", "pick a tactic card (again: none)"),
    ("N", "no tactic card"),
    ("Enter", "place the picked cards face down / confirm the choice"),
    ("D", "declare the picked campaign card (C cycles them)"),
    ("P", "pass: no campaign card this battle"),
    ("V", "pick the next event card in play (for the swap)"),
    ("S", "swap the picked event card (after a win); K keeps them"),
    ("Space", "lift the cover (hot-seat) / skip the reveal"),
    ("A", "after a battle: what the hard (equilibrium) player would have played"),
    ("H, F1", "this help"),
    ("Esc", "close help / drop the picked cards (never quits)"),
    ("Ctrl+Q", "quit (asks while the war goes on; it is autosaved)"),
)
TACTIC_KEYS = "QWERT"


@dataclass
class RevealStep:
    """One step of a battle's reveal: what is shown and the readable line."""

    kind: str
    text: str
    event: CampaignEvent


@dataclass
class CampaignController:
    """See the module text.

    Args:
        state: the war.
        ai: computer players by side (the other sides are people).
        clock: an object with ``now() -> float`` seconds (``hexwar.ui.clock``).
        fighter: the ``--battles hex|lines`` fighter, or ``None``.
        save: save path (written after every battle), or ``None``.
        reveal_seconds: how long each reveal step stays before the next.
    """

    state: CampaignState
    ai: dict[str, Any] = field(default_factory=dict)
    clock: Any = None
    fighter: Any = None
    save: str | None = None
    reveal_seconds: float = 0.6
    picked_battle: str | None = None
    picked_tactic: str | None = None
    picked_tactics: list[str] = field(default_factory=list)
    picked_campaign: str | None = None
    picked_event: str | None = None
    show_help: bool = False
    cover: bool = False
    log: list[str] = field(default_factory=list)
    reveal: list[RevealStep] = field(default_factory=list)
    reveal_shown: int = 0
    message: str = ""
    year_summary: list[str] = field(default_factory=list)
    hint: str = ""
    show_hint: bool = False
    _hint_for: tuple[int, int] = (0, 0)
    _promotions: list[str] = field(default_factory=list)
    _covered_for: tuple[int, int, str, str] = (0, 0, "", "")
    _next_at: float = 0.0

    def __post_init__(self) -> None:
        for e in self.state.log:
            self.log.append(describe(e, self.state.cards, self._viewer()))
        self._update_cover()

    # -- who is shown -------------------------------------------------------------------------
    @property
    def humans(self) -> list[str]:
        """The sides played by people."""
        return [s for s in SIDES if s not in self.ai]

    @property
    def hot_seat(self) -> bool:
        """Two people at one screen."""
        return len(self.humans) == 2

    @property
    def acting(self) -> str | None:
        """The person's side that must decide now, or ``None`` (computer, umpire, over)."""
        for s in self.state.pending():
            if s in self.humans:
                return s
        return None

    @property
    def hand_side(self) -> str:
        """The side whose hand is drawn face up (see the module text)."""
        if not self.hot_seat:
            return self.humans[0] if self.humans else "german"
        return self.acting or self._covered_for[3] or "german"

    def _viewer(self) -> str | None:
        if not self.humans:
            return None
        return self.humans[0] if len(self.humans) == 1 else "spectator"

    def _update_cover(self) -> None:
        if not self.hot_seat or self.acting is None:
            return
        key = (self.state.year, self.state.battle, self.state.phase, self.acting)
        if key != self._covered_for:
            self.cover = True
            self._covered_for = key
            self._clear_picks()

    def lift_cover(self) -> None:
        """The person at the screen is the one to act: show their hand."""
        self.cover = False

    # -- odds and text ------------------------------------------------------------------------
    def odds(
        self,
    ) -> tuple[dict[str, tuple[float, Fraction]], dict[str, tuple[float, Fraction]], dict[str, Any]]:
        """The figures beside the shown side's cards (only while it places, uncovered), from
        :func:`hexwar.campaign.odds.informed_odds`: per battle card and per tactic card
        ``(P(win) against a best-playing opponent, P(win) if the opponent played at random)``;
        a battle card's with no tactic card (or the one placed), a tactic card's with the placed
        battle card or the best one for it. The third item says the models, exactness and how
        the battle is decided."""
        side = self.hand_side
        st = self.state
        if st.phase != "place" or self.cover or side not in st.pending():
            return {}, {}, {}
        info = informed_odds(st, side)
        rows = {(pl["battle"], pl["tactic"]): (pl[BEST], pl[RANDOM]) for pl in info["plays"]}  # type: ignore[attr-defined]
        rep = info["rep"]
        battle: dict[str, tuple[float, Fraction]] = {}
        slot = st.slots[side]
        hand = ([slot] if slot is not None else []) + list(st.hands[side])
        placed_t = st.tactic_slots[side] if st.tactic_decided[side] else None
        for b in hand:
            key = (rep[b], placed_t)  # type: ignore[index]  # info is a JSON-ready dict
            if key in rows:
                battle[b] = rows[key]
        tactic: dict[str, tuple[float, Fraction]] = {}
        for (_, t), val in rows.items():
            if t is not None and (t not in tactic or val > tactic[t]):
                tactic[t] = val
        return battle, tactic, {k: info[k] for k in ("models", "exact", "decided")}

    def _note_hint(self, cmd: Command) -> None:
        """Before a person's first placement of a battle: what the hard player would play here
        (the mix :class:`hexwar.campaign.ai.EquilibriumPlayer` draws from: the equilibrium mix
        of :func:`hexwar.campaign.equilibrium.position` best against random play, R11.2), shown
        on ``A`` after the battle. Computed from the public state and this side's own cards only
        (R12.1)."""
        st = self.state
        side = getattr(cmd, "side", None)
        if (
            st.phase != "place"
            or side not in self.humans
            or st.slots[side] is not None
            or st.tactic_decided[side]
            or self._hint_for == (st.year, st.battle)
        ):
            return
        from ..campaign.ai import EquilibriumPlayer
        from ..campaign.equilibrium import position

        pos = position(st, side)
        hard = EquilibriumPlayer(side)  # a fresh one: no opponent model yet, as at a war's start
        hard.plan(st)
        mix = hard.last_mix if hard.last_mix is not None and len(hard.last_mix) == len(pos.mine) else pos.x
        order = sorted(range(len(pos.mine)), key=lambda i: -mix[i])
        parts = [
            f"{mix[i]:.0%} {st.cards.title(pos.mine[i][0])}"
            + (f" + {st.cards.title(str(pos.mine[i][1]))}" if pos.mine[i][1] else "")
            for i in order[:3]
            if mix[i] > 0.005
        ]
        self._hint_for = (st.year, st.battle)
        self.hint = (
            f"{st.year}/{st.battle}: the hard player would have played "
            + ", ".join(parts)
            + f" (value of the year {pos.value:+.2f}{'' if pos.exact else ', approximate'})"
        )

    def toggle_hint(self) -> None:
        """A: show or hide what the hard player would have played in the last battle."""
        self.show_hint = not self.show_hint and bool(self.hint)

    def help_lines(self) -> list[str]:
        """Every shortcut, then the help text of the shown side's cards and the events (from data)."""
        st = self.state
        lines = [f"{k:10s} {v}" for k, v in SHORTCUTS]
        lines.append("")
        lines += [card_help(st.cards, e) for e in st.events_in_play]
        lines += [card_help(st.cards, t) for t in st.cards.tactics]
        return lines

    def prompt(self) -> str:
        """One line: what the screen is waiting for."""
        st = self.state
        if st.over:
            return f"The war is over: {st.result_reason}."
        if self.cover:
            return f"Pass the screen to the {self.hand_side.capitalize()} player, then press Space."
        side = self.acting
        if side is None:
            who = st.pending()[0] if st.pending() else ""
            return (
                "The battle is being fought on the map..."
                if who == UMPIRE
                else f"{who.capitalize()} is thinking..."
            )
        if st.phase == "choose_tactics":
            n = st.tactic_allowance(side)
            return f"{side.capitalize()}: choose {n} tactic card{'s' if n > 1 else ''} for {st.year} (Q-T), then Enter."
        if st.phase == "campaign":
            return f"{side.capitalize()}: declare a campaign card (C to pick, D to declare) or P to pass."
        if st.phase == "place":
            return f"{side.capitalize()}: pick a battle card (1-7) and maybe a tactic card (Q-T), then Enter."
        if st.phase == "swap":
            return f"{side.capitalize()} won: S swaps the picked event card to the bottom of the pile, K keeps them."
        return ""

    # -- picking ------------------------------------------------------------------------------
    def _clear_picks(self) -> None:
        self.picked_battle = self.picked_tactic = self.picked_campaign = self.picked_event = None
        self.picked_tactics = []

    def cancel(self) -> None:
        """Esc: close the help, else drop the picked cards (issue 36: Esc never quits)."""
        if self.show_help:
            self.show_help = False
        else:
            self._clear_picks()

    def save_players(self) -> dict[str, str]:
        """Who plays each side, as a save records it (``"human"`` or the computer's name)."""
        return {s: (self.ai[s].name if s in self.ai else "human") for s in SIDES}

    def pick_battle(self, index: int) -> None:
        """Pick the battle card at ``index`` (0-based) of the shown hand."""
        side = self.acting
        if side is None or self.cover or self.state.phase != "place" or self.state.slots[side] is not None:
            return
        hand = self.state.hands[side]
        if 0 <= index < len(hand):
            self.picked_battle = hand[index]

    def pick_tactic(self, index: int | None) -> None:
        """Pick the tactic card at ``index`` of the side's tactic cards (``None``, or the same
        again: no tactic card); at the start of a year, toggle it in the year's choice."""
        side = self.acting
        if side is None or self.cover:
            return
        st = self.state
        if st.phase == "choose_tactics":
            if index is None or not 0 <= index < len(st.cards.tactics):
                return
            t = list(st.cards.tactics)[index]
            if t in self.picked_tactics:
                self.picked_tactics.remove(t)
            elif len(self.picked_tactics) < st.tactic_allowance(side):
                self.picked_tactics.append(t)
            return
        if st.phase != "place":
            return
        hand = st.tactics_hand[side]
        if index is None or not 0 <= index < len(hand) or hand[index] == self.picked_tactic:
            self.picked_tactic = None
        else:
            self.picked_tactic = hand[index]

    def cycle_campaign(self) -> None:
        """Pick the next unused campaign card."""
        side = self.acting
        if side is None or self.state.phase != "campaign":
            return
        cards = self.state.campaign_unused[side]
        if cards:
            i = cards.index(self.picked_campaign) + 1 if self.picked_campaign in cards else 0
            self.picked_campaign = cards[i % len(cards)]

    def cycle_event(self) -> None:
        """Pick the next event card in play (for the swap)."""
        evs = self.state.events_in_play
        i = evs.index(self.picked_event) + 1 if self.picked_event in evs else 0
        self.picked_event = evs[i % len(evs)]

    # -- commands -----------------------------------------------------------------------------
    def _issue(self, cmd: Command) -> bool:
        reason = self.state.check(cmd)
        if reason is not None:
            self.message = reason
            return False
        self._apply(cmd)
        return True

    def confirm(self) -> bool:
        """Enter: place the picked cards / confirm the year's tactic choice. Returns whether
        a command was issued."""
        side = self.acting
        if side is None or self.cover:
            return False
        st = self.state
        if st.phase == "choose_tactics":
            chosen = tuple(t for t in st.cards.tactics if t in self.picked_tactics)
            return self._issue(ChooseTactics(side, chosen))
        if st.phase == "place":
            if st.slots[side] is None:
                if self.picked_battle is None:
                    self.message = "pick a battle card first (1-7)"
                    return False
                if not self._issue(PlaceBattleCard(side, self.picked_battle)):
                    return False
            return self._issue(PlaceTacticCard(side, self.picked_tactic))
        return False

    def declare(self) -> bool:
        """D: declare the picked campaign card."""
        side = self.acting
        if side is None or self.picked_campaign is None:
            self.message = "pick a campaign card first (C)"
            return False
        return self._issue(DeclareCampaignCard(side, self.picked_campaign))

    def pass_campaign(self) -> bool:
        """P: no campaign card this battle."""
        side = self.acting
        return side is not None and self._issue(PassCampaignCard(side))

    def swap(self) -> bool:
        """S: swap the picked event card (the first in play if none is picked)."""
        side = self.acting
        if side is None:
            return False
        return self._issue(SwapEvent(side, self.picked_event or self.state.events_in_play[0]))

    def keep(self) -> bool:
        """K: keep the event cards."""
        side = self.acting
        return side is not None and self._issue(KeepEvents(side))

    def _apply(self, cmd: Command) -> None:
        if isinstance(cmd, (PlaceBattleCard, PlaceTacticCard)):
            self._note_hint(cmd)
        events = self.state.apply(cmd)
        viewer = self._viewer()
        for e in events:
            self.log.append(describe(e, self.state.cards, viewer))
        steps = [
            RevealStep(e.kind, describe(e, self.state.cards, viewer), e)
            for e in events
            if isinstance(e, (TacticRevealed, BattleCardsRevealed, BattleScored, BattleWon, BattleStalemate))
        ]
        if steps:
            self.reveal = steps
            self.reveal_shown = 1
            self._next_at = self._now() + self.reveal_seconds
        if any(isinstance(e, (BattleWon, BattleStalemate)) for e in events) and self.save:
            from ..campaign.save import write_campaign_save

            write_campaign_save(self.state, self.save, self.save_players())
        for e in events:
            if isinstance(e, Promoted):
                self._promotions.append(describe(e, self.state.cards, viewer))
            if isinstance(e, YearWon):
                self.year_summary = self._summary(e)
                self._promotions = []
        if any(isinstance(e, (BattleCardsRevealed,)) for e in events) and not any(
            isinstance(e, YearWon) for e in events
        ):
            self.year_summary = []  # a battle of the next year is being shown: the summary goes
        if any(isinstance(e, (BattleBegins, YearWon)) for e in events):
            self._clear_picks()  # issue 36: the last battle's card stayed picked into the next year
        self.message = ""
        self._update_cover()

    def _summary(self, e: YearWon) -> list[str]:
        """The year-end summary: the year card, the battles, the promotions, the events."""
        st = self.state
        recs = [h for h in st.history if h.year == e.year]
        stale = sum(1 for h in recs if h.winner is None)
        card = (
            f"the {e.year} year card goes to the {e.side.capitalize()}"
            + (" (tied: the initiative holder takes it)" if e.german_wins == e.soviet_wins else "")
            if e.side
            else "tied: nobody takes the year card"
        )
        lines = [
            f"{e.year} is over: {card}",
            f"battles won: German {e.german_wins}, Soviet {e.soviet_wins}"
            + (f", {stale} stalemate" if stale else ""),
            "year cards: "
            + ", ".join(f"{s.capitalize()} {len(st.year_cards[s])}" for s in SIDES)
            + (f", tied {len(st.years_unclaimed)}" if st.years_unclaimed else ""),
        ]
        lines += self._promotions or ["no promotion"]
        lines += [
            f"{h.number}. {st.cards.title(h.german)} {h.german_score} - {h.soviet_score} "
            f"{st.cards.title(h.soviet)}: {(h.winner or 'nobody').capitalize()}"
            for h in recs
        ]
        if st.over:
            lines.append(f"The war is over: {st.result_reason}")
        return lines

    def _now(self) -> float:
        return float(self.clock.now()) if self.clock is not None else 0.0

    @property
    def revealing(self) -> bool:
        """A battle's reveal is still being shown step by step."""
        return 0 < self.reveal_shown < len(self.reveal)

    def skip_reveal(self) -> None:
        """Space: show the whole reveal at once."""
        self.reveal_shown = len(self.reveal)

    def update(self) -> bool:
        """One tick: the next reveal step when due, else one computer (or umpire) command.
        Returns whether anything changed."""
        now = self._now()
        if self.revealing:
            if now >= self._next_at:
                self.reveal_shown += 1
                self._next_at = now + self.reveal_seconds
                return True
            return False
        st = self.state
        if st.over:
            return False
        for side in st.pending():
            if side == UMPIRE and self.fighter is not None:
                self._apply(self.fighter.fight(st))
                return True
            if side in self.ai:
                self._apply(self.ai[side].choose(st))
                return True
        return False

    def key(self, name: str) -> bool:
        """A key by name (``"1"``, ``"Q"``, ``"ENTER"``, ``"SPACE"``, ...): the shortcut table."""
        name = name.upper()
        if name == "H":
            self.show_help = not self.show_help
            return True
        if name == "F1":
            self.show_help = not self.show_help
            return True
        if name == "ESCAPE":
            self.cancel()
            return True
        if name == "SPACE":
            if self.cover:
                self.lift_cover()
            else:
                self.skip_reveal()
            return True
        if name.isdigit() and name != "0":
            self.pick_battle(int(name) - 1)
            return True
        if name in TACTIC_KEYS:
            self.pick_tactic(TACTIC_KEYS.index(name))
            return True
        handlers = {
            "N": lambda: self.pick_tactic(None),
            "ENTER": self.confirm,
            "RETURN": self.confirm,
            "C": self.cycle_campaign,
            "D": self.declare,
            "P": self.pass_campaign,
            "S": self.swap,
            "K": self.keep,
            "V": self.cycle_event,
            "A": self.toggle_hint,
        }
        h = handlers.get(name)
        if h is None:
            return False
        h()
        return True
