"""``hexwar play`` and ``hexwar replay``: play a scenario (window or headless) and check saves.

``hexwar play [SCENARIO] --headless [--ai german,soviet] [--seed N] [--rules VARIANT]
[--save FILE] [--turns N] [--json] [--map generated:SEED]`` plays to the end with the chosen computer players and
prints the turn-by-turn log (rolls included) and the result; ``--json`` prints only the result
and final scores as JSON. A side not named in ``--ai`` is played at the terminal (a numbered
list of legal commands). Without ``--headless`` the game window opens, or one sentence offers
``--headless`` when no display is available. The window is whatever
``hexwar.ui.play_window.run`` is, called as::

    run(scenario=Scenario, seed=int | None, variants=tuple[str, ...] | None,
        ai={side: "standard" | "random"} | None, save=str | None, turns=int | None,
        [palette=str, resumed=GameState, players={side: name}, offer=ResumeOffer, fast=bool])

(``ai=None``: the window's own default sides, or for ``resumed`` the save's ``players``;
``variants=None``: the scenario's). ``hexwar play SAVE.json`` opens the save in the window and
autosaves to it; a plain ``hexwar play`` offers the last unfinished autosaved game first;
``--palette high-contrast`` picks the high-contrast colours.

``hexwar play SAVE.json --headless`` continues a saved game (autosaves are written after every
End Turn, so a game stopped with ``--turns`` or by quitting goes on from its last save); the
save keeps its seed and rule variants, ``--turns N`` plays N more turns, and the new turns are
written back to SAVE.json (``--save OTHER`` forks the game into OTHER instead).

``--save FILE`` is checked before the game starts: its folder must exist, and an existing
file there is replaced only when it is a hexwar save (never a scenario, map or anything else).

``hexwar replay SAVE --verify`` replays a save through the same code and checks every
checkpoint, the final state and the log hashes (exit status 1 when anything differs or is
missing). A save's scenario is looked for only in the save's folder, among the shipped
scenarios and in ``--scenario FILE``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from ..errors import HexwarError, cannot, clip, unnamed
from ..rules.cards import SIDES
from . import echo_json
from .terminal import TerminalPlayer, _no_display

__all__ = [
    "play",
    "replay",
    "parse_ai",
    "parse_rules",
    "parse_hex_decks",
    "DEFAULT_SCENARIOS",
    "TerminalPlayer",
]

DEFAULT_SCENARIOS = ("standard", "skirmish")  # the first shipped one found is played by default


def parse_ai(spec: str | None, default: str = "standard") -> dict[str, str]:
    """``--ai`` text -> ``{side: player name}``.

    ``"german,soviet"`` (both ``standard``), ``"soviet=random"``, ``"german=standard,soviet=random"``;
    ``"none"`` or ``""`` for no computer player.

    Raises:
        HexwarError: naming the bad entry.

    >>> parse_ai("german,soviet=random")
    {'german': 'standard', 'soviet': 'random'}
    """
    from ..game.ai import PLAYER_NAMES

    out: dict[str, str] = {}
    if spec is None:
        return {s: default for s in SIDES}
    spec = spec.strip()
    if spec in ("", "none"):
        return out
    for part in spec.split(","):
        part = part.strip()
        side, _, name = part.partition("=")
        side = side.strip().lower()
        name = name.strip().lower() or default
        if side not in SIDES:
            raise HexwarError(
                f"--ai: unknown side {side!r} in {spec!r}; expected german and/or soviet, e.g. "
                "'german,soviet' or 'soviet=random'"
            )
        if name not in PLAYER_NAMES:
            raise HexwarError(f"--ai: unknown computer player {name!r}; expected one of {PLAYER_NAMES}")
        out[side] = name
    return out


DEFAULT_WINDOW_AI = {"soviet": "standard"}
"""The window's computer side when ``--ai`` is not given (the person plays the Germans)."""


def apply_ai_level(names: dict[str, str], spec: str | None, sides: tuple[str, ...]) -> dict[str, str]:
    """Give the computer sides of ``names`` (``{side: player name}``, from ``--ai``) their
    ``--ai-level`` (issue 31): a ``standard`` side plays at its level (``normal`` is the
    standard player itself); ``random`` stays random.

    The default level, when ``--ai-level`` is not given, is ``hard`` (the search player, whose
    decisions stay within the budget of ``benchmarks/bench_search.py``) whenever a person plays
    a side, and ``normal`` when every side is a computer (batch runs keep today's speed and
    their pinned results).

    Raises:
        HexwarError: for a bad ``--ai-level`` (see :func:`hexwar.cli.ai_level.parse_ai_level`).
    """
    from .ai_level import parse_ai_level

    default = "normal" if all(s in names for s in sides) else "hard"
    levels = parse_ai_level(spec, sides, default)
    return {s: (n if n != "standard" or levels[s] == "normal" else levels[s]) for s, n in names.items()}


def parse_rules(values: tuple[str, ...]) -> tuple[str, ...] | None:
    """``--rules`` values (repeatable, comma-separated) -> variants, ``None`` when not given.

    Raises:
        HexwarError: naming an unknown variant.
    """
    from ..game.scenario import KNOWN_VARIANTS

    if not values:
        return None
    out: list[str] = []
    for v in values:
        for part in v.split(","):
            p = part.strip().lower()
            if not p:
                continue
            if p not in KNOWN_VARIANTS:
                raise HexwarError(f"--rules: unknown rule variant {p!r}; expected one of {KNOWN_VARIANTS}")
            if p != "standard" and p not in out:
                out.append(p)
    return tuple(out)


MAX_SEED = 2**63 - 1  # the scenario format's seed range (docs/scenarios-format.md)


def _is_save(path: str) -> bool:
    """Whether ``path`` is an existing file whose first 64 KB say ``"format": "hexwar-save"``
    (:func:`hexwar.fileio.sniff_kind`; reading it in full then applies the save size limit)."""
    from pathlib import Path

    from ..fileio import sniff_kind
    from ..game.save import SAVE_FORMAT

    return Path(path).is_file() and sniff_kind(path) == SAVE_FORMAT


def _refuse_json_that_is_not_a_save(path: str) -> None:
    """A ``.json`` file given to ``play`` that is not a save: say what it is instead.

    Raises:
        HexwarError: always: naming the file and what it holds (broken JSON with its line and
            column, another hexwar file kind, or a JSON document without ``"format"``), and
            what ``play`` takes (a scenario ``.toml`` or a save ``.json``).
    """
    from ..errors import ValidationError
    from ..fileio import read_json

    try:
        doc = read_json(path, kind="save")
    except ValidationError as exc:
        raise HexwarError(f"{exc}\n  (play takes a scenario .toml or a save .json)") from None
    fmt = doc.get("format") if isinstance(doc, dict) else None
    what = (
        f"a {fmt} file" if isinstance(fmt, str) else 'a JSON document without a "format": "hexwar-save" field'
    )
    raise HexwarError(
        f"{path}: {what}, not a saved game; play takes a scenario .toml or a save .json"
        + (" (to play on this map, name it in a scenario's [map] table)" if fmt == "hexwar-map" else "")
    )


def check_save_target(save: str) -> None:
    """Refuse a ``--save`` path that cannot be written or would destroy another file.

    Raises:
        HexwarError: when the folder is missing or not writable, or the path holds a file
            that is not a hexwar save (a scenario, a map, anything else).
    """
    from pathlib import Path

    p = Path(save)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise HexwarError(f"--save {save}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise HexwarError(f"--save {save}: the folder {folder} is not writable")
    if p.is_dir():
        raise HexwarError(f"--save {save}: is a folder, expected a file name")
    if p.exists() and not _is_save(save):
        raise HexwarError(
            f"--save {save}: refusing to overwrite {save}: it is not a hexwar save (choose a new file name)"
        )


def _load_save(path: str, scenario_paths: tuple[str, ...] = ()) -> Any:
    """The game of a save file, replayed and verified (to continue it)."""
    from ..game.save import ReplayError, load_game

    try:
        return load_game(path, scenario_paths=scenario_paths)
    except ReplayError as exc:
        raise HexwarError(cannot("continue", path, exc)) from None


def resolve_save(name: str) -> str:
    """A save file by path, or ``NAME`` -> ``NAME.json`` in the current folder.

    Raises:
        HexwarError: when no such file exists; for a shipped scenario or map name the message
            says how to make a save of it instead of "file not found".
    """
    from pathlib import Path

    from ..paths import find_content

    if Path(name).is_file():
        return name
    if not name.lower().endswith(".json") and Path(f"{name}.json").is_file():
        return f"{name}.json"
    from ..errors import clip

    if Path(name).is_dir():  # find_content would take the folder for a shipped scenario
        raise HexwarError(f"{clip(name)}: is a folder; expected a save file (.json)")
    if Path(name).exists():
        raise HexwarError(f"{clip(name)}: is not a regular file; expected a save file (.json)")
    if find_content("scenarios", name) is not None:
        raise HexwarError(
            f"{clip(name)} is a shipped scenario, not a saved game: `hexwar play {name} --headless "
            f"--save {name}.json` plays it and writes a save to replay"
        )
    if find_content("maps", name) is not None:
        raise HexwarError(f"{clip(name)} is a shipped map, not a saved game")
    raise HexwarError(f"{clip(name)}: no such save file (give the path of a .json save)")


def _load(scenario: str | None) -> Any:
    from ..game.scenario import find_scenario, load_scenario

    if scenario is None:
        for name in DEFAULT_SCENARIOS:
            try:
                return load_scenario(find_scenario(name))
            except HexwarError:
                continue
        raise HexwarError("no shipped scenario found; give a scenario file")
    return load_scenario(scenario)


def _save_players(path: str) -> dict[str, str]:
    """Who played each side of a save (``{"german": "human", "soviet": "standard"}``)."""
    from ..game.save import read_save

    try:
        return dict(read_save(path).players)
    except HexwarError:
        return {}


_NO_WINDOW = (
    "No display is available to open the game window: run `hexwar play {scenario} --headless "
    "--ai soviet` to play the German side yourself in the terminal against the computer "
    "(`--ai german` for the Soviet side; `--headless` alone is a computer-against-computer game)."
)


@click.command()
@click.argument("scenario", required=False, metavar="[SCENARIO | SAVE.json]")
@click.option("--headless", is_flag=True, help="Play in the terminal, no window.")
@click.option(
    "--ai",
    "ai",
    default=None,
    metavar="SIDES",
    help="Computer-played sides: 'german,soviet' (default with --headless), 'soviet=random', ...",
)
@click.option(
    "--ai-level",
    "ai_level",
    default=None,
    metavar="LEVEL",
    help="How strong the computer plays: easy, normal or hard, or per side german=hard,soviet=easy "
    "(default: hard against a person, normal when computers play every side).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=None,
    help="The game's seed (default: the scenario's; in the window, after a game of the same scenario, the next seed).",
)
@click.option(
    "--rules",
    "rules",
    multiple=True,
    metavar="VARIANT",
    help="Rule variant: standard, classic, burnout, crews-fight (repeatable).",
)
@click.option(
    "--save",
    "save",
    type=click.Path(dir_okay=False),
    default=None,
    help="Save the game here after every turn and at the end (windowed default: a new file in the "
    "per-user autosave folder, $HEXWAR_AUTOSAVE_DIR).",
)
@click.option(
    "--turns",
    type=click.IntRange(min=1),
    default=None,
    help="Stop after this many turns; when continuing a save, this many MORE turns.",
)
@click.option(
    "--scenario",
    "scenario_paths",
    multiple=True,
    type=click.Path(dir_okay=False, exists=True),
    metavar="FILE",
    help="When continuing a save: its scenario file, if that is neither in the "
    "save's folder nor shipped (repeatable).",
)
@click.option("--fog", is_flag=True, help="Fog of war (R12.2): each side sees only what its units see.")
@click.option("--json", "as_json", is_flag=True, help="Print only the result and final scores as JSON.")
@click.option(
    "--map",
    "map_spec",
    default=None,
    metavar="FILE.json|MAP|generated:SEED[:STYLE][:WxH]",
    help="Play the scenario on another map: a map file (hexwar's, imported, generated and saved), "
    "a shipped map name, or a generated map (generated:7); deploy zones (and objectives, if it "
    "has them) come from the map's markers.",
)
@click.option(
    "--deck",
    "decks",
    multiple=True,
    metavar="SIDE=FILE",
    help="A Reserves deck file for a side you play: a hex scenario with a point budget (standard: "
    "german=decks/my_german.toml, repeatable or german=A,soviet=B) or a line game's side or seat (a "
    "computer's too: it plays that deck, at any level); "
    "opened from the working folder or the shipped decks (a bare name is a shipped deck: soviet=soviet_guards_rifle).",
)
@click.option(
    "--palette",
    type=click.Choice(["standard", "high-contrast"]),
    default="standard",
    show_default=True,
    help="Window colours: standard (colour-blind safe) or high-contrast.",
)
@click.option(
    "--fast", is_flag=True, help="Window: no pause to show each roll of an attack or artillery mission."
)
@click.option(
    "--size",
    "win_size",
    default=None,
    metavar="WxH",
    help="Window size in points, e.g. 800x600 (default 1400x900, never larger than the screen); "
    "the hex window and the card table.",
)
def play(
    scenario: str | None,
    headless: bool,
    ai: str | None,
    seed: int | None,
    rules: tuple[str, ...],
    save: str | None,
    turns: int | None,
    scenario_paths: tuple[str, ...],
    fog: bool,
    as_json: bool,
    map_spec: str | None,
    decks: tuple[str, ...] = (),
    palette: str = "standard",
    ai_level: str | None = None,
    fast: bool = False,
    win_size: str | None = None,
) -> int:
    """Play a scenario (R5): in a window, or with --headless in the terminal.

    Give a save file instead of a scenario to continue that game (it keeps its seed and rules):
    the new turns are written back to that save, or to --save OTHER (a fork). --turns N then
    plays N more turns.
    """
    size = None
    if win_size is not None:  # the editor's parser and range (hexwar edit --size)
        from .edit import parse_size

        if headless:
            raise HexwarError("--size sets the window's size: leave it out with --headless")
        try:
            size = parse_size(win_size, "--size", 320, 8192, "points")
        except HexwarError as exc:  # the editor's example is a map's size in hexes (30x20)
            if "expected WIDTHxHEIGHT" not in str(exc):
                raise
            raise HexwarError(
                f"--size {win_size!r}: expected the window's WIDTHxHEIGHT in points, like 1400x900"
            ) from None
    sc, resumed, save, turns, variants = _game_to_play(
        scenario, seed, rules, save, turns, scenario_paths, fog, map_spec
    )
    if save:
        check_save_target(save)
    if getattr(sc, "mode", "hex") == "lines":  # R11.1: the card game on lines has its own seats
        from .lines import play_lines

        return play_lines(
            sc,
            headless=headless,
            ai=ai,
            seed=seed,
            variants=variants,
            save=save,
            turns=turns,
            as_json=as_json,
            decks=decks,
            resumed=resumed,
            scenario_arg=scenario,
            ai_level=ai_level,
            size=size,
        )
    hex_decks: dict[str, tuple[str, tuple[str, ...]]] = {}
    if decks:
        if resumed is not None:
            raise HexwarError(
                f"{scenario} is a saved game: it keeps its decks (leave out --deck to continue it)"
            )
        people = [s for s in SIDES if s not in (parse_ai(ai) if ai or headless else DEFAULT_WINDOW_AI)]
        hex_decks = parse_hex_decks(decks, sc, people, headless)
    if not headless:
        return _play_in_window(
            sc, scenario, resumed, seed, variants, ai, ai_level, save, turns, palette, fast=fast, size=size,
            decks={s: cards for s, (_, cards) in hex_decks.items()},
        )  # fmt: skip
    return _play_headless(
        sc, scenario, resumed, seed, variants, ai, ai_level, save, turns, as_json, decks=hex_decks
    )


def parse_hex_decks(
    specs: tuple[str, ...], sc: Any, people: list[str], headless: bool = False
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """``--deck`` values of a hex scenario -> ``{side: (file, unit card ids)}``: a person's
    side of a point-budget scenario (000 Standard Game Setup, R4.3) plays that deck file, checked
    now by the game's own rule (:func:`hexwar.game.actions.build_deck.deck_problems`: every
    reason the deck is refused, in one line).

    Each value is ``SIDE=FILE`` or several joined by commas (``german=A.toml,soviet=B.toml``);
    files are opened from the working folder or hexwar's shipped decks only
    (:func:`hexwar.lines.deckbuilder.resolve_deck_path`; a bare name such as
    ``german_kursk_panzers`` is looked for as ``decks/NAME.toml``).

    Args:
        specs: the ``--deck`` values.
        sc: the hex scenario.
        people: the sides a person plays.
        headless: for the hint of a side the computer plays.

    Raises:
        HexwarError: one line naming the value, the file and what is wrong: no ``=``, an
            unknown side, a side given twice, a side the computer plays, a side with a fixed
            deck, a missing or unreadable file, a path outside those folders, an unknown card,
            a deck of the other side, or a deck the rules refuse (each of the points, the
            scenario's cards, copies, crews it breaks, numbered when several).
    """
    from ..game.actions.build_deck import deck_problems
    from ..lines.deckbuilder import read_deck_file

    parts: list[str] = []
    for spec in specs:
        for piece in spec.split(","):
            if "=" in piece or not parts:
                parts.append(piece)
            else:  # a comma inside a file name
                parts[-1] += "," + piece
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for part in parts:
        shown = clip(part, quote=False)  # a name of any length echoes as one short line
        who, sep, path = part.partition("=")
        who, path = who.strip().lower(), path.strip()
        if not sep or not path:
            raise HexwarError(f"--deck {clip(part)}: expected SIDE=FILE, e.g. german=decks/my_german.toml")
        if who not in SIDES:
            raise HexwarError(f"--deck {shown}: unknown side {who!r}; expected german or soviet")
        if who in out:
            raise HexwarError(f"--deck {shown}: the {who} side is given a deck twice")
        if who not in people:
            other = next(s for s in SIDES if s != who)
            how = f"--headless --ai {other}" if headless else f"--ai {other}"
            raise HexwarError(
                f"--deck {shown}: the {who} side is played by the computer; a deck file is for a side you play "
                f"(`{how}` to play the {who} side yourself)"
            )
        ss = sc.sides[who]
        if ss.budget is None or ss.reserves or ss.hand:
            raise HexwarError(
                f"--deck {shown}: {sc.id} gives the {who} side a fixed Reserves deck; --deck is for a scenario "
                "with a point budget (standard, 000 Standard Game Setup)"
            )
        try:
            file, side, cards = read_deck_file(path)
        except HexwarError as exc:  # the value is named once, by --deck
            raise HexwarError(f"--deck {shown}: {unnamed(exc, path)}") from None
        if side != who:
            raise HexwarError(f"--deck {shown}: {file} is a {side} deck, not for the {who} side")
        why = deck_problems(ss, who, cards)  # every reason at once, as the terminal's done (fresh7)
        if why:  # numbered when several: a reason may hold a ";" itself
            listed = (
                why[0]
                if len(why) == 1
                else f"{len(why)} problems: "
                + " ".join(f"({i}) {w};" for i, w in enumerate(why, 1)).rstrip(";")
            )
            raise HexwarError(f"--deck {shown}: {file}: {listed}")
        out[who] = (str(file), cards)
    return out


def _game_to_play(
    scenario: str | None,
    seed: int | None,
    rules: tuple[str, ...],
    save: str | None,
    turns: int | None,
    scenario_paths: tuple[str, ...],
    fog: bool,
    map_spec: str | None,
) -> tuple[Any, Any, str | None, int | None, tuple[str, ...] | None]:
    """What ``hexwar play`` plays: ``(scenario, resumed state or None, save path, last turn,
    rule variants or None)``. A save keeps its own seed, rules and map and is saved back to
    (``--turns N``: N more turns); a scenario may go on another map (``--map``); ``--fog``
    adds the fog variant (R12.2).

    Raises:
        HexwarError: one sentence for a bad combination (a save with --seed, --rules, --map or
            a fog it was not played with) or a file that is neither a save nor a scenario.
    """
    resumed = None
    if scenario is not None and scenario.lower().endswith(".json") and _is_save(scenario):
        if seed is not None or rules:
            raise HexwarError(
                f"{scenario} is a saved game: it keeps its own seed and rules "
                "(leave out --seed and --rules to continue it)"
            )
        if map_spec is not None:
            raise HexwarError(
                f"{scenario} is a saved game: it keeps its own map (leave out --map to continue it)"
            )
        resumed = _load_save(scenario, scenario_paths)
        sc = resumed.scenario
        if save is None:  # a continued game is never silently thrown away (issue 13 item 5)
            save = scenario
        if turns is not None:  # N more turns (turn - 1 are complete)
            turns = resumed.turn - 1 + turns
    else:
        if scenario is not None and scenario.lower().endswith(".json") and Path(scenario).is_file():
            _refuse_json_that_is_not_a_save(scenario)
        try:
            sc = _load(scenario)
        except HexwarError as exc:  # name the shipped scenarios a person can play
            if "not found" not in str(exc):
                raise
            from ..paths import content_dir

            names = sorted(p.stem for p in content_dir("scenarios").glob("*.toml"))
            raise HexwarError(f"{exc}; the shipped scenarios are: {', '.join(names)}") from None
        if map_spec is not None:
            from ..game.onmap import scenario_on_map

            sc = scenario_on_map(sc, map_spec)
    variants = parse_rules(rules)
    if fog and resumed is None:
        base = sc.variants if variants is None else variants
        variants = tuple(base) + (() if "fog" in base else ("fog",))
    elif fog and resumed is not None and "fog" not in resumed.variants:
        raise HexwarError(
            f"{scenario} is a saved game without fog of war; it keeps its own rules (leave out --fog)"
        )
    return sc, resumed, save, turns, variants


def _play_in_window(
    sc: Any,
    scenario: str | None,
    resumed: Any,
    seed: int | None,
    variants: tuple[str, ...] | None,
    ai: str | None,
    ai_level: str | None,
    save: str | None,
    turns: int | None,
    palette: str,
    fast: bool = False,
    size: tuple[int, int] | None = None,
    decks: dict[str, tuple[str, ...]] | None = None,
) -> int:
    """Open the game window (``hexwar.ui.play_window.run``) on ``sc``, autosaved to ``save`` or a
    new file of the per-user autosave folder; exit status 1 with one sentence when no window
    can be opened (no display, or no window in this installation). ``fast``: no pause to show
    each roll (``--fast``, issue 36); ``size``: the window's ``(width, height)`` in points
    (``--size``), default 1400x900 no larger than the screen; ``decks``: ``{side: card ids}``
    of ``--deck`` files (:func:`parse_hex_decks`)."""
    no_window = _NO_WINDOW.format(scenario=scenario or sc.reference)
    if decks:  # the terminal game takes the same deck file (fresh-user pass, sixth session)
        no_window += " Give it your --deck option too: the terminal plays that deck for your side."
    try:
        from ..ui import play_window  # type: ignore[attr-defined]
    except ImportError:
        click.echo(
            no_window.replace(
                "No display is available to open the game window",
                "The game window is not part of this installation",
            )
        )
        return 1
    if _no_display():
        click.echo(no_window)
        return 1
    try:
        offer = None
        if save is None:  # a windowed game is always autosaved (per-user folder, platformdirs)
            import datetime

            from ..ui.autosave import latest_autosave, new_game_autosave

            if scenario is None:  # plain `hexwar play`: offer the last unfinished game (item 7)
                offer = latest_autosave()
            save = str(new_game_autosave(sc.id, datetime.datetime.now()))
            if offer is not None:  # the window asks first; say where each answer saves (newuser2)
                click.echo(
                    f"autosaving a new game to {save}; continuing the last one keeps saving to {offer.path}"
                )
            else:
                click.echo(f"autosaving to {save}")
        kw: dict[str, Any] = {"palette": palette} if palette != "standard" else {}
        if fast:
            kw["fast"] = True
        if size is not None:
            kw["size"] = size
        if decks:
            kw["decks"] = decks
        if resumed is not None:  # `hexwar play SAVE.json` opens the save in the window (item 7)
            kw["resumed"] = resumed
            kw["players"] = _save_players(scenario or "")
        if offer is not None:
            kw["offer"] = offer
        play_window.run(
            scenario=sc,
            seed=seed,
            variants=variants,
            ai=apply_ai_level(parse_ai(ai, "standard"), ai_level, SIDES)
            if ai
            else apply_ai_level(dict(DEFAULT_WINDOW_AI), ai_level, SIDES)
            if resumed is None or ai_level
            else None,
            save=save,
            turns=turns,
            **kw,
        )
    except Exception as exc:  # a display that cannot be opened
        if "display" in type(exc).__name__.lower() or "display" in str(exc).lower():
            click.echo(no_window)
            return 1
        raise
    return 0


def _play_headless(
    sc: Any,
    scenario: str | None,
    resumed: Any,
    seed: int | None,
    variants: tuple[str, ...] | None,
    ai: str | None,
    ai_level: str | None,
    save: str | None,
    turns: int | None,
    as_json: bool,
    decks: dict[str, tuple[str, tuple[str, ...]]] | None = None,
) -> int:
    """Play ``sc`` (or go on with ``resumed``) in the terminal to the end or ``turns``: the
    computer players of ``--ai`` and a person at the terminal for every other side, who sees
    only its side's log (R12.1, R12.2); prints the log and the result (``--json``: the result
    and final scores as JSON). ``decks``: ``{side: (file, card ids)}`` of ``--deck`` files
    (:func:`parse_hex_decks`), each played by its person in setup (BuildDeck, R4.3)."""
    from ..game.ai import make_player
    from ..game.headless import format_event, readable
    from ..game.headless import play as run_game

    seed_ = resumed.seed if resumed is not None else sc.seed if seed is None else seed
    names = apply_ai_level(parse_ai(ai), ai_level, SIDES)
    players: dict[str, Any] = {
        s: (make_player(names[s], s, seed_) if s in names else TerminalPlayer(s, *_deck_of(decks, s)))
        for s in SIDES
    }
    fogged = "fog" in (
        resumed.variants if resumed is not None else (sc.variants if variants is None else variants)
    )
    humans = [s for s in SIDES if s not in names]
    if fogged:  # R12.2: computer players decide from their own view only
        from ..game.view import ViewPlayer

        players = {s: (ViewPlayer(p) if s in names else p) for s, p in players.items()}

    def show(state: Any, events: list[Any]) -> None:
        if humans:  # R12.1, R12.2: one person sees its side's log only; two (hot seat) the log
            from ..game.view import seat_events  # both may read, as the hot-seat window's (fresh7)

            events = seat_events(state, events, humans[0] if len(humans) == 1 else None)
        for e in readable(events):
            click.echo(format_event(e))

    if resumed is not None and not as_json:
        click.echo(
            f"Continuing {scenario}: {sc.reference}, seed {resumed.seed}, turn {resumed.turn}, "
            f"{resumed.phase} phase, {len(resumed.commands)} commands so far"
        )
    run = run_game(
        sc,
        players,
        seed=seed_,
        variants=variants,
        max_turns=turns,
        save_path=save,
        on_events=None if as_json else show,
        state=resumed,
    )
    if as_json:
        out = run.to_json()
        out["players"] = {s: players[s].name for s in SIDES}
        if save:
            out["save"] = save
        echo_json(out)
    else:
        click.echo(f"\nResult: {run.result.summary()}")
        if save:
            click.echo(f"saved to {save}")
    return 0


def _deck_of(decks: dict[str, tuple[str, tuple[str, ...]]] | None, side: str) -> tuple[tuple[str, ...], str]:
    """``(card ids, file)`` of ``side``'s ``--deck`` (empty when none)."""
    file, cards = (decks or {}).get(side, ("", ()))
    return cards, file


def _save_format(path: str) -> str | None:
    """The ``format`` field of a JSON save, or ``None`` (the hex save reader then reports why)."""
    from ..fileio import read_json

    try:
        data = read_json(path)
    except HexwarError:
        return None
    return str(data.get("format")) if isinstance(data, dict) else None


def _replay_campaign(save: str, verify: bool, show_log: bool, as_json: bool) -> int:
    """``hexwar replay`` of a campaign save (R11.2): the same checks through the campaign engine."""
    from ..campaign.events import describe
    from ..campaign.save import ReplayError, read_campaign_save, replay_campaign

    sf = read_campaign_save(save)
    try:
        st = replay_campaign(sf, verify=verify)
    except ReplayError as exc:
        if as_json:
            echo_json({"ok": False, "save": save, "error": str(exc), "command": exc.index, "year": exc.turn})
        else:
            click.echo(f"FAIL {exc}")
        return 1
    if show_log and not as_json:
        for e in st.log:
            click.echo(describe(e, st.cards))
    res = st.result_reason or f"in progress ({st.year}, battle {st.battle})"
    games = [h.game for h in st.history if h.game]
    if as_json:
        echo_json(
            {
                "ok": True,
                "save": save,
                "kind": "campaign",
                "verified": verify,
                "commands": len(sf.commands),
                "state_hash": st.state_hash(),
                "winner": st.winner,
                "result": res,
                "games": games,
            }
        )
    else:
        what = "replays exactly (state hashes match)" if verify else "replayed"
        extra = f", {len(games)} battle games verified" if games and verify else ""
        click.echo(
            f"ok   {save}: campaign of {len(sf.commands)} commands (seed {st.seed}) {what}{extra}; {res}"
        )
    return 0


@click.command()
@click.argument("save", metavar="SAVE")
@click.option(
    "--verify",
    is_flag=True,
    help="Check every checkpoint, the final state and the log hashes; exit 1 "
    "if anything differs or is missing.",
)
@click.option("--log", "show_log", is_flag=True, help="Print the replayed game's turn-by-turn log.")
@click.option(
    "--scenario",
    "scenario_paths",
    multiple=True,
    type=click.Path(dir_okay=False, exists=True),
    metavar="FILE",
    help="The save's scenario file, if it is neither in the save's folder nor shipped (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.option(
    "--window",
    is_flag=True,
    help="Open the replay viewer: step through the game forward and back with the log beside it, "
    "each roll's exact odds and each side's luck.",
)
@click.option(
    "--luck",
    is_flag=True,
    help="Print each side's luck: expected against scored VP, mean roll percentile, rarest roll.",
)
def replay(
    save: str,
    verify: bool,
    show_log: bool,
    scenario_paths: tuple[str, ...],
    as_json: bool,
    window: bool = False,
    luck: bool = False,
) -> int:
    """Replay a saved game (or campaign) through the engine (and with --verify check it reproduces exactly).

    A save's scenario is looked for only in the save's folder, among the shipped scenarios
    and in files given with --scenario; nothing else is opened. --window opens the replay
    viewer (any of the three games); --luck prints how lucky each side was.
    """
    if window or luck:
        from ..ui.replay_model import load_replay

        model = load_replay(resolve_save(save) if _save_format(save) != "hexwar-campaign-save" else save,
                            scenario_paths)  # fmt: skip
        if luck:
            for sl in model.luck().values():
                for ln in sl.lines():
                    click.echo(ln)
        if window:
            from ..render import backend

            try:
                backend.require_display()
            except backend.NoDisplayError:
                click.echo(f"No display is available to open the replay viewer: `hexwar replay {save} --luck` "
                           "prints the luck summary at the terminal.")  # fmt: skip
                return 1
            from ..ui.replay_window import run_replay

            run_replay(model)
        return 0
    if _save_format(save) == "hexwar-campaign-save":
        return _replay_campaign(save, verify, show_log, as_json)
    from ..game.headless import format_event, readable, result_of
    from ..game.save import ReplayError, read_save
    from ..game.save import replay as do_replay

    save = resolve_save(save)
    sf = read_save(save)
    try:
        state = do_replay(sf, verify=verify, scenario_paths=scenario_paths)
    except ReplayError as exc:
        if as_json:
            echo_json({"ok": False, "save": save, "error": str(exc), "command": exc.index, "turn": exc.turn})
        else:
            click.echo(f"FAIL {exc}")
        return 1
    res = result_of(state)
    if show_log and not as_json:
        for e in readable(state.log):
            click.echo(format_event(e))
    if as_json:
        echo_json(
            {
                "ok": True,
                "save": save,
                "verified": verify,
                "commands": len(sf.commands),
                "state_hash": state.state_hash(),
                "result": res.to_json(),
            }
        )
    else:
        what = "replays exactly (state hashes match)" if verify else "replayed"
        click.echo(
            f"ok   {save}: {len(sf.commands)} commands of {state.scenario.id} (seed {state.seed}) {what}; {res.summary()}"
        )
        if verify and not sf.header_hash:
            click.echo(
                "     note: this save predates final.header_hash, so its rules_revision, players and "
                "scenario id/name are not bound by the check"
            )
    return 0
