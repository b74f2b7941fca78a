"""Computer players for the lines game, for every seat (2-player and 4-player).

* :class:`RandomLinesPlayer` -- uniform among the legal commands (a fuzzer, the benchmark's
  opponent);
* :class:`LinesAI` -- the standard player: takes a hand it can field, commits everything it can
  (SPGs to the Rear Line, out of reach of enemy Frontline fire), plays defensive Command cards on
  its most valuable units, declares by the exact odds (:func:`hexwar.lines.odds.declare_odds`:
  expected victory points, discounted for targets already likely to die), resolves the attacks
  of its most threatened units first, spends spare Command cards on the +1 bonus where a hit
  matters, and draws units while its hand is short of them.

Both derive their own generator from the game's seed and the seat (never the game's dice).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import HexwarError
from ..rules.cards import CommandCard, EffectKind
from ..rules.combat import CombatError
from .actions import LINES
from .actions.declare import check as declare_check
from .actions.declare import weapon_choices
from .actions.resolve import void_reason
from .commands import (
    SEATS_2P,
    SEATS_4P,
    ChooseHand,
    Commit,
    Declare,
    DeclareCloseAssault,
    Discard,
    Draw,
    EndPhase,
    LinesCommand,
    MoveLine,
    Recrew,
    Resolve,
    UseCommandCard,
    side_of_seat,
)
from .odds import close_assault_line_odds, declare_odds
from .rules import card, cards, declared_units, fighting, legal_targets
from .state import Phase

if TYPE_CHECKING:  # pragma: no cover
    from .state import LineAttack, LinesState

__all__ = ["LINES_PLAYER_NAMES", "RandomLinesPlayer", "LinesAI", "unit_declarations"]

LINES_PLAYER_NAMES = ("random", "standard", "easy", "normal", "hard")
"""Player names: ``random``, ``standard``; and the ``--ai-level`` levels (issue 31): ``easy``
(:class:`hexwar.search.lines.EasyLinesPlayer`), ``normal`` (``standard``), ``hard``
(:class:`hexwar.search.lines.LinesSearchPlayer`)."""


def _rng(seed: int, seat: str, name: str) -> np.random.Generator:
    seats = SEATS_2P + SEATS_4P
    return np.random.default_rng(
        np.random.SeedSequence(
            [int(seed) & 0xFFFFFFFF, seats.index(seat), LINES_PLAYER_NAMES.index(name), 11]
        )
    )


class RandomLinesPlayer:
    """Uniform among the legal commands.

    Args:
        seat: the seat it plays.
        seed: seeds its own generator.
    """

    name = "random"

    def __init__(self, seat: str, seed: int = 0):
        self.seat = seat
        self.side = seat
        self.rng = _rng(seed, seat, self.name)

    def choose(self, state: LinesState) -> LinesCommand:
        """One legal command.

        Raises:
            HexwarError: when the seat has nothing legal to do.
        """
        cmds = state.legal_commands(self.seat)
        if not cmds:
            raise HexwarError(f"{self.seat}: no legal command (to act: {state.to_act}, phase {state.phase})")
        return cmds[int(self.rng.integers(len(cmds)))]


def unit_declarations(state: LinesState, seat: str, uid: str) -> list[Declare]:
    """The legal :class:`Declare` commands of one unit now (R6.1, 000 Legal Targets): the ones
    ``state.legal_commands(seat)`` lists for ``uid``, in the same order (every target its lines
    reach, every weapon choice, kept when the engine's declaration check passes), without
    listing every other unit's (tests/test_lines_ai_speed.py checks the equality).

    Args:
        state: the game, in its Declaration Phase with ``seat`` to act.
        seat: the declaring seat.
        uid: a unit of that seat in play.

    Returns:
        The declarations, possibly none (a unit that may not declare gets none).
    """
    u = state.units.get(uid)
    if (
        u is None
        or u.seat != seat
        or u.crewing is not None
        or uid in declared_units(state)
        or not fighting(u)
    ):
        return []
    out = []
    for target, at_crew, _line in legal_targets(state, u):
        for ws in weapon_choices(len(card(uid).weapons)):
            cmd = Declare(seat, uid, target, ws, at_crew)
            if declare_check(state, cmd) is None:
                out.append(cmd)
    return out


def _unit_value(uid: str) -> float:
    c = card(uid)
    return float(c.cost)


class LinesAI:
    """The standard computer player for one seat (see the module docstring).

    Args:
        seat: the seat it plays.
        seed: seeds its own generator (ties).
    """

    name = "standard"

    def __init__(self, seat: str, seed: int = 0):
        self.seat = seat
        self.side = seat
        self.rng = _rng(seed, seat, self.name)

    # -- entry -------------------------------------------------------------------------
    def choose(self, state: LinesState) -> LinesCommand:
        """The next command for :attr:`seat`.

        Raises:
            HexwarError: when it is not this seat's turn.
        """
        if state.to_act != self.seat:
            raise HexwarError(f"{self.seat}: not its turn (to act: {state.to_act})")
        step = {
            Phase.SETUP: self._setup,
            Phase.COMMITMENT: self._commitment,
            Phase.DECLARATION: self._declaration,
            Phase.RESOLUTION: self._resolution,
            Phase.DRAW: self._draw,
        }[state.phase]
        cmd = step(state)
        if cmd is not None and state.check(cmd) is None:
            return cmd
        cmds = state.legal_commands(self.seat)
        if not cmds:
            raise HexwarError(f"{self.seat}: no legal command in {state.phase}")
        ends = [c for c in cmds if isinstance(c, EndPhase)]
        return ends[0] if ends else cmds[0]

    # -- setup -------------------------------------------------------------------------
    def _setup(self, state: LinesState) -> LinesCommand | None:
        best, best_v = None, -1.0
        for cmd in state.legal_commands(self.seat):
            assert isinstance(cmd, ChooseHand)
            v = self._fieldable(cmd.cards)
            if v > best_v:
                best, best_v = cmd, v
        return best

    @staticmethod
    def _fieldable(hand: tuple[str, ...] | list[str]) -> float:
        """Cost of the units a hand can commit (units needing a crew count only with one)."""
        crews = [card(c).unit_type for c in hand if card(c).is_crew]
        v = 0.0
        for c in sorted(hand, key=lambda x: -card(x).cost):
            cc = card(c)
            if cc.is_crew:
                continue
            if cc.needs_crew:
                if cc.crew in crews:
                    crews.remove(cc.crew)
                    v += cc.cost + 1
            elif cc.crew == "infantry":
                v += cc.cost * 0.5
            else:
                v += cc.cost
        return v

    # -- commitment ----------------------------------------------------------------------
    def _commitment(self, state: LinesState) -> LinesCommand | None:
        legal = state.legal_commands(self.seat)
        recrews = [c for c in legal if isinstance(c, Recrew)]
        if recrews:
            return max(recrews, key=lambda c: card(c.unit).cost)
        commits = [c for c in legal if isinstance(c, Commit)]
        if commits:

            def key(c: Commit) -> tuple[float, int]:
                spg_rear = card(c.unit).is_spg and c.line == "rear"
                crew_q = card(c.crew).quality if c.crew else None
                q = {"veteran": 2, "regular": 1, "green": 0}.get(crew_q or "", 1)
                return (card(c.unit).cost + (3 if spg_rear else 0), q)

            return max(commits, key=key)
        for c in legal:
            if isinstance(c, MoveLine) and state.units[c.unit].line == "front":
                return c
        return self._play_card(state, legal) or EndPhase(self.seat)

    def _play_card(self, state: LinesState, legal: list[LinesCommand]) -> LinesCommand | None:
        plays = [c for c in legal if isinstance(c, UseCommandCard)]
        best, best_v = None, 0.0
        for c in plays:
            cc = cards().command_or_event(c.card)
            if not isinstance(cc, CommandCard):
                continue
            kinds = {e.kind for e in cc.effects}
            v = 0.0
            if c.unit is not None:
                u = state.units[c.unit]
                val = _unit_value(c.unit)
                if EffectKind.REMOVE_DAMAGE_CARD in kinds:
                    v = val * 0.6
                elif EffectKind.DEFENSE in kinds and cc.duration == "permanent":
                    v = val * 0.3
                elif EffectKind.TURNS_OF_FLIGHT in kinds:
                    v = val * 0.3
                elif cc.duration == "attack":
                    continue  # played at declaration on the best attack
                elif cc.duration == "turn":
                    threatened = any(a.target == c.unit for a in state.attacks.values() if not a.resolved)
                    v = val * 0.4 if threatened else 0.0
                del u
            elif EffectKind.COMMIT_FROM_RESERVES in kinds:
                v = 6.0
            elif EffectKind.DRAW in kinds or EffectKind.INITIATIVE in kinds:
                v = 3.0
            if v > best_v:
                best, best_v = c, v
        return best

    # -- declaration ---------------------------------------------------------------------
    def _ev(self, state: LinesState, cmd: Declare, doomed: dict[str, float]) -> float:
        try:
            o = declare_odds(state, cmd.unit, cmd.target, cmd.weapons, cmd.at_crew)
        except CombatError:
            return -1.0
        alive = 1.0 - min(0.95, doomed.get(cmd.target, 0.0))
        tval = card(cmd.target).cost
        return alive * (
            o.expected_vp
            + 0.5 * o.expected_damage / max(1, card(cmd.target).endurance_full) * tval
            + 0.3 * o.damage_card * tval
        )

    def _declaration(self, state: LinesState) -> LinesCommand | None:
        doomed: dict[str, float] = {}
        for a in state.attacks.values():
            if side_of_seat(a.seat) == side_of_seat(self.seat) and not a.close_assault:
                try:
                    o = declare_odds(state, a.attackers[0], a.target, a.weapons, a.at_crew)
                    doomed[a.target] = doomed.get(a.target, 0.0) + o.destroyed
                except (CombatError, KeyError):
                    pass
        memo: dict[Declare, float] = {}

        def ev(c: Declare) -> float:  # each declaration's odds once per decision (same choices)
            v = memo.get(c)
            if v is None:
                v = memo[c] = self._ev(state, c, doomed)
            return v

        ca_act = LINES.action(state.phase, DeclareCloseAssault)
        if (
            ca_act is None
            or ca_act.options is None
            or next(iter(ca_act.options(state, self.seat)), None) is None
        ):
            # no Close Assault to weigh (the usual case): the most valuable unit that can
            # declare is the only one whose declarations are needed (issue 31: the rollouts'
            # time went into listing every unit's; the same choice as from the full list)
            for uid in sorted(self._ready(state), key=lambda x: (card(x).cost, x), reverse=True):
                mine = unit_declarations(state, self.seat, uid)
                if mine:
                    return max(mine, key=ev)
            return self._attack_card(state, state.legal_commands(self.seat)) or EndPhase(self.seat)
        legal = state.legal_commands(self.seat)
        decls = [c for c in legal if isinstance(c, Declare)]
        cas = [c for c in legal if isinstance(c, DeclareCloseAssault)]
        by_unit: dict[str, list[Declare]] = {}
        for d0 in decls:
            by_unit.setdefault(d0.unit, []).append(d0)

        best_ca: DeclareCloseAssault | None = None
        best_ca_v = 0.0
        for c in cas:
            try:
                o = close_assault_line_odds(state, c.units, c.target)
            except (CombatError, ValueError):
                continue
            v = o.expected_vp * (1.0 - min(0.95, doomed.get(c.target, 0.0)))
            own = 0.0
            for x in c.units:
                own += max((ev(d) for d in by_unit.get(x, [])), default=0.0)
            if v > own and v > best_ca_v:
                best_ca, best_ca_v = c, v
        if best_ca is not None:
            return best_ca
        if by_unit:
            # the most valuable attacker first: it gets the best target
            uid = max(by_unit, key=lambda x: (card(x).cost, x))
            # the best by odds; when nothing is worth it for this unit it declares anyway (no cost)
            return max(by_unit[uid], key=ev)
        card_play = self._attack_card(state, legal)
        if card_play is not None:
            return card_play
        return EndPhase(self.seat)

    def _ready(self, state: LinesState) -> list[str]:
        """This seat's units that may still declare (as :func:`hexwar.lines.actions.declare.options`
        picks them: in play, not riding as a crew, not declared this turn, able to fight)."""
        declared = declared_units(state)
        return [
            uid
            for uid, u in state.units.items()
            if u.seat == self.seat and u.crewing is None and uid not in declared and fighting(u)
        ]

    def _attack_card(self, state: LinesState, legal: list[LinesCommand]) -> LinesCommand | None:
        plays = [
            c
            for c in legal
            if isinstance(c, UseCommandCard)
            and c.unit is not None
            and getattr(cards().command_or_event(c.card), "duration", None) == "attack"
        ]
        if not plays:
            return None

        def val(c: UseCommandCard) -> float:
            a = next(a for a in state.attacks.values() if c.unit in a.attackers and not a.resolved)
            return card(a.target).cost if a.target in state.units else 0.0

        return max(plays, key=val)

    # -- resolution ----------------------------------------------------------------------
    def _resolution(self, state: LinesState) -> LinesCommand | None:
        mine = [a for a in state.attacks.values() if a.seat == self.seat and not a.resolved]
        if not mine:
            return None
        threatened = {
            a.target
            for a in state.attacks.values()
            if not a.resolved and side_of_seat(a.seat) != side_of_seat(self.seat)
        }

        def key(a: object) -> tuple[int, float]:
            att = a.attackers  # type: ignore[attr-defined]
            t = a.target  # type: ignore[attr-defined]
            alive = t in state.units
            return (int(any(x in threatened for x in att)), card(t).cost if alive else -1.0)

        a = max(mine, key=key)
        return Resolve(self.seat, a.number, self.bonus_card(state, a))

    def bonus_card(self, state: LinesState, a: LineAttack) -> str | None:
        """The Command card this seat discards for +1 when it resolves attack ``a`` (R6.2,
        000 Command cards), or ``None``: with 3 or more cards in hand, on a live target costing
        8 or more, never on a Close Assault or a void attack (issue 33); a ``begin_turn`` or
        ``draw`` card first (they are worth least in combat), else the first in sorted order.

        Args:
            state: the game in its Resolution Phase.
            a: an unresolved attack of this seat.
        """
        hand = state.hand_commands[self.seat]
        if (
            len(hand) >= 3
            and a.target in state.units
            and card(a.target).cost >= 8
            and not a.close_assault
            and void_reason(state, a) is None  # issue 33: no card is spent on a void attack
        ):
            spare = [
                c
                for c in hand
                if getattr(cards().command_or_event(c), "phase", None) in ("begin_turn", "draw")
            ] or sorted(hand)
            return spare[0]
        return None

    # -- draw --------------------------------------------------------------------------
    def _draw(self, state: LinesState) -> LinesCommand | None:
        legal = state.legal_commands(self.seat)
        draws = [c for c in legal if isinstance(c, Draw)]
        if draws:
            units = len(state.hand_units[self.seat])
            want = 2 if units <= 3 else 1 if units <= 5 else 0
            if not state.reserves[self.seat]:  # issue 33: an empty Reserves deck gives nothing
                want = 0
            elif not state.command_deck:  # and an empty Command deck neither (000 Draw Phase)
                want = len(draws[0].extra)
            left = len(state.reserves[self.seat])  # never more Reserves cards than it holds (31)
            return min(
                draws, key=lambda d: (d.extra.count("reserves") > left, abs(d.extra.count("reserves") - want))
            )
        discards = [c for c in legal if isinstance(c, Discard)]
        if discards:

            def dval(c: Discard) -> float:
                if c.card in state.hand_units[self.seat]:
                    return float(card(c.card).cost)
                cc = cards().command_or_event(c.card)
                return 1.0 if isinstance(cc, CommandCard) and cc.phase == "begin_turn" else 2.0

            return min(discards, key=dval)
        play = self._play_card(state, legal)
        return play or EndPhase(self.seat)
