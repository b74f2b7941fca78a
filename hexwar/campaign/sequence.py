"""The campaign's automatic steps (002): set-up, years, battles, reveals, promotion, the end.

The action modules change the state only as far as the command itself goes (a card placed, a
campaign card declared); :func:`advance` then runs whatever follows without a decision - the
reveal and scoring once both sides have placed, the end of a year after its seventh battle,
the next year's set-up - and stops where a side must decide. Rule choices where 002 is silent
are in docs/rules.md ("Campaign").
"""

from __future__ import annotations

from .cards import SIDES
from .events import (
    BattleBegins,
    BattleCardsRevealed,
    BattleScored,
    BattleStalemate,
    BattleWon,
    CampaignEvent,
    EventDiscarded,
    EventRevealed,
    EventsReshuffled,
    InitiativeDrawn,
    Promoted,
    TacticRevealed,
    TacticsChosen,
    WarOver,
    YearBegins,
    YearWon,
)
from .scoring import Outcome, Play, other, resolve_battle
from .state import BattleRecord, CampaignState

__all__ = ["setup", "advance", "start_year", "begin_battle", "finish_battle", "reveal_and_score"]


def setup(st: CampaignState, out: list[CampaignEvent]) -> None:
    """002 Rules .1: battle cards, ranks, campaign cards, the event pile shuffled; then 1941."""
    c = st.cards
    start_rank = len(c.ranks) if st.options.all_tactics_from_start else 1
    for s in SIDES:
        st.ranks[s] = start_rank
        st.hands[s] = []
        st.piles[s] = []
        st.slots[s] = None
        st.tactic_slots[s] = None
        st.tactic_decided[s] = False
        st.tactics_aside[s] = list(c.tactics)
        st.tactics_hand[s] = []
        st.tactics_discard[s] = []
        st.tactics_chosen[s] = False
        st.campaign_unused[s] = list(c.campaign_cards(s)) if st.options.uses_campaign_cards else []
        st.campaign_used[s] = []
        st.year_cards[s] = []
        st.wins[s] = 0
        st.promoted[s] = False
    if not st.options.uses_campaign_cards:  # the cards stay in the box: count them as unused, never offered
        for s in SIDES:
            st.campaign_unused[s] = list(c.campaign_cards(s))
    st.event_pile = list(c.events)
    st.shuffle("event pile", st.event_pile, out)
    st.years_aside = [y.year for y in c.years]
    start_year(st, st.years_aside.pop(0), out)


def _campaign_cards_live(st: CampaignState) -> bool:
    return st.options.uses_campaign_cards


def start_year(st: CampaignState, year: int, out: list[CampaignEvent]) -> None:
    """A year begins (002 Rules .1, .4): initiative, event cards, battle hands, tactic choice."""
    c = st.cards
    first = st.year == 0
    st.year, st.battle = year, 0
    card = c.year(year)
    if st.options.random_initiative or card.initiative == "draw":
        years = [y.year for y in c.years]
        gi, si = st.draw_integers(
            f"{year} initiative: year cards drawn face down (German, Soviet)", len(years), 2, out
        )
        holder = "german" if years[gi] > years[si] else "soviet"
        st.initiative = holder
        out.append(InitiativeDrawn(year, years[gi], years[si], holder))
    else:
        st.initiative = card.initiative
    out.append(YearBegins(year, st.initiative))
    # event cards: 002 draws the next one each year; the advanced rules reshuffle all ten first
    n_events = st.options.events
    if not first:
        if st.options.reshuffle_events:
            st.event_pile = st.event_pile + st.events_in_play + st.events_discard
            st.events_in_play, st.events_discard = [], []
            st.event_pile.sort(key=list(c.events).index)  # a fixed order before the shuffle
            st.shuffle(f"{year} event pile reshuffled", st.event_pile, out)
            out.append(EventsReshuffled(len(st.event_pile)))
        else:
            for ev in st.events_in_play:
                out.append(EventDiscarded(ev))
            st.events_discard += st.events_in_play
            st.events_in_play = []
    for _ in range(n_events):
        if not st.event_pile:  # only reachable with a custom card set: reuse the discards
            st.event_pile = sorted(st.events_discard, key=list(c.events).index)
            st.events_discard = []
            st.shuffle(f"{year} event discards reshuffled", st.event_pile, out)
            out.append(EventsReshuffled(len(st.event_pile)))
        ev = st.event_pile.pop(0)
        st.events_in_play.append(ev)
        out.append(EventRevealed(ev))
    for s in SIDES:
        for p in st.piles[s]:
            for x in p:
                st.hands[c.battle[x].side].append(x)
        st.wins[s] = 0
        st.promoted[s] = False
    for p in st.stalemates:
        for x in p:
            st.hands[c.battle[x].side].append(x)
    for s in SIDES:
        st.piles[s] = []
        st.hands[s] = (
            [x for x in c.battle_cards(s) if x in st.hands[s]] if not first else list(c.battle_cards(s))
        )
        st.tactics_aside[s] = list(c.tactics)
        st.tactics_hand[s] = []
        st.tactics_discard[s] = []
        st.tactics_chosen[s] = False
    st.stalemates = []
    st.phase = "choose_tactics"
    for s in SIDES:  # nothing to choose when the rank allows every card
        if st.tactic_allowance(s) >= len(c.tactics):
            st.tactics_hand[s] = list(c.tactics)
            st.tactics_aside[s] = []
            st.tactics_chosen[s] = True
    _after_choice(st, out)


def _after_choice(st: CampaignState, out: list[CampaignEvent]) -> None:
    if st.phase == "choose_tactics" and all(st.tactics_chosen.values()):
        for s in SIDES:
            out.append(TacticsChosen(s, tuple(st.tactics_hand[s])))
        begin_battle(st, out)


def begin_battle(st: CampaignState, out: list[CampaignEvent]) -> None:
    """The next battle of the year: the campaign-card window, then placing (002 Rules .2, .3)."""
    st.battle += 1
    out.append(BattleBegins(st.year, st.battle))
    for s in SIDES:
        st.slots[s] = None
        st.tactic_slots[s] = None
        st.tactic_decided[s] = False
    st.campaign_declared = None
    st.swapper = None
    st.pending_outcome = None
    if _campaign_cards_live(st):
        order = [st.initiative, other(st.initiative)]
        st.campaign_order = [s for s in order if st.campaign_unused[s]]
    else:
        st.campaign_order = []
    st.phase = "campaign" if st.campaign_order else "place"


def reveal_and_score(st: CampaignState, out: list[CampaignEvent]) -> Outcome:
    """Reveal the tactic cards, then the battle cards, and score them (002 Rules .2)."""
    plays = {s: Play(st.slots[s], st.tactic_slots[s]) for s in SIDES}  # type: ignore[arg-type]
    oc = resolve_battle(st.cards, plays, tuple(st.events_in_play), st.initiative, st.campaign_declared)
    for s in SIDES:
        out.append(TacticRevealed(s, st.tactic_slots[s], s in oc.cancelled))
    out.append(BattleCardsRevealed(st.slots["german"], st.slots["soviet"]))  # type: ignore[arg-type]
    out.append(BattleScored(oc.scores["german"], oc.scores["soviet"], oc.steps["german"], oc.steps["soviet"]))
    return oc


def finish_battle(
    st: CampaignState,
    winner: str | None,
    reason: str,
    oc: Outcome,
    out: list[CampaignEvent],
    withdrew: str | None = None,
    game: str = "",
) -> None:
    """Give the battle to ``winner`` (or nobody), discard the tactic cards, promote, and move
    on: the event swap, the next battle or the end of the year (002 Rules .2, .4)."""
    c = st.cards
    cards = [st.slots["german"], st.slots["soviet"]]
    if winner is None:
        st.stalemates.append(cards)  # type: ignore[arg-type]
        out.append(BattleStalemate(withdrew or "", st.year, st.battle))
    else:
        st.piles[winner].append(cards)  # type: ignore[arg-type]
        out.append(BattleWon(winner, st.year, st.battle, reason, oc.scores["german"], oc.scores["soviet"]))
    for s in SIDES:
        t = st.tactic_slots[s]
        if t is not None:
            from .cards import CampaignEffectKind

            if c.tactics[t].has(CampaignEffectKind.RETURNS_TO_HAND):
                st.tactics_hand[s].append(t)  # Bluff comes back (002 Rules .2)
            else:
                st.tactics_discard[s].append(t)  # discarded until next year
        st.slots[s] = None
        st.tactic_slots[s] = None
    if st.campaign_declared is not None:
        cs, cid = st.campaign_declared
        st.campaign_unused[cs].remove(cid)
        st.campaign_used[cs].append(cid)
    st.history.append(
        BattleRecord(
            st.year,
            st.battle,
            cards[0] or "",
            cards[1] or "",
            _played_tactic(out, "german"),
            _played_tactic(out, "soviet"),
            st.campaign_declared,
            oc.scores["german"],
            oc.scores["soviet"],
            winner,
            reason,
            game,
        )
    )
    st.campaign_declared = None
    st.pending_outcome = None
    if winner is not None:
        st.wins[winner] += 1
        if (
            st.wins[winner] >= c.rules.wins_to_promote
            and not st.promoted[winner]
            and st.ranks[winner] < len(c.ranks)
        ):
            st.ranks[winner] += 1  # one rank a year at most (002 Rules .2)
            st.promoted[winner] = True
            out.append(Promoted(winner, st.ranks[winner]))
    last = st.battle >= c.rules.battles_per_year
    if winner is not None and st.options.event_swap and not last and st.event_pile:
        st.swapper = winner
        st.phase = "swap"
        return
    after_battle(st, out)


def _played_tactic(out: list[CampaignEvent], side: str) -> str | None:
    for e in reversed(out):
        if isinstance(e, TacticRevealed) and e.side == side:
            return e.tactic
    return None


def after_battle(st: CampaignState, out: list[CampaignEvent]) -> None:
    """The next battle, or the end of the year after the last one."""
    st.swapper = None
    if st.battle >= st.cards.rules.battles_per_year:
        end_year(st, out)
    else:
        begin_battle(st, out)


def end_year(st: CampaignState, out: list[CampaignEvent]) -> None:
    """002 Rules .4: most battles won takes the year card; a tie (only a Fighting Withdrawal
    stalemate makes one) gives it to the initiative holder (hexwar's tiebreak, ``tied_year`` in
    rules.toml; ``"nobody"`` is 002's unclaimed card); the first to 3 year cards wins the war;
    after 1945 (no year cards left) more year cards wins, then more battles won over the whole
    war, else the war is drawn (docs/rules.md)."""
    g, so = st.wins["german"], st.wins["soviet"]
    side = "german" if g > so else "soviet" if so > g else None
    if side is None and st.cards.rules.tied_year == "initiative":
        side = st.initiative
    if side is None:
        st.years_unclaimed.append(st.year)
    else:
        st.year_cards[side].append(st.year)
    out.append(YearWon(st.year, side, g, so))
    need = st.cards.rules.years_to_win
    for sd in SIDES:
        if len(st.year_cards[sd]) >= need:
            _war_over(st, sd, f"first to {need} year cards ({', '.join(map(str, st.year_cards[sd]))})", out)
            return
    if not st.years_aside:
        ng, ns = len(st.year_cards["german"]), len(st.year_cards["soviet"])
        if ng != ns:
            w = "german" if ng > ns else "soviet"
            _war_over(
                st,
                w,
                f"more year cards when the war ends after {st.year} ({max(ng, ns)} to {min(ng, ns)})",
                out,
            )
            return
        bg = sum(1 for h in st.history if h.winner == "german")
        bs = sum(1 for h in st.history if h.winner == "soviet")
        if bg == bs:
            _war_over(
                st, None, f"the war ends after {st.year} with {ng} year cards and {bg} battles won each", out
            )
        else:
            w = "german" if bg > bs else "soviet"
            _war_over(
                st,
                w,
                f"{ng} year cards each when the war ends after {st.year}: more battles won over the war "
                f"({max(bg, bs)} to {min(bg, bs)})",
                out,
            )
        return
    start_year(st, st.years_aside.pop(0), out)


def _war_over(st: CampaignState, winner: str | None, reason: str, out: list[CampaignEvent]) -> None:
    st.winner, st.result_reason, st.phase = winner, reason, "over"
    out.append(WarOver(winner, reason))


def advance(st: CampaignState, out: list[CampaignEvent]) -> None:
    """Run the automatic steps after a command until a side (or the umpire) must decide."""
    if st.phase == "choose_tactics":
        _after_choice(st, out)
    elif st.phase == "campaign" and not st.campaign_order:
        st.phase = "place"
    if st.phase == "place" and all(st.slots[s] is not None and st.tactic_decided[s] for s in SIDES):
        oc = reveal_and_score(st, out)
        if st.options.battles == "cards":
            finish_battle(st, oc.winner, oc.reason, oc, out, oc.withdrew)
        else:
            st.pending_outcome = oc
            st.phase = "battle"
