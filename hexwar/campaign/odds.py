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

__all__ = [
    "win_odds",
    "outcome_odds",
    "odds_table",
    "opponent_options",
    "card_odds",
    "battle_winner",
    "informed_odds",
    "visible_opponent_options",
    "BEST",
    "RANDOM",
    "MODELS",
]

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
    decided its tactic gets only that column. The opponent's plays are those it could still
    have made given what it visibly did (:func:`visible_opponent_options`), each equally likely:
    the figure "if the opponent played at random" (:data:`RANDOM`).
    """
    opp_b, opp_t = visible_opponent_options(st, side)
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


# -- odds from the information set (issue 30, R11.2) -------------------------------------------
BEST = "against a best-playing opponent"
RANDOM = "if the opponent played at random"
MODELS = (BEST, RANDOM)
"""The opponent models of :func:`informed_odds`, in the order the window and ``--json`` show them."""


def visible_opponent_options(st: CampaignState, side: str) -> tuple[list[str], list[str | None]]:
    """The opponent's plays ``side`` cannot rule out, given what it sees (R12.1, R11.2).

    Battle cards: every card the opponent has not revealed (its hand and the face-down card).
    Tactic options: ``[None]`` once it visibly chose none; its held tactic cards (the face-down
    one among them) once it visibly placed one; both while it has not decided.
    """
    opp = other(side)
    battles = list(st.hands[opp])
    if st.slots[opp] is not None:
        battles.append(st.slots[opp])  # type: ignore[arg-type]
    held: list[str | None] = list(st.tactics_hand[opp])
    if st.tactic_slots[opp] is not None:
        held.append(st.tactic_slots[opp])
    if st.tactic_decided[opp]:
        tactics: list[str | None] = held if st.tactic_slots[opp] is not None else [None]
    else:
        tactics = [None, *held]
    return battles, tactics


def informed_odds(st: CampaignState, side: str) -> dict[str, object]:
    """P(``side`` wins the battle being placed) for each of its open plays, under two opponent
    models, conditioned on everything ``side`` can see (R11.2, R12.1).

    ``BEST``: the opponent plays the equilibrium (minimax) mix of the battle's matrix game
    over the rest of the year (:func:`hexwar.campaign.equilibrium.position`), restricted to what
    it visibly did. ``RANDOM``: every play it could still have made (:func:`visible_opponent_options`)
    equally likely. With ``battles="hex"`` or ``"lines"`` the card odds are only the strength
    the battle starts from: the map (or line) game decides it, and ``decided`` says so.

    Args:
        st: a war in the ``place`` phase.
        side: the side asking.

    Returns:
        ``{"models": [BEST, RANDOM], "exact": bool, "decided": "by the cards" | "on the map" |
        "on the map (the line game)", "value": float, "plays": [{"battle", "tactic", BEST: float, RANDOM:
        Fraction, "mix": float}], "rep": {card: the card of "plays" that stands for it}}``
        (interchangeable battle cards share one row): ``value`` is the year's equilibrium value for ``side`` (+1
        won, -1 lost), ``mix`` the probability the equilibrium player gives this play.

    Raises:
        ValueError: outside the ``place`` phase.
    """
    from .equilibrium import position

    if st.phase != "place":
        raise ValueError(f"odds are shown while placing, not in the {st.phase} phase")
    pos = position(st, side)
    opp_b, opp_t = visible_opponent_options(st, side)
    ev = tuple(st.events_in_play)
    plays = []
    for i, (b, t) in enumerate(pos.mine):
        best = float(((pos.win[i] == 1) * pos.y[i]).sum())
        rnd = win_odds(st.cards, side, Play(b, t), opp_b, opp_t, ev, st.initiative, st.campaign_declared)
        plays.append({"battle": b, "tactic": t, BEST: best, RANDOM: rnd, "mix": float(pos.x[i])})
    decided = {"cards": "by the cards", "hex": "on the map", "lines": "on the map (the line game)"}[
        st.options.battles
    ]
    return {
        "models": list(MODELS),
        "exact": pos.exact,
        "decided": decided,
        "value": pos.value,
        "plays": plays,
        "rep": dict(pos.rep),
    }
