"""What the play screen tells the player to do next (issue 17 items 1, 2 and 5), without rules
of its own: the words come from the phase (R5), the card data (crews, R4.1/R5.2) and the
game's events.

- :data:`END_PHASE_EFFECT`: what pressing End phase does in each phase (R5).
- :func:`crew_need` / :func:`crewless`: what a unit card needs beside it (a tank crew, an
  artillery crew, a pilot, an infantry unit for a halftrack, R5.2 / 000) and which units of a
  hand would have nobody to crew them.
- :class:`AutoEnds`: follows the event stream and reports the phases a side passed without a
  command of its own (the turn sequence ends a phase automatically when the side's only legal
  command is End phase), so the log and the status line can say so as such.
- :func:`roll_label`: an R1.3 bonus roll name (``"to_hit:1"``) in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..game import ruleset
from ..game.events import GameEvent
from ..game.state import Phase, card_of

__all__ = ["END_PHASE_EFFECT", "crew_need", "crewless", "AutoEnd", "AutoEnds", "roll_label", "plain_reason"]

#: What End phase (Space) does, per phase (R5): shown under every phase's prompt.
END_PHASE_EFFECT = {
    Phase.ARTILLERY: "End phase (Space): call no artillery this turn (R9).",
    Phase.COMMITMENT: "End phase (Space): commit no more cards this turn; Movement follows (R5.2).",
    Phase.MOVEMENT: "End phase (Space): units that have not moved stay where they are (R5.3).",
    Phase.DECLARATION: "End phase (Space): declare no more attacks; the declared ones resolve next (R6.1).",
    Phase.RESOLUTION: "Every declared attack must be resolved before the Draw phase (R6.2).",
    Phase.DRAW: "End phase (Space): keep this hand; the turn ends when both sides are done (R5.5, R5.6).",
    Phase.SETUP: "Keep hand (Enter) when you have picked your starting hand.",
}

#: Phases a side ends with an ``EndPhase`` command (the others end by themselves).
_ENDED_BY_COMMAND = (Phase.ARTILLERY, Phase.COMMITMENT, Phase.MOVEMENT, Phase.DECLARATION, Phase.DRAW)
#: the event of a command that ends the side's phase by itself: its Draw (R5.5), its one
#: artillery call (R9.2); the turn sequence did not end these for it
_ENDS_PHASE = {Phase.DRAW: "draw", Phase.ARTILLERY: "artillery_marker_placed"}


def crew_need(cid: str) -> str | None:
    """What unit card ``cid`` needs from the hand to be committed (R5.2), in words:
    ``"a tank crew card"``, ``"an artillery crew card"``, ``"a pilot card"``, ``"an infantry
    unit to carry"`` (halftracks, 000), or ``None`` (crews themselves and units that need nothing)."""
    cid = card_of(cid)
    if cid not in ruleset.cards().units or ruleset.is_crew(cid):
        return None
    req = ruleset.crew_required(cid)
    if req is None:
        return None
    if req == "infantry":
        return "an infantry unit to carry"
    return f"{ruleset.a_or_an(req.replace('_', ' '))} card"


def crewless(cards: Sequence[str]) -> list[str]:
    """The unit cards of ``cards`` (instance or card ids) that would have nothing to crew or
    carry: each crew card crews one unit of its kind, each infantry unit rides one halftrack
    (R5.2, 000), matched greedily in card order. Returns the card instances left without."""
    units = [c for c in cards if card_of(c) in ruleset.cards().units]
    free_crews = [c for c in units if ruleset.is_crew(card_of(c))]
    free_inf = [c for c in units if ruleset.is_infantry(card_of(c))]
    out: list[str] = []
    for c in units:
        cid = card_of(c)
        if ruleset.is_crew(cid):
            continue
        req = ruleset.crew_required(cid)
        if req is None:
            continue
        if req == "infantry":
            if free_inf:
                free_inf.pop(0)
            else:
                out.append(c)
            continue
        fit = next((k for k in free_crews if ruleset.crew_fits(cid, card_of(k))), None)
        if fit is None:
            out.append(c)
        else:
            free_crews.remove(fit)
    return out


def plain_reason(reason: str) -> str:
    """A rules refusal for a person: the command-field hints meant for scripts are dropped
    (``"(crew=..., R5.2)"`` -> ``"(R5.2)"``)."""
    for field in ("crew=..., ", "carry=..., "):
        reason = reason.replace(field, "")
    return reason.replace(" (crew=...)", "").replace(" (carry=...)", "")


def roll_label(roll: str) -> str:
    """An R1.3 roll name in words: ``"to_hit:0"`` -> ``"to-hit roll 1"``, ``"intensity:1"`` ->
    ``"Intensity roll 2"``, ``"assault_dice"`` -> ``"assault dice"``."""
    kind, _, n = roll.partition(":")
    names = {"to_hit": "to-hit roll", "intensity": "Intensity roll"}
    if kind in names and n.isdigit():
        return f"{names[kind]} {int(n) + 1}"
    return roll.replace("_", " ")


@dataclass(frozen=True)
class AutoEnd:
    """A phase that ended for ``side`` without a command of its own (nothing to do).

    Attributes:
        side: the side.
        phase: the phase (R5).
        turn: the turn.
    """

    side: str
    phase: str
    turn: int

    @property
    def text(self) -> str:
        """The log and status line: ``"Soviet: movement phase ended automatically (nothing to do)"``."""
        return f"{self.side.capitalize()}: {self.phase} phase ended automatically (nothing to do)"


class AutoEnds:
    """Follows the game's events (in order) and finds the automatic phase ends.

    A phase of :data:`_ENDED_BY_COMMAND` that closes (the next ``phase``, ``end_turn`` or
    ``begin_turn`` event) for a side that issued no ``end_phase`` in it was ended by the turn sequence.
    """

    def __init__(self) -> None:
        self.phase: str | None = None
        self.turn = 0
        self.ended: set[str] = set()

    def feed(self, events: Iterable[GameEvent]) -> list[AutoEnd]:
        """Read ``events`` (just applied); returns the automatic ends they contain."""
        out: list[AutoEnd] = []
        for e in events:
            if e.kind == "end_phase" or (self.phase is not None and e.kind == _ENDS_PHASE.get(self.phase)):
                self.ended.add(str(e.data.get("side", "")))
            elif e.kind in ("phase", "end_turn", "begin_turn"):
                if self.phase in _ENDED_BY_COMMAND:
                    out += [
                        AutoEnd(s, self.phase, self.turn) for s in ("german", "soviet") if s not in self.ended
                    ]
                self.phase = str(e.data.get("phase")) if e.kind == "phase" else None
                self.turn = int(e.data.get("turn", self.turn) or self.turn)
                self.ended = set()
        return out
