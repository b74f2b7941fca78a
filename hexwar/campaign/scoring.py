"""Scoring one battle (002 Rules .2 and .4): a pure function of the cards, no state, no dice.

Order (002): tactic cards are revealed first and their actions carried out (Counter-
Intelligence cancels the other side's tactic card; two Counter-Intelligence cards cancel each
other); then the battle cards. A side's score starts with its battle card's value, then every
event card in play adds its matching modifiers, then the (uncancelled) tactic cards' bonuses,
then the declared campaign card (which cannot be countered). Scores may fall below zero; only
the comparison counts. The higher score wins; on a draw the initiative holder wins, unless
exactly one side has a ``wins_draws`` effect. A side whose uncancelled tactic card says
``loss_is_stalemate`` turns its loss into a battle nobody wins.

The engine (:mod:`hexwar.campaign.actions`), the exact odds (:mod:`hexwar.campaign.odds`) and
the computer player all call :func:`resolve_battle`, so they can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CampaignCards, CampaignEffectKind, Effect

__all__ = ["Play", "Outcome", "resolve_battle", "other"]

K = CampaignEffectKind


def other(side: str) -> str:
    """The opposing side of ``"german"`` / ``"soviet"``."""
    return "soviet" if side == "german" else "german"


@dataclass(frozen=True, slots=True)
class Play:
    """What one side put into a battle: battle card id, tactic card id or ``None``."""

    battle: str
    tactic: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A resolved battle.

    Attributes:
        scores: final score per side.
        steps: per side, ``(label, change)`` in scoring order (the first is the card value).
        winner: the side that wins, or ``None`` (a stalemate).
        reason: ``"score"``, ``"draw: initiative"``, ``"draw: <card title>"`` or
            ``"stalemate"``.
        cancelled: sides whose tactic card was cancelled.
        withdrew: the side whose Fighting Withdrawal made the stalemate, else ``None``.
    """

    scores: dict[str, int]
    steps: dict[str, tuple[tuple[str, int], ...]]
    winner: str | None
    reason: str
    cancelled: frozenset[str]
    withdrew: str | None = None


def _tactic_effects(cards: CampaignCards, tid: str | None) -> tuple[Effect, ...]:
    return cards.tactics[tid].effects if tid else ()


# (id(cards), events) -> {(side, battle card): (arm, steps)}: the battle card and event steps of
# a year are the same in every battle, so they are worked out once (the odds ask thousands of times)
_BASE: dict[
    tuple[int, tuple[str, ...]],
    tuple[CampaignCards, dict[tuple[str, str], tuple[str, tuple[tuple[str, int], ...]]]],
] = {}


def _base_steps(
    cards: CampaignCards, side: str, battle: str, events: tuple[str, ...]
) -> tuple[str, tuple[tuple[str, int], ...]]:
    key = (id(cards), events)
    entry = _BASE.get(key)
    if entry is None or entry[0] is not cards:
        if len(_BASE) > 256:
            _BASE.clear()
        entry = (cards, {})
        _BASE[key] = entry
    table = entry[1]
    got = table.get((side, battle))
    if got is None:
        b = cards.battle[battle]
        steps = [(b.title, b.value)]
        for ev in events:  # 2. event modifiers
            for e in cards.events[ev].effects:
                if e.kind == K.SCORE and e.applies(side, b.arm):
                    steps.append((cards.events[ev].title, e.value))
        got = (b.arm, tuple(steps))
        table[(side, battle)] = got
    return got


def resolve_battle(
    cards: CampaignCards,
    plays: dict[str, Play],
    events: tuple[str, ...],
    initiative: str,
    campaign: tuple[str, str] | None = None,
) -> Outcome:
    """Resolve one battle (002 Rules .2, .4; see the module text for the order).

    Args:
        cards: the card definitions.
        plays: ``{"german": Play, "soviet": Play}``.
        events: event card ids in play.
        initiative: the side holding the initiative card.
        campaign: ``(side, campaign card id)`` declared for this battle, or ``None``.

    Returns:
        the :class:`Outcome`.

    Raises:
        KeyError: for an unknown card id.
    """
    sides = ("german", "soviet")
    # 1. tactic cards revealed first; Counter-Intelligence acts on the cards as played
    cancels = {
        s: any(e.kind == K.CANCEL_OPPONENT_TACTIC for e in _tactic_effects(cards, plays[s].tactic))
        for s in sides
    }
    cancelled = frozenset(s for s in sides if plays[s].tactic and cancels[other(s)])
    active = {s: (plays[s].tactic if s not in cancelled else None) for s in sides}
    steps: dict[str, list[tuple[str, int]]] = {}
    arms: dict[str, str] = {}
    for s in sides:  # the battle card, then the event modifiers
        arm, base = _base_steps(cards, s, plays[s].battle, events)
        arms[s] = arm
        steps[s] = list(base)
    for s in sides:  # 3. tactic bonus (own score, opponent's score)
        tid = active[s]
        for e in _tactic_effects(cards, tid):
            if e.kind == K.SCORE and (e.arm is None or e.arm == arms[s]):
                steps[s].append((cards.tactics[tid].title, e.value))  # type: ignore[index]
            elif e.kind == K.OPPONENT_SCORE:
                steps[other(s)].append((cards.tactics[tid].title, e.value))  # type: ignore[index]
    draw_winners: list[tuple[str, str]] = []
    for s in sides:
        tid = active[s]
        if tid and cards.tactics[tid].has(K.WINS_DRAWS):
            draw_winners.append((s, cards.tactics[tid].title))
    if campaign is not None:  # 4. the campaign card: cannot be countered
        cs, cid = campaign
        cc = cards.campaign[cid]
        for e in cc.effects:
            if e.kind == K.SCORE and (e.arm is None or e.arm == arms[cs]):
                steps[cs].append((cc.title, e.value))
            elif e.kind == K.OPPONENT_SCORE:
                steps[other(cs)].append((cc.title, e.value))
            elif e.kind == K.WINS_DRAWS:
                draw_winners.append((cs, cc.title))
    scores = {s: sum(v for _, v in steps[s]) for s in sides}
    winner: str | None
    if scores["german"] != scores["soviet"]:
        winner = "german" if scores["german"] > scores["soviet"] else "soviet"
        reason = "score"
    else:
        claim = {s for s, _ in draw_winners}
        if len(claim) == 1:
            winner = next(iter(claim))
            reason = "draw: " + next(t for s, t in draw_winners if s == winner)
        else:
            winner, reason = initiative, "draw: initiative"
    loser = other(winner)  # type: ignore[arg-type]
    withdrew = None
    if active[loser] and cards.tactics[active[loser]].has(K.LOSS_IS_STALEMATE):  # type: ignore[index]
        withdrew, winner, reason = loser, None, "stalemate"
    return Outcome(scores, {s: tuple(steps[s]) for s in sides}, winner, reason, cancelled, withdrew)
