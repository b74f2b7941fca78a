"""Helpers for the game-engine tests (tests/test_game_*.py): scenarios, placing units, driving.

``place`` puts a card straight into play (test setup only: real games change only through
commands); the card instance joins ``state.all_cards`` so the invariants still hold.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hexwar.game import ruleset
from hexwar.game.commands import ChooseHand, Discard, Draw, EndPhase, Resolve
from hexwar.game.scenario import Scenario, load_scenario
from hexwar.game.state import GameState, UnitState
from hexwar.model.hexgrid import Hex

DATA = Path(__file__).resolve().parent / "data"
SCENARIO_FILES = tuple(str(p) for p in sorted(DATA.glob("*.toml")))  # given as --scenario (issue 13 item 3)


@cache
def scenario(name: str) -> Scenario:
    """A test scenario from tests/data by stem: ``"game_tiny"``, ``"game_small"``, ``"game_empty"``."""
    return load_scenario(DATA / f"{name}.toml")


def H(label: str) -> Hex:
    """A hex from its label."""
    return Hex.from_label(label)


def place(
    state: GameState,
    card: str,
    label: str | None,
    side: str | None = None,
    crew: str | None = None,
    endurance: int | None = None,
) -> UnitState:
    """Put a new instance of ``card`` into play in hex ``label`` (``None``: aloft), with ``crew``."""
    n = 1
    while f"{card}#{n}" in state.all_cards:
        n += 1
    uid = f"{card}#{n}"
    side = side or ruleset.unit_card(card).side
    h = Hex.from_label(label) if label else None
    u = UnitState(uid, side, side, h, aloft=h is None, endurance=endurance or ruleset.full_endurance(card))
    if h is None:
        u.flight_turns = ruleset.turns_of_flight(card)
    state.units[uid] = u
    state.all_cards = state.all_cards + (uid,)
    if crew:
        c = place(state, crew, None, side)
        del state.units[c.uid]
        c.hex, c.aloft, c.crewing = h, h is None, uid
        c.flight_turns = 0
        state.units[c.uid] = c
        u.crew = c.uid
    state.cache.clear()
    return u


def step(state: GameState) -> None:
    """One neutral command for the side to act: end the phase, or the least eventful choice."""
    cmds = state.legal_commands()
    for kind in (EndPhase, Draw, Discard, Resolve, ChooseHand):
        for c in cmds:
            if isinstance(c, kind):
                state.apply(c)
                return
    state.apply(cmds[0])


def advance_to(state: GameState, phase: str, side: str | None = None, limit: int = 200) -> None:
    """Issue neutral commands until ``phase`` (and ``side`` to act, if given) is reached."""
    for _ in range(limit):
        if state.phase == phase and (side is None or state.to_act == side):
            return
        step(state)
    raise AssertionError(f"did not reach {phase}/{side}: at {state.phase}/{state.to_act}")


# -- AI-vs-AI games shared by the fuzz and replay tests ---------------------------------------
MATCHUPS = (
    ("random", "random"),
    ("random", "random"),
    ("standard", "random"),
    ("random", "standard"),
    ("standard", "standard"),
)


def game_spec(i: int) -> tuple[int, tuple[str, ...], tuple[str, str]]:
    """Game ``i`` of the fuzz run: seed, rule variants and (German, Soviet) players.

    Players cycle through :data:`MATCHUPS` (both AIs on both sides); variants alternate
    ``standard`` / ``classic`` every five games, so every matchup meets both variants.
    """
    variants = ("classic",) if (i // len(MATCHUPS)) % 2 else ()
    return 1000 + i, variants, MATCHUPS[i % len(MATCHUPS)]


@cache
def played(i: int, scenario_name: str = "game_tiny") -> tuple[GameState, list[str]]:
    """Play fuzz game ``i`` to the end, checking the invariants after every command.

    Returns:
        the final state and the broken invariants (with the command that broke them), if any.
    """
    from hexwar.game.ai import make_player
    from hexwar.game.state import check_invariants

    seed, variants, (pg, ps) = game_spec(i)
    state = scenario(scenario_name).new_game(seed=seed, variants=variants)
    players = {"german": make_player(pg, "german", seed), "soviet": make_player(ps, "soviet", seed)}
    broken: list[str] = check_invariants(state)
    n = 0
    while not state.over and not broken:
        cmd = players[state.to_act].choose(state)
        state.apply(cmd)
        n += 1
        broken = [f"after command {n} ({cmd}): {b}" for b in check_invariants(state)]
        if n > 5000:
            broken.append("no end after 5000 commands")
    return state, broken


class FixedRng:
    """A stand-in for the game's numpy Generator that deals the given dice faces in order
    (tests only: it makes a hit, a miss or a tie happen on purpose). ``integers`` takes faces
    from the queue (an exhausted queue falls back to a real Generator); ``permutation`` is
    the identity."""

    def __init__(self, faces, seed=0):
        import numpy as np

        self.faces = list(faces)
        self.real = np.random.default_rng(seed)

    def integers(self, low, high=None, size=None):
        import numpy as np

        n = 1 if size is None else int(size)
        out = []
        for _ in range(n):
            if self.faces:
                f = self.faces.pop(0)
                assert low <= f < high, f"scripted face {f} outside {low}..{high - 1}"
                out.append(f)
            else:
                out.append(int(self.real.integers(low, high)))
        return out[0] if size is None else np.array(out)

    def permutation(self, n):
        import numpy as np

        return np.arange(n)


def script_dice(state: GameState, *faces: int) -> FixedRng:
    """Make the next rolls of ``state`` come out as ``faces`` (one face per die)."""
    rng = FixedRng(faces)
    state.dice.rng = rng  # type: ignore[assignment]
    return rng


def clear_units(state: GameState) -> None:
    """Take every unit off the map (test setup), forgetting their cards for the invariants."""
    gone = set(state.units)
    state.units.clear()
    state.all_cards = tuple(c for c in state.all_cards if c not in gone)
    state.cache.clear()
