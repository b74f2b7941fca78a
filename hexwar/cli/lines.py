"""``hexwar play`` for line scenarios (R11.1): seats, ``--ai``, ``--deck``, headless play.

``hexwar play lines`` / ``lines-4p`` / a line scenario file / a line save go here from
:func:`hexwar.cli.game.play`. ``--ai`` takes seat names (``german``, ``soviet`` in the
2-player game; ``german-front``, ``german-support``, ``soviet-front``, ``soviet-support`` in
the 4-player game); a side name means both of its seats; ``seat=random`` picks the random
player. Seats not named are played at the terminal (``--headless``) or in the window.
``--deck german=FILE`` gives a side (or, in the 4-player game, a seat) its Reserves deck.
"""

from __future__ import annotations

from typing import Any

import click

from ..errors import HexwarError
from ..lines.commands import SEATS_2P, SEATS_4P, side_of_seat
from ..lines.players import LINES_PLAYER_NAMES, make_lines_player
from .balance import cluster_options

__all__ = ["parse_seats_ai", "seat_levels", "parse_decks", "play_lines"]


def parse_seats_ai(spec: str | None, seats: tuple[str, ...], default: str = "standard") -> dict[str, str]:
    """``--ai`` text -> ``{seat: player name}`` (``None``: every seat; ``"none"``: no seat).

    Raises:
        HexwarError: naming an unknown seat or player.

    >>> parse_seats_ai("soviet", ("german-front", "german-support", "soviet-front", "soviet-support"))
    {'soviet-front': 'standard', 'soviet-support': 'standard'}
    """
    if spec is None:
        return {s: default for s in seats}
    spec = spec.strip()
    if spec in ("", "none"):
        return {}
    out: dict[str, str] = {}
    for part in spec.split(","):
        who, _, name = part.strip().partition("=")
        who = who.strip().lower()
        name = name.strip().lower() or default
        if name not in LINES_PLAYER_NAMES:
            raise HexwarError(f"--ai: unknown computer player {name!r}; expected one of {LINES_PLAYER_NAMES}")
        hit = [s for s in seats if s == who or side_of_seat(s) == who]
        if not hit:
            raise HexwarError(
                f"--ai: unknown seat {who!r} in {spec!r}; this game's seats are {', '.join(seats)} "
                "(a side name means all of its seats)"
            )
        for s in hit:
            out[s] = name
    return out


def seat_levels(names: dict[str, str], spec: str | None, seats: tuple[str, ...]) -> dict[str, str]:
    """Give the computer seats of ``names`` their ``--ai-level`` (issue 31): ``LEVEL`` for every
    seat, or ``SIDE=LEVEL`` / ``SEAT=LEVEL`` pairs (a side name means both of its seats in the
    4-player game). A ``standard`` seat plays at its level (``normal`` is the standard player);
    ``random`` stays random. Default: ``hard`` when a person plays a seat, ``normal`` when
    computers play every seat.

    Raises:
        HexwarError: for a bad level, side or seat (:func:`hexwar.cli.ai_level.parse_ai_level`).

    >>> seat_levels({"german": "standard", "soviet": "standard"}, "soviet=hard", ("german", "soviet"))
    {'german': 'standard', 'soviet': 'hard'}
    """
    from .ai_level import parse_ai_level

    default = "normal" if all(s in names for s in seats) else "hard"
    sides = tuple(dict.fromkeys(side_of_seat(s) for s in seats))
    text = (spec or "").strip().lower()
    if "=" in text and any(p.partition("=")[0].strip() in seats and "-" in p for p in text.split(",")):
        levels = parse_ai_level(text, seats, default)  # 4-player seats named one by one
    else:
        by_side = parse_ai_level(text, sides, default)
        levels = {s: by_side[side_of_seat(s)] for s in seats}
    return {s: (n if n != "standard" or levels[s] == "normal" else levels[s]) for s, n in names.items()}


def parse_decks(
    specs: tuple[str, ...],
    seats: tuple[str, ...],
    budget: dict[str, tuple[int, int]],
    restrictions: dict[str, Any] | None = None,
) -> dict[str, tuple[str, ...]]:
    """``--deck SEAT=FILE`` values -> ``{seat: card ids}``; warnings are printed. ``restrictions``:
    side -> the scenario's :class:`~hexwar.lines.scenario.LinesSide` (its Reserves restrictions).

    ``german=A,soviet=B`` gives two seats their decks in one value, as the hex game's ``--deck``
    (a comma not followed by ``SEAT=`` belongs to the file name).

    Raises:
        HexwarError: for a bad spec, file (missing, outside the working folder and the shipped
            ``decks/``, unreadable), side or point total: one line naming the value (a long one
            clipped, :func:`hexwar.errors.clip`) once.
    """
    from ..errors import ValidationError, clip, unnamed
    from ..lines.deckbuilder import resolve_deck_path
    from ..lines.scenario import deck_problems, load_deck, restriction_problems

    parts: list[str] = []
    for spec in specs:
        for piece in spec.split(","):
            if "=" in piece or not parts:
                parts.append(piece)
            else:  # a comma inside a file name
                parts[-1] += "," + piece
    out: dict[str, tuple[str, ...]] = {}
    for spec in parts:
        shown = clip(spec, quote=False)  # a value of any length echoes as one short line
        who, sep, path = spec.partition("=")
        path = path.strip()
        if not sep or not path:
            raise HexwarError(
                f"--deck {clip(spec)}: expected SEAT=FILE, e.g. german=decks/german_kursk_panzers.toml"
            )
        who = who.strip().lower()
        hit = [s for s in seats if s == who or side_of_seat(s) == who]
        if not hit:
            raise HexwarError(
                f"--deck {shown}: unknown seat {clip(who)}; this game's seats are {', '.join(seats)}"
            )
        try:  # the working folder or the shipped decks/ only; a bare name is a shipped deck's
            path = str(resolve_deck_path(path))
            # the points are judged below by this game's limits (the file's own check said "1..100")
            side, cards_, warnings = load_deck(path, points=None)
        except ValidationError as exc:  # bad TOML, an unknown card: each problem names the file
            raise HexwarError(f"--deck {shown}: " + "; ".join(str(p) for p in exc.problems)) from None
        except HexwarError as exc:
            raise HexwarError(f"--deck {shown}: {unnamed(exc, path)}") from None
        for s in hit:
            if side_of_seat(s) != side:
                raise HexwarError(f"--deck {shown}: {path} is a {side} deck, not for {s}")
            role = None if len(seats) == 2 else s.split("-", 1)[1]
            errors, _ = deck_problems(side, list(cards_), budget[side_of_seat(s)], role)
            errors += restriction_problems(restrictions.get(side), cards_) if restrictions else []
            if errors:
                raise HexwarError(f"--deck {shown}: " + "; ".join(errors))
            out[s] = cards_
        for w in warnings:
            click.echo(f"warning: {path}: {w}", err=True)
    return out


def hard_deck_note(built: list[str], dealt: list[str]) -> str:
    """The line the terminal prints before a game with a ``hard`` computer seat that builds its
    own Reserves deck (000 setup; the window's start page says "the computer's own deck
    (hard)"): which seats build, and which of the people's seats are dealt theirs at random
    and how to play one built instead (``--deck``, ``hexwar lines deck``). Names no card: the
    deck list is not shown (R12.1 shows a deck's size only).

    Args:
        built: the computer seats whose deck is built (``soviet``, ``soviet-front`` ...).
        dealt: the people's seats whose deck is dealt at random.
    """
    text = f"{', '.join(built)} (computer, hard): its own Reserves deck, built from the scenario's cards (000 setup)"
    if dealt:
        text += (
            f"; {', '.join(dealt)}: dealt at random, usually weaker: --deck {dealt[0]}=FILE plays one you "
            "built (hexwar lines deck)"
        )
    return text


def play_lines(
    sc: Any,
    *,
    headless: bool,
    ai: str | None,
    seed: int | None,
    variants: tuple[str, ...] | None,
    save: str | None,
    turns: int | None,
    as_json: bool,
    decks: tuple[str, ...] = (),
    resumed: Any = None,
    scenario_arg: str | None = None,
    ai_level: str | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Play a line scenario (see the module docstring); returns the exit status.

    ``ai_level``: the ``--ai-level`` text (seats or sides ``=LEVEL``; :func:`seat_levels`);
    ``size``: the card table's ``(width, height)`` in points (``--size WxH``), default 1400x900
    no larger than the screen."""
    from ..game.headless import format_event, readable
    from ..game.headless import play as run_game
    from ..lines.terminal import LinesTerminalPlayer, seat_events_text
    from . import echo_json
    from .terminal import _no_display

    seats = SEATS_2P if sc.players == 2 else SEATS_4P
    if decks:
        if resumed is not None:
            raise HexwarError("a saved game keeps its decks (leave out --deck to continue it)")
        sc = sc.with_decks(
            parse_decks(
                decks,
                seats,
                {s: (sc.sides[s].minimum, sc.sides[s].budget) for s in ("german", "soviet")},
                dict(sc.sides),
            )
        )
    if not headless:
        try:
            from ..ui import lines_screen as lines_window
        except ImportError:
            click.echo(
                f"The card-table window is not part of this build yet: run `hexwar play "
                f"{scenario_arg or sc.reference} --headless` to play in the terminal."
            )
            return 1
        if _no_display():
            click.echo(
                f"No display is available to open the game window: run `hexwar play "
                f"{scenario_arg or sc.reference} --headless --ai soviet` to play the German side yourself in "
                "the terminal against the computer (`--ai german` for the Soviet side; `--headless` alone "
                "is a computer-against-computer game)."
            )
            return 1
        offer = None
        if resumed is None and save is None:  # as `hexwar play` does: offer the last unfinished game
            from ..ui.autosave import latest_autosave

            offer = latest_autosave(mode="lines", scenario_id=sc.id)
            if offer is not None:
                click.echo(f"the last unfinished game of {sc.id} is offered first: {offer.path}")
        lines_window.run(
            offer=offer,
            scenario=sc,
            seed=seed,
            variants=variants,
            ai=seat_levels(parse_seats_ai(ai, seats), ai_level, seats) if ai or ai_level else None,
            save=save,
            turns=turns,
            state=resumed,
            **({"size": size} if size is not None else {}),
        )
        return 0
    seed_ = resumed.seed if resumed is not None else sc.seed if seed is None else seed
    names = seat_levels(parse_seats_ai(ai, seats), ai_level, seats)
    if resumed is None:  # 000 setup: a hard computer seat builds its Reserves deck (issue 31;
        from ..search.lines_deck import with_hard_decks  # the window's start page does the same)

        given = set(sc.decks)
        sc = with_hard_decks(sc, names)
        built = [s for s in seats if s in sc.decks and s not in given]
        dealt = [s for s in seats if s not in names and s not in sc.decks]
        if built and len(names) < len(seats) and not as_json:  # a person plays; no start page here
            click.echo(hard_deck_note(built, dealt))
    players: dict[str, Any] = {
        s: (make_lines_player(names[s], s, seed_) if s in names else LinesTerminalPlayer(s)) for s in seats
    }
    humans = [s for s in seats if s not in names]

    def show(state: Any, events: list[Any]) -> None:
        # R12.1: a person reads the log from their seat's view (hot seat: nobody's hand)
        reader = humans[0] if len(humans) == 1 else None
        for e in readable(events):
            text = seat_events_text([e], reader)[0] if humans else e.text
            click.echo(format_event(e) if text == e.text else f"   {text}")

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
        out["mode"] = "lines"
        out["players"] = {s: players[s].name for s in seats}
        if save:
            out["save"] = save
        echo_json(out)
    else:
        click.echo(f"\nResult: {run.result}")
        if save:
            click.echo(f"saved to {save}")
    return 0


@click.group(name="lines")
def lines() -> None:
    """The Spearpoint card game on lines (R11.1): balance runs and the card-table tools."""


@lines.command(name="balance")
@click.argument("scenarios", nargs=-1, metavar="[SCENARIO]...")
@click.option(
    "--games",
    type=click.IntRange(1, 100_000),
    default=200,
    show_default=True,
    help="AI-vs-AI games per scenario.",
)
@click.option(
    "--seed", type=click.IntRange(0, 2**62), default=0, show_default=True, help="Seed of the first game."
)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Rewrite the balance section of this Markdown file (docs/lines.md).",
)
@click.option(
    "--ai-level",
    "ai_level",
    default=None,
    metavar="LEVEL",
    help="Computer strength: easy, normal or hard for both sides, or german=hard,soviet=normal "
    "[default: normal].",
)
@click.option(
    "--head-to-head",
    "head_to_head",
    is_flag=True,
    help="With --ai-level german=A,soviet=B: half the games with the levels swapped, on paired "
    "seeds; A's wins as each side with 95%% intervals (--write docs/lines.md: into its "
    "head-to-head section). The same run as hexwar balance --kind lines --head-to-head.",
)
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
@click.pass_context
def balance_cmd(
    ctx: click.Context,
    scenarios: tuple[str, ...],
    games: int,
    seed: int,
    write: str | None,
    as_json: bool,
    ai_level: str | None = None,
    head_to_head: bool = False,
    workers: int = 1,
    cluster: str | None = None,
) -> int:
    """Seeded AI-vs-AI games of line scenarios: each side's wins and how the games ended.

    Default: every shipped line scenario. Game i has seed SEED+i; replay one with
    ``hexwar play SCENARIO --headless --seed N [--ai-level ...]``. ``--head-to-head`` (issue
    31): two levels against each other, each playing both sides on paired seeds, with 95%
    intervals, on a local Dask cluster with ``--workers 2`` (the runner of ``hexwar balance
    --kind lines``; ``--write`` only into docs/lines.md, whose head-to-head section it fills).

    Raises:
        HexwarError: for a bad level, ``--head-to-head`` without two levels, or ``--write``
            elsewhere than docs/lines.md with ``--head-to-head``.
    """
    from ..lines.balance import LINE_SCENARIOS, balance, balance_table, balance_target_text, write_balance
    from . import echo_json
    from .ai_level import parse_ai_level

    levels = parse_ai_level(ai_level, ("german", "soviet"), "normal")
    if head_to_head:
        return _head_to_head(
            ctx, scenarios or LINE_SCENARIOS, games, seed, write, as_json, ai_level, workers, cluster
        )
    if workers > 1 or cluster is not None:
        raise HexwarError(
            "--workers and --cluster run the --head-to-head games; without it the games run here"
        )
    if write:  # a missing or unmarked file is said before the games, not as a traceback after them
        balance_target_text(write)
    rows = []
    for name in scenarios or LINE_SCENARIOS:
        rows.append(balance(name, games, seed, levels=levels))
        if not as_json:
            click.echo(
                f"{name}: {rows[-1].share('german'):.0%} German, {rows[-1].share('soviet'):.0%} Soviet "
                f"({rows[-1].seconds:.0f} s)",
                err=True,
            )
    if as_json:
        echo_json([r.to_json() for r in rows])
    else:
        click.echo(balance_table(rows))
    if write:
        write_balance(write, rows, seed, levels)
        if not as_json:
            click.echo(f"wrote the balance table into {write}")
    return 0


def _head_to_head(
    ctx: click.Context,
    scenarios: tuple[str, ...],
    games: int,
    seed: int,
    write: str | None,
    as_json: bool,
    ai_level: str | None,
    workers: int,
    cluster: str | None,
) -> int:
    """``hexwar lines balance --head-to-head``: the balance runner's head-to-head of the lines kind."""
    from pathlib import Path

    from .. import balance as bal
    from .balance import balance as balance_runner

    if write is not None and Path(write).resolve() != (bal.ROOT / "docs" / "lines.md").resolve():
        raise HexwarError(
            f"--write {write}: the head-to-head table goes into the head-to-head section of docs/lines.md only"
        )
    if seed > 2**32 - 1:
        raise HexwarError(f"--seed {seed}: a head-to-head run numbers its games from 0 to 2**32-1")
    rc = ctx.invoke(
        balance_runner,
        scenarios=scenarios,
        kind="lines",
        games=games,
        seed_start=seed,
        rules=(),
        ai="standard",
        workers=workers,
        cluster=cluster,
        chunk=None,
        max_turns=None,
        csv_path=None,
        as_json=as_json,
        force=False,
        update_docs=write is not None,
        ai_level=ai_level,
        head_to_head=True,
    )
    return int(rc or 0)


@lines.command(name="deck")
@click.option("--side", type=click.Choice(["german", "soviet"]), required=True, help="The deck's side.")
@click.option(
    "--role",
    type=click.Choice(["front", "support"]),
    default=None,
    help="4-player game: the Frontline or Support Commander's deck (75 points).",
)
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    default=None,
    help="The deck file to save to (default decks/my_SIDE.toml).",
)
@click.option(
    "--from",
    "from_",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Start from this deck file's cards.",
)
def deck_cmd(side: str, role: str | None, out: str | None, from_: str | None) -> int:
    """Open the deck builder (000 setup): the side's cards with their full text, a running point
    total against the limits (80-100; 75 per deck with --role), the crew warning, save to a deck
    file for ``hexwar play lines --deck SIDE=FILE``.
    """
    from ..lines.scenario import load_deck
    from .terminal import _no_display

    start: tuple[str, ...] = ()
    if from_:
        deck_side, start, _ = load_deck(from_)
        if deck_side != side:
            raise HexwarError(f"--from {from_}: a {deck_side} deck, not {side}")
    if _no_display():
        click.echo(
            "No display is available to open the deck builder window; write the deck file by hand "
            "(format in docs/lines.md) and check it with `hexwar validate FILE`."
        )
        return 1
    from ..game.scenario import load_scenario
    from ..lines.scenario import seat_budget
    from ..ui.deck_builder import run_deck_builder

    std: Any = load_scenario("lines-4p" if role else "lines")
    budget = seat_budget(std, side)  # the standard games' limits
    run_deck_builder(side, budget, role, out or from_, start)
    return 0
