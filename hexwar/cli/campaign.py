"""``hexwar campaign``: the Eastern Front Battle Card Game, 1941-1945 (002, R11.2).

``hexwar campaign [SAVE.json] [--ai SIDES|none] [--headless] [--seed N] [--save FILE]
[--random-initiative] [--campaign-cards] [--advanced] [--events 1|2] [--event-swap]
[--field-marshals] [--battles cards|lines|hex] [--battle-turns N] [--stop-after YEAR] [--json]``
plays a war; ``hexwar campaign --balance N`` plays N seeded computer wars and writes the balance
table into docs/campaign.md.

- ``--ai`` names the computer-played sides: ``soviet`` (default: you play the Germans against
  the computer), ``german,soviet`` (both), ``none`` (hot-seat: two people, each placement
  behind a "pass the terminal" screen so face-down cards stay hidden), ``soviet=random``.
- Without ``--headless`` the campaign window opens (``hexwar.ui.campaign_screen``, on the
  shared widget toolkit); without a display the command says so and offers ``--headless``.
- ``--save FILE`` saves after every battle (atomic writes); ``hexwar campaign FILE`` continues
  the war with its own seed and options; ``hexwar replay FILE --verify`` verifies it.
- ``--battles hex`` fights each battle of 1943 as one of the shipped 1943 hex scenarios
  (computer against computer, headless, forces scaled by the battle cards) and saves each game
  beside the campaign; other years have no hex scenario, which is said at the start, and their
  battles are decided by the cards. ``--battles lines`` needs ``hexwar.lines`` (issue 15).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..errors import HexwarError, cannot
from . import echo_json

__all__ = ["campaign", "parse_campaign_ai"]

SIDES = ("german", "soviet")


def parse_campaign_ai(spec: str | None) -> dict[str, str]:
    """``--ai`` text -> ``{side: computer player name}`` (default ``soviet``; ``none``: nobody).

    Raises:
        HexwarError: naming the bad entry.

    >>> parse_campaign_ai("german,soviet=random")
    {'german': 'standard', 'soviet': 'random'}
    """
    from ..campaign.ai import PLAYER_NAMES

    spec = "soviet" if spec is None else spec.strip()
    if spec.lower() in ("", "none"):
        return {}
    out: dict[str, str] = {}
    for part in spec.split(","):
        side, _, name = part.strip().partition("=")
        side, name = side.strip().lower(), (name.strip().lower() or "standard")
        if side not in SIDES:
            raise HexwarError(
                f"--ai: unknown side {side!r} in {spec!r}; expected german and/or soviet, or none"
            )
        if name not in PLAYER_NAMES:
            raise HexwarError(f"--ai: unknown computer player {name!r}; expected one of {PLAYER_NAMES}")
        out[side] = name
    return out


def _is_campaign_save(path: str) -> bool:
    """Whether ``path`` holds a campaign save (``"format": "hexwar-campaign-save"``); ``False``
    for a file that is not JSON."""
    try:
        _check_campaign_save(path)
    except HexwarError:
        return False
    return True


def _check_campaign_save(path: str) -> None:
    """Refuse a file to continue a war from (``hexwar campaign SAVE``) before replaying it.

    Raises:
        HexwarError: naming the file: the JSON problem where the file is not JSON (line and
            column: a truncated save says where it ends), else that it is no campaign save.
    """
    from ..campaign.save import CAMPAIGN_SAVE_FORMAT
    from ..fileio import read_json

    data = read_json(path)
    if not (isinstance(data, dict) and data.get("format") == CAMPAIGN_SAVE_FORMAT):
        raise HexwarError(f'{path}: not a hexwar campaign save ("format": "hexwar-campaign-save")')


def _check_save_target(save: str) -> None:
    p = Path(save)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise HexwarError(f"--save {save}: the folder {folder} does not exist")
    if p.is_dir():
        raise HexwarError(f"--save {save}: is a folder, expected a file name")
    if p.exists() and not _is_campaign_save(save):
        raise HexwarError(f"--save {save}: refusing to overwrite {save}: it is not a hexwar campaign save")


@click.command()
@click.argument("save_file", required=False, metavar="[SAVE.json]")
@click.option(
    "--ai",
    "ai",
    default=None,
    metavar="SIDES|none",
    help="Computer-played sides: soviet (default), german,soviet, none (hot-seat), soviet=random.",
)
@click.option("--headless", is_flag=True, help="Play at the terminal, no window.")
@click.option(
    "--seed", type=click.IntRange(0, 2**63 - 1), default=None, help="The war's seed (default 1941)."
)
@click.option(
    "--save", "save", type=click.Path(dir_okay=False), default=None, help="Save after every battle."
)
@click.option("--random-initiative", is_flag=True, help="002: draw year cards for the initiative every year.")
@click.option("--campaign-cards", is_flag=True, help="002: play with the campaign cards (once per war each).")
@click.option(
    "--advanced", is_flag=True, help="002 advanced rules: all 5 tactic cards and the campaign cards."
)
@click.option(
    "--events", type=click.IntRange(1, 2), default=None, help="Event cards in play each year: 1 or 2."
)
@click.option("--event-swap", is_flag=True, help="The winner of a battle may swap an event card.")
@click.option("--field-marshals", is_flag=True, help="Both reached Field Marshal before: all 5 tactic cards.")
@click.option(
    "--battles",
    type=click.Choice(["cards", "lines", "hex"]),
    default=None,
    help="How a battle is decided: cards (002), lines (the line card game) or hex (a hex scenario).",
)
@click.option(
    "--battle-turns",
    type=click.IntRange(min=1),
    default=None,
    help="--battles hex: stop each game after N turns (a stopped game goes to the initiative).",
)
@click.option("--stop-after", type=click.IntRange(1941, 1945), default=None, help="Stop after this year.")
@click.option(
    "--balance",
    "balance_n",
    type=click.IntRange(min=1),
    default=None,
    help="Play N seeded computer wars and write the balance table into docs/campaign.md.",
)
@click.option(
    "--ai-level",
    "ai_level",
    default=None,
    metavar="LEVEL|SIDE=LEVEL,...",
    help="How strong the computer plays: easy (random), normal (heuristic), hard (equilibrium, default); "
    "per side: german=hard,soviet=normal. With --balance: the levels of a head-to-head.",
)
@click.option(
    "--update-docs",
    is_flag=True,
    help="--balance: write the table into docs/campaign.md (never without this switch).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="--balance with --ai-level: processes playing wars at once (the table does not depend on it).",
)
@click.option(
    "--odds",
    "show_odds",
    is_flag=True,
    help="Print the odds of the battle being placed (from SAVE.json, or a new war's first battle) for the "
    "side to act, each figure with its opponent model, and exit.",
)
@click.option("--json", "as_json", is_flag=True, help="Print only the result as JSON.")
def campaign(
    save_file: str | None,
    ai: str | None,
    headless: bool,
    seed: int | None,
    save: str | None,
    random_initiative: bool,
    campaign_cards: bool,
    advanced: bool,
    events: int | None,
    event_swap: bool,
    field_marshals: bool,
    battles: str | None,
    battle_turns: int | None,
    stop_after: int | None,
    balance_n: int | None,
    ai_level: str | None,
    update_docs: bool,
    workers: int,
    show_odds: bool,
    as_json: bool,
) -> int:
    """The Eastern Front Battle Card Game: a 1941-1945 campaign (002, R11.2)."""
    from ..campaign.options import CampaignOptions

    switches: dict[str, Any] = dict(
        random_initiative=random_initiative,
        campaign_cards=campaign_cards,
        advanced=advanced,
        event_swap=event_swap,
        field_marshals=field_marshals,
    )
    from .ai_level import parse_ai_level

    levels = parse_ai_level(ai_level, SIDES, "hard")
    if balance_n is not None:
        opts = CampaignOptions(events=events or 1, **switches)
        if ai_level:
            return _head_to_head(balance_n, seed or 0, opts, levels, ai_level, update_docs, as_json, workers)
        return _balance(balance_n, seed or 0, opts, as_json, update_docs)
    from ..campaign.ai import make_player
    from ..campaign.battles import make_fighter
    from ..campaign.headless import TerminalCampaignPlayer, play_war, show_events
    from ..campaign.save import ReplayError, load_campaign
    from ..campaign.state import new_campaign

    if save_file is not None:
        if not Path(save_file).is_file():
            what = "is a folder" if Path(save_file).is_dir() else "no such file"
            raise HexwarError(f"{save_file}: {what}; expected a campaign save (.json)")
        _check_campaign_save(save_file)  # a truncated save: its JSON problem, not "not a save"
        if seed is not None or any(switches.values()) or events is not None or battles is not None:
            raise HexwarError(
                f"{save_file} is a saved war: it keeps its own seed and options "
                "(leave out --seed and the rule options to continue it)"
            )
        try:
            st = load_campaign(save_file)
        except ReplayError as exc:
            raise HexwarError(cannot("continue", save_file, exc)) from None
        save = save or save_file
        opening: list[Any] = []
    else:
        opts = CampaignOptions(events=events or 1, battles=battles or "cards", **switches)
        st, opening = new_campaign(1941 if seed is None else seed, opts)
    if show_odds:
        return _odds(st, as_json)
    if save:
        _check_save_target(save)
    names = parse_campaign_ai(ai)
    if ai_level:  # --ai-level names the strength of the computer sides (--ai side=NAME still works)
        names = {
            s: (levels[s] if n == "standard" and not _named_player(ai, s) else n) for s, n in names.items()
        }
    else:
        names = {s: ("hard" if n == "standard" and not _named_player(ai, s) else n) for s, n in names.items()}
    if not headless:
        return _window(st, names, save, battle_turns, offer_last=save_file is None)
    echo = click.echo
    humans = [s for s in SIDES if s not in names]
    viewer = humans[0] if len(humans) == 1 else ("spectator" if humans else None)

    def prompt(text: str) -> str:
        return str(click.prompt(text, default="", show_default=False))

    players: dict[str, Any] = {
        s: (
            make_player(names[s], s, st.seed)
            if s in names
            else TerminalCampaignPlayer(s, hot_seat=len(humans) == 2, prompt=prompt, echo=echo)
        )
        for s in SIDES
    }
    fighter = make_fighter(st.options.battles, save, battle_turns, None if as_json else echo)
    if st.options.battles == "hex" and not as_json:
        have = st.cards.hex_battles.scenarios
        for y in (yc.year for yc in st.cards.years):
            if y not in have:
                echo(
                    f"--battles hex: no hex scenario of {y} exists; the battles of {y} are decided by the cards (002)."
                )
            else:
                echo(
                    f"--battles hex: the battles of {y} are fought as {', '.join(have[y])} (computer against computer)."
                )

    def show(state: Any, evs: list[Any]) -> None:
        show_events(state, evs, viewer, echo)

    if not as_json:
        if opening:
            show(st, opening)
        elif save_file:
            echo(f"Continuing {save_file}: {st.year}, battle {st.battle}, {len(st.commands)} commands so far")
    run = play_war(
        st, players, fighter, save, None if as_json else show, {s: players[s].name for s in SIDES}, stop_after
    )
    st = run.state
    if as_json:
        echo_json(
            {
                "seed": st.seed,
                "options": st.options.names(),
                "winner": st.winner,
                "result": st.result_reason,
                "year_cards": st.year_cards,
                "years_unclaimed": st.years_unclaimed,
                "year": st.year,
                "over": st.over,
                "commands": len(st.commands),
                "state_hash": st.state_hash(),
                "save": save,
                "games": [h.game for h in st.history if h.game],
            }
        )
    else:
        echo(f"\nResult: {st.result_reason or 'stopped'}" + (f"; saved to {save}" if save else ""))
    return 0


def _window(
    st: Any, names: dict[str, str], save: str | None, battle_turns: int | None, offer_last: bool = False
) -> int:
    """Open the campaign window (``hexwar.ui.campaign_screen``), or say why it cannot open.

    Without ``--save`` the war autosaves after every battle to a new file in the autosave
    folder (:func:`hexwar.ui.autosave.new_game_autosave`); with ``offer_last`` (a plain
    ``hexwar campaign``) the window first offers to continue the last unfinished war."""
    try:
        from ..ui import campaign_screen  # type: ignore[attr-defined]
    except ImportError:
        click.echo(
            "The campaign window needs the shared widget toolkit (hexwar.ui.widgets), which is not part of "
            "this installation yet: run `hexwar campaign --headless` to play at the terminal."
        )
        return 1
    from ..render import backend

    try:
        backend.require_display()  # the one display check of every window command
    except backend.NoDisplayError:
        click.echo(
            "No display is available to open the campaign window: run `hexwar campaign --headless` to play "
            "at the terminal."
        )
        return 1
    import datetime

    from ..campaign.ai import make_player
    from ..campaign.battles import make_fighter
    from ..ui.autosave import latest_campaign_autosave, new_game_autosave
    from ..ui.campaign_controller import CampaignController
    from ..ui.clock import RealClock

    offer = latest_campaign_autosave() if offer_last else None
    if save is None:
        save = str(new_game_autosave("campaign", datetime.datetime.now()))
        click.echo(f"autosaving this war to {save} after every battle")
    ctl = CampaignController(
        st,
        ai={s: make_player(n, s, st.seed) for s, n in names.items()},
        clock=RealClock(),
        fighter=make_fighter(st.options.battles, save, battle_turns),
        save=save,
    )
    campaign_screen.run(ctl, offer=offer)
    return 0


def _odds(st: Any, as_json: bool) -> int:
    """``--odds``: the odds of the battle being placed for the side to act (issue 30, R11.2)."""
    from ..campaign.ai import make_player
    from ..campaign.odds import BEST, RANDOM, informed_odds

    while not st.over and st.phase in ("choose_tactics", "campaign"):  # the computer's choices first
        side = st.to_act
        st.apply(make_player("hard", side, st.seed).choose(st))
    if st.phase != "place":
        raise HexwarError(f"--odds: no battle is being placed ({'the war is over' if st.over else st.phase})")
    side = next(s for s in st.pending() if s in SIDES)
    info = informed_odds(st, side)
    plays = [
        {
            "battle": pl["battle"],
            "tactic": pl["tactic"],
            BEST: round(pl[BEST], 6),
            RANDOM: str(pl[RANDOM]),
            "equilibrium_mix": round(pl["mix"], 6),
        }
        for pl in info["plays"]  # type: ignore[attr-defined]
    ]
    out = {
        "year": st.year,
        "battle": st.battle,
        "side": side,
        "models": info["models"],
        "exact": info["exact"],
        "decided": info["decided"],
        "value_of_the_year": round(float(info["value"]), 6),  # type: ignore[arg-type]
        "plays": plays,
    }
    if as_json:
        echo_json(out)
    else:
        click.echo(f"{st.year}, battle {st.battle}, {side}: P(win this battle) {BEST} / {RANDOM}")
        for pl in plays:
            click.echo(
                f"  {st.cards.title(pl['battle'])}{' + ' + st.cards.title(pl['tactic']) if pl['tactic'] else ''}: "
                f"{float(pl[BEST]):.0%} / {pl[RANDOM]}"
            )
    return 0


def _named_player(ai: str | None, side: str) -> bool:
    """Whether ``--ai`` names a player for ``side`` explicitly (``soviet=standard``)."""
    return any(p.strip().startswith(side + "=") for p in (ai or "").split(","))


def _docs_path() -> Path:
    return Path(__file__).resolve().parents[2] / "docs" / "campaign.md"  # a source checkout's docs


def _head_to_head(
    n: int,
    seed: int,
    options: Any,
    levels: dict[str, str],
    spec: str,
    update_docs: bool,
    as_json: bool,
    workers: int = 1,
) -> int:
    from ..campaign.balance import head_to_head, head_to_head_markdown, write_head_to_head_docs

    res = head_to_head(
        (levels["german"], levels["soviet"]),
        n,
        seed,
        options,
        progress=None if as_json else (lambda i, t: click.echo(f"  {i}/{t} wars", err=True)),
        workers=workers,
    )
    cmd = " ".join(
        ["hexwar campaign --balance", str(n)]
        + (["--seed", str(seed)] if seed else [])
        + [f"--{x.replace('_', '-')}" for x in options.names()]
        + ["--ai-level", spec, "--update-docs"]
    )
    doc = _docs_path()
    written = None
    if update_docs:
        if not doc.exists():
            raise HexwarError(f"--update-docs: {doc} not found (a source checkout's docs/campaign.md)")
        write_head_to_head_docs(doc, [res], cmd)
        written = str(doc)
    if as_json:
        echo_json(res.to_json() | {"docs": written})
    else:
        click.echo(head_to_head_markdown([res]))
        click.echo(f"written into {doc}" if written else "docs not written (add --update-docs)")
    return 0


def _balance(n: int, seed: int, options: Any, as_json: bool, update_docs: bool = False) -> int:
    from ..campaign.balance import balance, write_balance_docs

    res = balance(
        n,
        seed,
        options,
        n_random=max(1, n // 2),
        progress=None if as_json else (lambda i, t: click.echo(f"  {i}/{t} wars", err=True)),
    )
    cmd = "hexwar campaign --balance " + " ".join(
        [str(n)]
        + (["--seed", str(seed)] if seed else [])
        + [f"--{x.replace('_', '-')}" for x in options.names()]
    )
    doc = _docs_path()
    written = None
    if update_docs:
        if not doc.exists():
            raise HexwarError(f"--update-docs: {doc} not found (a source checkout's docs/campaign.md)")
        write_balance_docs(doc, [res], cmd + " --update-docs")
        written = str(doc)
    if as_json:
        echo_json(res.to_json() | {"docs": written})
    else:
        from ..campaign.balance import balance_markdown

        click.echo(balance_markdown([res]))
        click.echo(f"written into {doc}" if written else "docs not written (add --update-docs)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(campaign())
