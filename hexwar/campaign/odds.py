"""Exact odds before placing (R11.2): P(win this battle) for each battle card and tactic card.

The opponent's possible plays are every battle card it has not revealed (its hand, plus the
card in its face-down slot if it has placed one) combined with every tactic option it may
still have (no tactic card, or any tactic card it holds or has placed face down), each
combination equally likely. Every combination is scored with the engine's own
:func:`~hexwar.campaign.scoring.resolve_battle`, so the odds are exact fractions
(:class:`fractions.Fraction`) of the rules as played. A stalemate (Fighting Withdrawal) is not
a win.

>>> from hexwar.campaign.state import new_campaign
>>> from hexwar.campaign.commands import ChooseTactics
>>> st, _ = new_campaign(1)
>>> _ = st.apply(ChooseTactics("german", ("flank_attack",)))
>>> _ = st.apply(ChooseTactics("soviet", ("bluff",)))
>>> table = odds_table(st, "german")
>>> all(0 <= p <= 1 for row in table.values() for p in row.values())
True
"""

from __future__ import annotations

from fractions import Fraction

from .cards import CampaignCards
from .scoring import Play, other, resolve_battle
from .state import CampaignState

__all__ = ["win_odds", "outcome_odds", "odds_table", "opponent_options", "card_odds", "battle_winner"]

_CACHE: dict[tuple[object, ...], str | None] = {}
_CACHE_MAX = 500_000


def battle_winner(
    cards: CampaignCards,
    side: str,
    play: Play,
    opp_play: Play,
    events: tuple[str, ...],
    initiative: str,
    campaign: tuple[str, str] | None = None,
) -> str | None:
    """The winner of one battle (``None``: stalemate), memoised over
    :func:`~hexwar.campaign.scoring.resolve_battle` (the odds ask the same questions often)."""
    key = (
        id(cards),
        side,
        play.battle,
        play.tactic,
        opp_play.battle,
        opp_play.tactic,
        events,
        initiative,
        campaign,
    )
    w = _CACHE.get(key, "?")
    if w == "?":
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        w = resolve_battle(cards, {side: play, other(side): opp_play}, events, initiative, campaign).winner
        _CACHE[key] = w
    return w


def outcome_odds(
    cards: CampaignCards,
    side: str,
    play: Play,
    opp_battles: list[str],
    opp_tactics: list[str | None],
    events: tuple[str, ...],
    initiative: str,
    campaign: tuple[str, str] | None = None,
) -> tuple[Fraction, Fraction]:
    """``(P(win), P(stalemate))`` of ``play``, as :func:`win_odds` counts them.

    Raises:
        ValueError: when the opponent has no candidate play.
    """
    if not opp_battles or not opp_tactics:
        raise ValueError("the opponent has no battle card or tactic option to play")
    wins = stale = 0
    for b in opp_battles:
        for t in opp_tactics:
            w = battle_winner(cards, side, play, Play(b, t), events, initiative, campaign)
            wins += w == side
            stale += w is None
    n = len(opp_battles) * len(opp_tactics)
    return Fraction(wins, n), Fraction(stale, n)


def win_odds(
    cards: CampaignCards,
    side: str,
    play: Play,
    opp_battles: list[str],
    opp_tactics: list[str | None],
    events: tuple[str, ...],
    initiative: str,
    campaign: tuple[str, str] | None = None,
) -> Fraction:
    """P(``side`` wins with ``play``) over every (battle card, tactic option) of the opponent,
    each equally likely.

    Args:
        cards: card definitions.
        side: ``"german"`` or ``"soviet"``.
        play: the side's battle card and tactic card (or ``None``).
        opp_battles: the opponent's candidate battle card ids (non-empty).
        opp_tactics: the opponent's candidate tactic ids, ``None`` meaning no tactic card.
        events: event cards in play.
        initiative: the initiative holder.
        campaign: the declared campaign card ``(side, id)``, if any.

    Raises:
        ValueError: when the opponent has no candidate play.
    """
    if not opp_battles or not opp_tactics:
        raise ValueError("the opponent has no battle card or tactic option to play")
    opp = other(side)
    wins = 0
    for b in opp_battles:
        for t in opp_tactics:
            wins += (
                resolve_battle(cards, {side: play, opp: Play(b, t)}, events, initiative, campaign).winner
                == side
            )
    return Fraction(wins, len(opp_battles) * len(opp_tactics))


def opponent_options(st: CampaignState, side: str) -> tuple[list[str], list[str | None]]:
    """What ``side`` cannot rule out about the opponent's play (see the module text)."""
    opp = other(side)
    battles = list(st.hands[opp])
    if st.slots[opp] is not None:
        battles.append(st.slots[opp])  # type: ignore[arg-type]
    tactics: list[str | None] = [None] + list(st.tactics_hand[opp])
    if st.tactic_slots[opp] is not None:
        tactics.append(st.tactic_slots[opp])
    return battles, tactics


def odds_table(st: CampaignState, side: str) -> dict[str, dict[str | None, Fraction]]:
    """``{battle card: {tactic or None: P(win)}}`` for every card ``side`` may still place now.

    A side that has already placed its battle card gets only that card's row; one that has
    decided its tactic gets only that column.
    """
    opp_b, opp_t = opponent_options(st, side)
    slot = st.slots[side]
    mine: list[str] = [slot] if slot is not None else list(st.hands[side])
    if st.tactic_decided[side]:
        tacts: list[str | None] = [st.tactic_slots[side]]
    else:
        tacts = [None] + list(st.tactics_hand[side])
    ev = tuple(st.events_in_play)
    out: dict[str, dict[str | None, Fraction]] = {}
    for b in mine:
        out[b] = {
            t: win_odds(st.cards, side, Play(b, t), opp_b, opp_t, ev, st.initiative, st.campaign_declared)
            for t in tacts
        }
    return out


def card_odds(st: CampaignState, side: str) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """The figures shown beside the cards: for each battle card P(win) with no tactic card (or
    the tactic already placed); for each tactic card P(win) with the battle card placed, or
    with the best battle card for it when none is placed yet."""
    table = odds_table(st, side)
    battle = {b: row[next(iter(row))] if st.tactic_decided[side] else row[None] for b, row in table.items()}
    tactic: dict[str, Fraction] = {}
    for row in table.values():
        for t, p in row.items():
            if t is not None:
                tactic[t] = max(tactic.get(t, Fraction(0)), p)
    return battle, tactic
