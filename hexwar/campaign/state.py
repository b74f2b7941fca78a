"""The campaign state (002, R11.2): ids and numbers only, changed only by commands.

:class:`CampaignState` holds where every card is (battle hands, the face-down slots, the
battle piles won, tactic cards set aside / in hand / discarded, campaign cards unused / used,
the event pile / in play / discarded, the year cards won), the ranks, the year and battle, the
phase, the initiative, the command log, the event log and the war's one seeded
``numpy.random.Generator`` (R1.2: every draw is a :class:`~hexwar.campaign.events.RandomDraw`
in the log). Card definitions are looked up by id in :class:`~hexwar.campaign.cards.CampaignCards`
and never saved.

``state.apply(command) -> list[event]`` is the only way a war changes: the command's action
module (:mod:`hexwar.campaign.actions`, an explicit registry) checks it first (a refused
command raises :class:`IllegalCommand` and changes nothing), applies it, and the sequence
(:mod:`hexwar.campaign.sequence`) runs the automatic steps (reveals, scoring, the end of a
year, the next year's set-up) until a side must decide again.

Phases: ``choose_tactics`` (both sides, any order), ``campaign`` (the declaring side),
``place`` (both sides, any order), ``battle`` (``battles=hex|lines``: the umpire reports the
game's winner), ``swap`` (the battle's winner, ``event_swap``), ``over``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cards import SIDES, CampaignCards, default_campaign_cards
from .commands import UMPIRE, Command, IllegalCommand
from .events import CampaignEvent, RandomDraw, YearWon
from .options import CampaignOptions

__all__ = ["CampaignState", "BattleRecord", "new_campaign", "PHASES"]

PHASES = ("choose_tactics", "campaign", "place", "battle", "swap", "over")


@dataclass
class BattleRecord:
    """One battle in the history: cards, scores and who won (JSON-ready through ``to_json``)."""

    year: int
    number: int
    german: str
    soviet: str
    german_tactic: str | None
    soviet_tactic: str | None
    campaign: tuple[str, str] | None
    german_score: int
    soviet_score: int
    winner: str | None
    reason: str
    game: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        d = dict(self.__dict__)
        d["campaign"] = list(self.campaign) if self.campaign else None
        return d


@dataclass
class CampaignState:
    """A war in progress; see the module text. Build one with :func:`new_campaign`."""

    seed: int
    options: CampaignOptions
    cards: CampaignCards = field(repr=False)
    rng: np.random.Generator = field(repr=False)
    year: int = 0
    battle: int = 0
    phase: str = "choose_tactics"
    initiative: str = "german"
    ranks: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)  # battles won this year
    promoted: dict[str, bool] = field(default_factory=dict)  # promoted this year
    hands: dict[str, list[str]] = field(default_factory=dict)  # battle cards in hand
    slots: dict[str, str | None] = field(default_factory=dict)  # battle card placed face down
    tactic_slots: dict[str, str | None] = field(default_factory=dict)  # tactic card placed face down
    tactic_decided: dict[str, bool] = field(default_factory=dict)  # placed a tactic card or chose none
    piles: dict[str, list[list[str]]] = field(default_factory=dict)  # battle piles won, one per battle
    stalemates: list[list[str]] = field(default_factory=list)  # battle cards of battles nobody won
    tactics_aside: dict[str, list[str]] = field(default_factory=dict)  # not chosen this year
    tactics_hand: dict[str, list[str]] = field(default_factory=dict)
    tactics_discard: dict[str, list[str]] = field(default_factory=dict)
    tactics_chosen: dict[str, bool] = field(default_factory=dict)
    campaign_unused: dict[str, list[str]] = field(default_factory=dict)
    campaign_used: dict[str, list[str]] = field(default_factory=dict)
    campaign_declared: tuple[str, str] | None = None
    campaign_order: list[str] = field(default_factory=list)  # sides still to declare or pass
    event_pile: list[str] = field(default_factory=list)  # top first
    events_in_play: list[str] = field(default_factory=list)
    events_discard: list[str] = field(default_factory=list)
    year_cards: dict[str, list[int]] = field(default_factory=dict)
    years_unclaimed: list[int] = field(default_factory=list)  # tied years
    years_aside: list[int] = field(default_factory=list)  # years still to come
    swapper: str | None = None  # the side that may swap an event card now
    pending_outcome: Any = None  # the card outcome of a battle waiting for its game (battles=hex|lines)
    history: list[BattleRecord] = field(default_factory=list)
    winner: str | None = None
    result_reason: str = ""
    commands: list[Command] = field(default_factory=list)
    log: list[CampaignEvent] = field(default_factory=list)
    checkpoints: list[tuple[int, int, str]] = field(default_factory=list)  # (year, commands, hash)
    draws: int = 0

    # -- randomness (R1.2) ------------------------------------------------------------------
    def draw_integers(
        self, purpose: str, options: int, count: int, out: list[CampaignEvent]
    ) -> tuple[int, ...]:
        """``count`` distinct indices of ``options`` from the war's generator, recorded."""
        res = tuple(int(i) for i in self.rng.choice(options, size=count, replace=False))
        self._record(RandomDraw(purpose, options, res), out)
        return res

    def shuffle(self, purpose: str, items: list[str], out: list[CampaignEvent]) -> None:
        """Shuffle ``items`` in place with the war's generator, recorded."""
        order = tuple(int(i) for i in self.rng.permutation(len(items)))
        items[:] = [items[i] for i in order]
        self._record(RandomDraw(purpose, len(order), order), out)

    def _record(self, e: CampaignEvent, out: list[CampaignEvent]) -> None:
        self.draws += 1
        out.append(e)

    # -- who acts ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the war has ended."""
        return self.phase == "over"

    def pending(self) -> list[str]:
        """The sides (or ``"umpire"``) that must decide now, in fixed order."""
        if self.phase == "choose_tactics":
            return [s for s in SIDES if not self.tactics_chosen[s]]
        if self.phase == "campaign":
            return self.campaign_order[:1]
        if self.phase == "place":
            return [s for s in SIDES if self.slots[s] is None or not self.tactic_decided[s]]
        if self.phase == "battle":
            return [UMPIRE]
        if self.phase == "swap":
            return [self.swapper] if self.swapper else []
        return []

    @property
    def to_act(self) -> str | None:
        """The first side of :meth:`pending`, or ``None`` when the war is over."""
        p = self.pending()
        return p[0] if p else None

    def tactic_allowance(self, side: str) -> int:
        """How many tactic cards ``side``'s rank lets it choose (the rankings card)."""
        return min(self.cards.ranks[self.ranks[side] - 1].tactic_cards, len(self.cards.tactics))

    # -- commands ---------------------------------------------------------------------------
    def check(self, cmd: Command) -> str | None:
        """Why ``cmd`` is illegal now, or ``None`` when it may be applied."""
        from .actions import action_for, any_action

        if self.over:
            return "the war is over"
        action = action_for(self.phase, cmd)
        if action is None:
            other_action = any_action(cmd)
            if other_action is None:
                return f"unknown command {type(cmd).__name__}"
            why = other_action.check(self, cmd)  # type: ignore[arg-type]  # the registry is mode-neutral
            return why or f"{cmd.kind} is not allowed in the {self.phase} phase"
        return action.check(self, cmd)  # type: ignore[arg-type]

    def apply(self, cmd: Command) -> list[CampaignEvent]:
        """Apply ``cmd`` and every automatic step after it; return the events, in order.

        Raises:
            IllegalCommand: with the reason, leaving the state unchanged.
        """
        from .actions import action_for
        from .sequence import advance

        reason = self.check(cmd)
        if reason is not None:
            raise IllegalCommand(cmd, reason)
        out: list[CampaignEvent] = []
        action = action_for(self.phase, cmd)
        assert action is not None  # checked
        action.apply(self, cmd, out)  # type: ignore[arg-type]
        self.commands.append(cmd)
        advance(self, out)
        self.log.extend(out)
        for e in out:  # one checkpoint per year, after the command that ended it (as replays see it)
            if isinstance(e, YearWon):
                self.checkpoints.append((e.year, len(self.commands), self.state_hash()))
        return out

    def legal_commands(self, side: str | None = None) -> list[Command]:
        """Every legal command of ``side`` (default :attr:`to_act`) in a fixed order."""
        from .actions import REGISTRY

        side = side if side is not None else self.to_act
        if side is None or self.over:
            return []
        return list(REGISTRY.options(self, side))  # type: ignore[arg-type]

    # -- hashing and invariants -------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Everything that changes, as JSON-ready data (for :meth:`state_hash`)."""
        return {
            "seed": self.seed,
            "options": self.options.to_json(),
            "year": self.year,
            "battle": self.battle,
            "phase": self.phase,
            "initiative": self.initiative,
            "ranks": self.ranks,
            "wins": self.wins,
            "promoted": self.promoted,
            "hands": self.hands,
            "slots": self.slots,
            "tactic_slots": self.tactic_slots,
            "tactic_decided": self.tactic_decided,
            "piles": self.piles,
            "stalemates": self.stalemates,
            "tactics_aside": self.tactics_aside,
            "tactics_hand": self.tactics_hand,
            "tactics_discard": self.tactics_discard,
            "tactics_chosen": self.tactics_chosen,
            "campaign_unused": self.campaign_unused,
            "campaign_used": self.campaign_used,
            "campaign_declared": list(self.campaign_declared) if self.campaign_declared else None,
            "campaign_order": self.campaign_order,
            "event_pile": self.event_pile,
            "events_in_play": self.events_in_play,
            "events_discard": self.events_discard,
            "year_cards": self.year_cards,
            "years_unclaimed": self.years_unclaimed,
            "years_aside": self.years_aside,
            "swapper": self.swapper,
            "winner": self.winner,
            "result": self.result_reason,
            "history": [h.to_json() for h in self.history],
            "draws": self.draws,
            "rng": _rng_state(self.rng),
        }

    def state_hash(self) -> str:
        """SHA-256 of :meth:`snapshot` as canonical JSON."""
        text = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def check_invariants(self) -> list[str]:
        """Every broken invariant (empty when all hold): each card in exactly one place,
        ranks between the first and the last, at most 7 battles a year and 7 in every year
        before this one, year cards accounted for."""
        bad: list[str] = []
        c = self.cards
        placed = [x for p in self.stalemates for x in p]
        for side_piles in self.piles.values():
            placed += [x for p in side_piles for x in p]
        for s in SIDES:
            own = set(c.battle_cards(s))
            places = list(self.hands[s]) + [x for x in placed if x in own]
            if self.slots[s]:
                places.append(self.slots[s])  # type: ignore[arg-type]
            if len(places) != len(own) or set(places) != own:
                bad.append(f"{s} battle cards not each in exactly one place: {sorted(places)}")
            tplaces = self.tactics_aside[s] + self.tactics_hand[s] + self.tactics_discard[s]
            if self.tactic_slots[s]:
                tplaces.append(self.tactic_slots[s])  # type: ignore[arg-type]
            if len(tplaces) != len(c.tactics) or set(tplaces) != set(c.tactics):
                bad.append(f"{s} tactic cards not each in exactly one place: {sorted(tplaces)}")
            cplaces = self.campaign_unused[s] + self.campaign_used[s]
            if sorted(cplaces) != sorted(c.campaign_cards(s)):
                bad.append(f"{s} campaign cards not each in exactly one place: {sorted(cplaces)}")
            if not 1 <= self.ranks[s] <= len(c.ranks):
                bad.append(f"{s} rank {self.ranks[s]} outside 1..{len(c.ranks)}")
        eplaces = self.event_pile + self.events_in_play + self.events_discard
        if len(eplaces) != len(c.events) or set(eplaces) != set(c.events):
            bad.append(f"event cards not each in exactly one place: {sorted(eplaces)}")
        years = (
            self.year_cards["german"] + self.year_cards["soviet"] + self.years_unclaimed + self.years_aside
        )
        if not self.over:
            years = years + [self.year]
        if sorted(years) != [y.year for y in c.years]:
            bad.append(f"year cards not each in exactly one place: {sorted(years)}")
        n = c.rules.battles_per_year
        per_year: dict[int, int] = {}
        for h in self.history:
            per_year[h.year] = per_year.get(h.year, 0) + 1
        for y, k in per_year.items():
            if k > n or ((y != self.year or self.over) and k != n):
                bad.append(f"{y}: {k} battles, expected {n}")
        if not 0 <= self.battle <= n:
            bad.append(f"battle number {self.battle} outside 0..{n}")
        return bad

    # -- views (R12.1) ----------------------------------------------------------------------
    def view(self, side: str | None) -> dict[str, Any]:
        """What ``side`` may see (``None``: a spectator, who sees only what both may see).

        The opponent's battle hand is public (every battle card played was revealed), its
        chosen tactic cards are public once both have chosen (hexwar's choice, docs/rules.md);
        the cards in the face-down slots are shown only to their owner. While a card of the
        opponent's lies face down, its hand (and its tactic cards) are shown *with* that card, as
        the cards it has not yet revealed: the hand without it would tell which card lies there.
        """

        def slot(s: str, v: str | None) -> str | None:
            if v is None:
                return None
            return v if s == side else "face down"

        def unrevealed(s: str, cards: list[str], face_down: str | None) -> list[str]:
            return sorted([*cards, face_down]) if s != side and face_down is not None else list(cards)

        return {
            "year": self.year,
            "battle": self.battle,
            "phase": self.phase,
            "initiative": self.initiative,
            "to_act": self.pending(),
            "ranks": dict(self.ranks),
            "wins": dict(self.wins),
            "hands": {s: unrevealed(s, self.hands[s], self.slots[s]) for s in SIDES},
            "slots": {s: slot(s, self.slots[s]) for s in SIDES},
            "tactic_slots": {s: slot(s, self.tactic_slots[s]) for s in SIDES},
            "tactics_hand": {
                s: (
                    unrevealed(s, self.tactics_hand[s], self.tactic_slots[s])
                    if s == side or all(self.tactics_chosen.values())
                    else len(self.tactics_hand[s])
                )
                for s in SIDES
            },
            "tactics_discard": {s: list(self.tactics_discard[s]) for s in SIDES},
            "campaign_unused": {
                s: (list(self.campaign_unused[s]) if s == side else len(self.campaign_unused[s]))
                for s in SIDES
            },
            "campaign_used": {s: list(self.campaign_used[s]) for s in SIDES},
            "campaign_declared": list(self.campaign_declared) if self.campaign_declared else None,
            "events_in_play": list(self.events_in_play),
            "event_pile": len(self.event_pile),
            "year_cards": {s: list(self.year_cards[s]) for s in SIDES},
            "years_unclaimed": list(self.years_unclaimed),
            "piles": {s: [list(p) for p in self.piles[s]] for s in SIDES},
            "history": [h.to_json() for h in self.history],
            "winner": self.winner,
            "result": self.result_reason,
        }


def _rng_state(rng: np.random.Generator) -> str:
    st = rng.bit_generator.state
    return hashlib.sha256(json.dumps(st, sort_keys=True, default=str).encode()).hexdigest()


def new_campaign(
    seed: int = 0,
    options: CampaignOptions | None = None,
    cards: CampaignCards | None = None,
) -> tuple[CampaignState, list[CampaignEvent]]:
    """Set up a war (002 Rules .1) and run it to the first decision.

    Args:
        seed: the war's seed (integer >= 0): the one ``numpy.random.default_rng(seed)``.
        options: rule options (default: 002's basic game).
        cards: card definitions (default: the package's).

    Returns:
        ``(state, events)``: the events of the set-up (event pile shuffle, first year, ...).
    """
    from .sequence import setup

    cards = cards or default_campaign_cards()
    st = CampaignState(
        seed=seed, options=options or CampaignOptions(), cards=cards, rng=np.random.default_rng(seed)
    )
    out: list[CampaignEvent] = []
    setup(st, out)
    st.log.extend(out)
    return st, out
