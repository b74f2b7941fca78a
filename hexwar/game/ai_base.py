"""What every computer player shares: the player names, the per-player seeded Generator and
the random player (a fuzzer for the engine). :mod:`hexwar.game.ai` is the public face."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import HexwarError
from ..rules.cards import Deck, Weapon
from ..rules.combat import AttackOrders
from ..rules.odds import attack_odds_variants, close_assault_odds, weapon_odds
from ..rules.terrain_effects import default_effects
from . import resolution, ruleset
from .commands import SIDES, Command
from .resolution import defense_context

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["PLAYER_NAMES", "RandomPlayer", "ai_seed", "BONUS_MIN_GAIN", "best_bonus_roll", "fire_check_gain"]

#: R1.3: the expected victory points a Command card's +1 must add (or save) before the
#: standard player spends one on a roll; half that when its hand is at the Command limit.
BONUS_MIN_GAIN = 1.0

PLAYER_NAMES = ("random", "standard")


def ai_seed(seed: int, side: str, name: str) -> np.random.Generator:
    """A Generator for one AI player, derived from the game's seed and the side (R1.2 style)."""
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFF, SIDES.index(side), PLAYER_NAMES.index(name)])
    return np.random.default_rng(ss)


class RandomPlayer:
    """Chooses uniformly among the legal commands (a fuzzer for the engine).

    Args:
        side: the side it plays.
        seed: seeds its own Generator (see :func:`ai_seed`).
    """

    name = "random"
    undoes = False  # never issues Undo (R12.3): headless runs take no undo points

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.rng = ai_seed(seed, side, self.name)

    def choose(self, state: GameState) -> Command:
        """One legal command, uniformly at random.

        Raises:
            HexwarError: when it is not this side's turn or nothing is legal.
        """
        cmds = state.legal_commands(self.side)
        if not cmds:
            raise HexwarError(f"{self.side}: no legal command (to act: {state.to_act}, phase {state.phase})")
        return cmds[int(self.rng.integers(len(cmds)))]


def best_bonus_roll(state: GameState, a: Any, min_gain: float = BONUS_MIN_GAIN) -> str | None:
    """R1.3: the roll of declared attack ``a`` on which a Command card's +1 adds the most
    expected victory points (exact odds, :mod:`hexwar.rules.odds`), if that gain is at least
    ``min_gain``; else ``None``. Ties go to the earliest roll."""
    rolls = resolution.attack_rolls(state, a)
    if not rolls:
        return None
    cards = ruleset.cards()
    t = state.units.get(a.target)
    if t is None:
        return None
    tgt = t.crew if a.at_crew and t.crew else a.target
    ctx = defense_context(state, tgt, a.hindrance, a.side)
    deck = Deck("damage", list(state.damage_deck), list(state.damage_discard), reshuffle=True)
    try:
        if a.close_assault:
            group = [state.units[x] for x in a.attackers if x in state.units]
            evs = [
                close_assault_odds(
                    cards,
                    group,
                    state.units[tgt],
                    ctx,
                    units=state.units,
                    events_in_play=state.events_in_play,
                    variant=state.variants,
                    damage_deck=deck,
                    command_cards=tuple(a.command_cards),
                    bonus_to_hit=roll == "to_hit:0",
                    bonus_dice=roll == "assault_dice",
                ).expected_vp
                for roll in (None, *rolls)
            ]
        else:
            choices: list[tuple[list[int], list[int]]] = [([], [])]
            for r in rolls:
                kind, _, num = r.partition(":")
                choices.append(
                    ([int(num)] if kind == "to_hit" else [], [int(num)] if kind == "intensity" else [])
                )
            evs = [  # the attack's numbers are worked out once for every choice (issue 22)
                o.expected_vp
                for o in attack_odds_variants(
                    cards,
                    state.units[a.attackers[0]],
                    state.units[tgt],
                    AttackOrders(tuple(a.weapons), a.indirect, tuple(a.command_cards)),
                    ctx,
                    choices,
                    units=state.units,
                    events_in_play=state.events_in_play,
                    variant=state.variants,
                    damage_deck=deck,
                )
            ]
    except Exception:  # pragma: no cover - the odds refuse only what combat refuses
        return None
    base = evs[0]
    gain, _, roll = max((ev - base, -i, r) for i, (r, ev) in enumerate(zip(rolls, evs[1:], strict=True)))
    return roll if gain >= min_gain else None


def fire_check_gain(state: GameState, uid: str) -> float:
    """R8.5 / R1.3: expected victory points a -1 on ``uid``'s fire damage check saves: the
    fall in P(2d6 >= 8) (15/36 -> 10/36) times the chance the hit destroys it (the exact odds
    of one Damage Index 4 hit in its burning hex) times its and its crew's cost."""
    u = state.units[uid]
    need = default_effects().fire_damage_hit_on
    p = [sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= k) / 36 for k in (need, need + 1)]
    fire = Weapon(
        id="fire",
        name="fire",
        attack=(("infantry", 2), ("vehicle", 2), ("gun", 2)),
        rate_of_fire=1,
        damage_index=default_effects().fire_damage_index,
        range=0,
    )
    try:
        o = weapon_odds(
            ruleset.cards(),
            fire,
            u,
            defense_context(state, uid),
            units=state.units,
            events_in_play=state.events_in_play,
            variant=state.variants,
        )
    except Exception:  # pragma: no cover
        return 0.0
    worth = ruleset.cost(u.card) + (ruleset.cost(u.crew) if u.crew else 0)
    return (p[0] - p[1]) * (o.destroyed / max(o.hit, 1e-9)) * worth
