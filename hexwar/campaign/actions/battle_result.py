"""BattleResult: the winner of the hex or line game that fought this battle (``battles=hex|lines``).

The cards are revealed and scored as in 002 (the score is shown and kept in the history), but
the game decides: its winner claims the battle cards. A drawn game goes to the initiative
holder, as a drawn card battle does (002 Rules .4). A report with neither ``scenario`` nor
``game`` says no game of that year exists: the cards' own result stands.
"""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import UMPIRE, BattleResult, Command
from ..events import BattleFought, CampaignEvent
from ..state import CampaignState

COMMAND = BattleResult


def check(st: CampaignState, cmd: BattleResult) -> str | None:
    """Legal in the ``battle`` phase, from the umpire, with a side or ``None`` as winner."""
    if st.phase != "battle":
        return f"no battle is waiting for a game's result in the {st.phase} phase"
    if cmd.side != UMPIRE:
        return "a battle's game result is reported by the umpire, not by a side"
    if cmd.winner not in (None, "german", "soviet"):
        return f"winner: expected german, soviet or null, got {cmd.winner!r}"
    if not cmd.scenario and not cmd.game and cmd.winner != st.pending_outcome.winner:
        return (
            "a battle with no game to fight it is decided by the cards: the winner must be the cards' winner"
        )
    return None


def apply(st: CampaignState, cmd: BattleResult, out: list[CampaignEvent]) -> None:
    """Give the battle to the game's winner (drawn game: the initiative holder)."""
    from ..sequence import finish_battle

    oc = st.pending_outcome
    if not cmd.scenario and not cmd.game:  # no game of this year exists: the cards decide (002)
        finish_battle(
            st, oc.winner, oc.reason + " (no game of this year: decided by the cards)", oc, out, oc.withdrew
        )
        return
    out.append(BattleFought(cmd.scenario, cmd.winner, cmd.game))
    winner = cmd.winner or st.initiative
    reason = (
        f"won the {cmd.scenario} game" if cmd.winner else f"the {cmd.scenario} game was drawn: initiative"
    )
    finish_battle(st, winner, reason, oc, out, game=cmd.game)


def options(st: CampaignState, side: str) -> list[Command]:
    """The umpire's three possible reports (for tests and the random player)."""
    if st.phase != "battle" or side != UMPIRE:
        return []
    out: list[Command] = [BattleResult(UMPIRE, st.pending_outcome.winner)]
    return out + [BattleResult(UMPIRE, w, scenario="umpire") for w in ("german", "soviet", None)]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
