"""How a battle is fought when it is not decided by the cards alone (``--battles hex|lines``).

A :class:`BattleFighter` is the hook: given the war (year, battle number, the battle cards and
scores just revealed, the initiative) it fights the battle as another hexwar game and returns
the :class:`~hexwar.campaign.commands.BattleResult` command that reports the winner and names
the game's save (written beside the campaign save). The campaign engine never runs a game
itself: the result enters the war as an ordinary command, so a campaign replays exactly
without replaying its games, and ``--verify`` replays those too.

- :class:`HexBattles` plays a shipped hex scenario of the year (``hex_battles.toml``: 1943 has
  the four 1943 battle scenarios; other years have none, and their battles are decided by the
  cards, which the result says) with both sides played by the standard computer player
  through :func:`hexwar.game.headless.play`. Forces are scaled by the battle cards: the side
  with the lower campaign battle score keeps ``round(n * low / high)`` of its ``n`` starting
  units (at least ``min_units``; the last listed go first); Reserves are unchanged.
- :class:`LinesBattles` plays the Spearpoint card game on lines (R11.1, issue 15) through
  ``hexwar.lines`` (its scenarios and computer player) when that package is installed, and
  otherwise refuses clearly (:func:`lines_available`). The card scores feed it the same way:
  the lower side keeps that share of its starting units and of its Reserves points budget.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
from pathlib import Path
from typing import Any, Protocol

from ..errors import HexwarError
from .commands import UMPIRE, BattleResult
from .state import CampaignState

__all__ = [
    "BattleFighter",
    "HexBattles",
    "LinesBattles",
    "lines_available",
    "make_fighter",
    "scaled_scenario_text",
    "scaled_lines_text",
    "hex_years",
]


class BattleFighter(Protocol):
    """Fights the battle waiting in ``st`` (phase ``battle``) and reports its result."""

    def fight(self, st: CampaignState) -> BattleResult:
        """The umpire's :class:`BattleResult` for the battle now waiting."""
        ...  # pragma: no cover


def hex_years(st: CampaignState) -> dict[int, tuple[str, ...]]:
    """Year -> shipped scenario names for ``--battles hex``."""
    return dict(st.cards.hex_battles.scenarios)


def _battle_seed(seed: int, year: int, number: int) -> int:
    h = hashlib.sha256(f"hexwar-campaign:{seed}:{year}:{number}".encode()).digest()
    return int.from_bytes(h[:7], "big")


def scaled_scenario_text(path: Path, keep: dict[str, int], map_ref: str) -> str:
    """The scenario file at ``path`` with only the first ``keep[side]`` starting units of each
    side and ``map_ref`` as its map (a shipped map name, or a file beside the copy).

    Raises:
        HexwarError: when the file cannot be read as TOML.
    """
    import tomlkit

    from ..fileio import read_text

    doc: Any = tomlkit.parse(read_text(path))
    doc["scenario"]["map"] = map_ref
    for side, n in keep.items():
        units = doc.get("sides", {}).get(side, {}).get("units")
        if units is not None:
            while len(units) > n:
                del units[len(units) - 1]
    return str(tomlkit.dumps(doc))


def scaled_lines_text(path: Path, scale: dict[str, tuple[int, int]]) -> str:
    """The line scenario at ``path`` with each side in ``scale`` weakened by the campaign battle
    scores: ``scale[side] = (low, high)`` keeps ``round(n * low / high)`` of its ``n`` starting
    units (the last listed go first) and scales its Reserves budget and minimum by the same
    ratio (the budget at least :data:`LINES_MIN_BUDGET` points).

    Raises:
        HexwarError: when the file cannot be read as TOML.
    """
    import tomlkit

    from ..fileio import read_text

    doc: Any = tomlkit.parse(read_text(path))
    for side, (low, high) in scale.items():
        t = doc.get("sides", {}).get(side)
        if t is None or low >= high:
            continue
        units = t.get("units")
        if units is not None:
            keep = round(len(units) * low / high)
            while len(units) > keep:
                del units[len(units) - 1]
        budget = int(t.get("budget", 100))
        new_budget = max(LINES_MIN_BUDGET, min(budget, round(budget * low / high)))
        t["budget"] = new_budget
        if "minimum" in t:
            t["minimum"] = min(new_budget, round(int(t["minimum"]) * low / high))
        else:
            t["minimum"] = min(new_budget, round(80 * low / high))
    return str(tomlkit.dumps(doc))


LINES_MIN_BUDGET = 30
"""The least Reserves budget a weakened side keeps in a line battle (``--battles lines``)."""


class HexBattles:
    """``--battles hex``: fight each battle as a hex scenario of its year (see the module text).

    Args:
        folder: where the scaled scenarios and the games' saves are written.
        stem: file name stem (the campaign save's): ``STEM.1943-2.toml`` / ``STEM.1943-2.json``.
        turns: stop each game after this many turns (a stopped game is drawn: the initiative
            holder wins the battle); ``None`` plays each to its end.
        on_game: called with a line of text after each game (progress for the terminal).
    """

    def __init__(self, folder: str | Path, stem: str, turns: int | None = None, on_game: Any = None):
        self.folder = Path(folder)
        self.stem = stem
        self.turns = turns
        self.on_game = on_game

    def _map_ref(self, map_path: Path) -> str:
        """A shipped map by name; any other map copied beside the campaign (the scenario loader
        reads maps only from the shipped folder or the scenario's own folder)."""
        from ..fileio import atomic_write_bytes
        from ..paths import content_dir

        try:
            shipped = content_dir("maps").resolve()
        except FileNotFoundError:
            shipped = None
        if shipped is not None and map_path.parent == shipped:
            return map_path.stem
        name = f"{self.stem}.{map_path.name}"
        copy = self.folder / name
        data = map_path.read_bytes()
        if not copy.exists() or copy.read_bytes() != data:
            atomic_write_bytes(copy, data)
        return name

    def fight(self, st: CampaignState) -> BattleResult:
        """Play the battle waiting in ``st`` (or report the cards' result when its year has no
        scenario).

        Raises:
            HexwarError: when a scenario cannot be loaded or a file cannot be written.
        """
        from ..fileio import atomic_write_text
        from ..game.ai import make_player
        from ..game.headless import play
        from ..game.scenario import find_scenario, load_scenario

        names = st.cards.hex_battles.scenarios.get(st.year, ())
        oc = st.pending_outcome
        if not names:
            return BattleResult(UMPIRE, oc.winner)
        name = names[(st.battle - 1) % len(names)]
        base = load_scenario(find_scenario(name))
        scores = dict(oc.scores)
        hi = max(max(scores.values()), 1)
        keep: dict[str, int] = {}
        for side, setup in base.sides.items():
            n = len(setup.units)
            s = max(scores.get(side, hi), 0)
            keep[side] = n if s >= hi else max(st.cards.hex_battles.min_units, min(n, round(n * s / hi)))
        assert base.path is not None and base.map_path is not None
        tag = f"{self.stem}.{st.year}-{st.battle}"
        text = scaled_scenario_text(base.path, keep, self._map_ref(base.map_path.resolve()))
        scen_path = self.folder / f"{tag}.toml"
        game_path = self.folder / f"{tag}.json"
        atomic_write_text(scen_path, text)
        sc = load_scenario(scen_path)
        seed = _battle_seed(st.seed, st.year, st.battle)
        players: dict[str, Any] = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
        run = play(sc, players, seed=seed, max_turns=self.turns, save_path=game_path)
        winner = run.result.winner
        if self.on_game is not None:
            self.on_game(
                f"   {st.year} battle {st.battle}: {base.name} (German {keep.get('german')} / Soviet "
                f"{keep.get('soviet')} starting units): {winner or 'nobody'} wins the game "
                f"({run.result.reason}), saved to {game_path}"
            )
        return BattleResult(
            UMPIRE, winner, game=game_path.name, game_hash=run.state.state_hash(), scenario=name
        )


def lines_available() -> bool:
    """Whether the Spearpoint card game on lines (``hexwar.lines``, issue 15) is installed."""
    try:
        return (
            importlib.util.find_spec("hexwar.lines") is not None
            and importlib.util.find_spec("hexwar.lines.ai") is not None
        )
    except (ImportError, ValueError):
        return False


LINES_SCENARIOS: dict[int, tuple[str, ...]] = {
    1943: ("lines_prokhorovka", "lines_ponyri", "lines_kharkov", "lines_bukrin"),
}
"""``--battles lines``: the shipped line scenarios per year (all of 1943, like the hex ones)."""


class LinesBattles:
    """``--battles lines``: fight each battle as a line game of its year (R11.1, issue 15).

    Battle N of 1943 plays ``LINES_SCENARIOS[1943][(N - 1) % 4]`` with the line game's standard
    computer player on every seat, saved beside the campaign; other years have no line
    scenario and are decided by the cards. The card scores feed the battle as in
    :class:`HexBattles`: the side with the lower campaign battle score keeps ``round(n * low /
    high)`` of its ``n`` starting units and the same share of its Reserves budget
    (:func:`scaled_lines_text`; the scaled scenario is saved beside the campaign).

    Raises:
        HexwarError: (on creation) when ``hexwar.lines`` is not installed.
    """

    def __init__(self, folder: str | Path, stem: str, turns: int | None = None, on_game: Any = None):
        if not lines_available():
            raise HexwarError(
                "--battles lines needs the Spearpoint card game on lines (hexwar.lines, issue 15), "
                "which is not part of this installation yet; use --battles cards or --battles hex"
            )
        self.folder = Path(folder)
        self.stem = stem
        self.turns = turns
        self.on_game = on_game

    def fight(self, st: CampaignState) -> BattleResult:
        """Play the battle waiting in ``st`` as a line game (or report the cards' result)."""
        from ..game.save import write_save
        from ..game.scenario import find_scenario, load_scenario

        players_mod = importlib.import_module("hexwar.lines.players")
        names = LINES_SCENARIOS.get(st.year, ())
        oc = st.pending_outcome
        if not names:
            return BattleResult(UMPIRE, oc.winner)
        from ..fileio import atomic_write_text

        name = names[(st.battle - 1) % len(names)]
        base_path = Path(find_scenario(name))
        scores = dict(oc.scores)
        hi = max(max(scores.values()), 1)
        scale = {s: (max(v, 0), hi) for s, v in scores.items() if v < hi}
        scen_path = self.folder / f"{self.stem}.{st.year}-{st.battle}.toml"
        atomic_write_text(scen_path, scaled_lines_text(base_path, scale))
        sc = load_scenario(scen_path)
        seed = _battle_seed(st.seed, st.year, st.battle)
        gs: Any = sc.new_game(seed=seed)  # a line game's state (hexwar.lines)
        players = {s: players_mod.make_lines_player("standard", s, seed) for s in gs.seats}
        n = 0
        while not gs.over and (self.turns is None or gs.turn <= self.turns) and n < 100_000:
            gs.apply(players[gs.to_act].choose(gs))
            n += 1
        game_path = self.folder / f"{self.stem}.{st.year}-{st.battle}.json"
        write_save(gs, game_path)
        winner = gs.result.winner if gs.result is not None else None
        if self.on_game is not None:
            self.on_game(
                f"   {st.year} battle {st.battle}: line game {name}: {winner or 'nobody'} wins, saved to {game_path}"
            )
        return BattleResult(UMPIRE, winner, game=game_path.name, game_hash=gs.state_hash(), scenario=name)


def make_fighter(
    mode: str, save: str | None, turns: int | None = None, on_game: Any = None
) -> BattleFighter | None:
    """The fighter of ``--battles MODE`` (``None`` for ``cards``).

    Raises:
        HexwarError: when ``hex``/``lines`` is asked without ``--save`` (the games are saved
            beside the campaign) or ``lines`` is not available.
    """
    if mode == "cards":
        return None
    if not save:
        raise HexwarError(f"--battles {mode} saves each battle's game beside the campaign: give --save FILE")
    p = Path(save)
    folder = p.parent if str(p.parent) else Path(".")
    if mode == "hex":
        return HexBattles(folder, p.stem, turns, on_game)
    return LinesBattles(folder, p.stem, turns, on_game)
