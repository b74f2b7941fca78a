"""``hexwar balance``: seeded AI-vs-AI games per scenario and variant, on one core or a Dask cluster (issue 20).

``hexwar balance [SCENARIO...] [--games N] [--seed-start S] [--rules VARIANT...] [--ai SPEC]
[--workers K] [--cluster local|none|tcp://HOST:8786] [--csv FILE] [--json] [--update-docs]``

The engine is :mod:`hexwar.balance` (seeds, counting, the game-kind registry) over
:mod:`hexwar.cluster` (chunks on Dask). Bad input is one sentence and exit status 2; a run with
error games exits 1; Ctrl+C prints what finished and exits 130.
"""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import HexwarError
from . import echo_json

__all__ = ["balance", "parse_balance_ai", "parse_variant_sets", "cluster_options"]

SIDES = ("german", "soviet")


def parse_balance_ai(spec: str) -> dict[str, str]:
    """``--ai``: one computer player for both sides (``standard``) or per side (``german=standard,soviet=random``).

    Raises:
        HexwarError: naming an unknown player or side.

    >>> parse_balance_ai("random"), parse_balance_ai("soviet=random")
    ({'german': 'random', 'soviet': 'random'}, {'german': 'standard', 'soviet': 'random'})
    """
    from ..game.ai import PLAYER_NAMES

    spec = spec.strip().lower()
    if spec in PLAYER_NAMES:
        return {s: spec for s in SIDES}
    out = {s: "standard" for s in SIDES}
    for part in spec.split(","):
        side, eq, name = (x.strip() for x in part.partition("="))
        if not eq or side not in SIDES or name not in PLAYER_NAMES:
            raise HexwarError(
                f"--ai {spec!r}: expected a computer player ({', '.join(PLAYER_NAMES)}) for both sides, "
                "or SIDE=PLAYER pairs like german=standard,soviet=random"
            )
        out[side] = name
    return out


def parse_variant_sets(values: tuple[str, ...], known: tuple[str, ...]) -> list[tuple[str, ...] | None]:
    """``--rules`` values: each is one variant set to run (``burnout``, ``classic,burnout``, ``standard``).

    Returns ``[None]`` (the scenarios' own variants) when none are given.

    Raises:
        HexwarError: naming an unknown variant.

    >>> parse_variant_sets((), ("standard", "burnout")), parse_variant_sets(("standard", "burnout"), ("standard", "burnout"))
    ([None], [(), ('burnout',)])
    """
    if not values:
        return [None]
    out: list[tuple[str, ...] | None] = []
    for v in values:
        parts = []
        for p in (x.strip().lower() for x in v.split(",")):
            if not p:
                continue
            if p not in known:
                raise HexwarError(f"--rules: unknown rule variant {p!r}; expected one of {', '.join(known)}")
            if p != "standard" and p not in parts:
                parts.append(p)
        t = tuple(parts)
        if t not in out:
            out.append(t)
    return out


def cluster_options(f: Any) -> Any:
    """The ``--workers`` and ``--cluster`` options, shared by ``hexwar balance`` and ``hexwar sim sweep``."""
    f = click.option(
        "--cluster",
        "cluster",
        default=None,
        metavar="local|none|tcp://HOST:8786",
        help="Where to run: in this process (none), a local Dask cluster (local, the default "
        "with --workers > 1) or an existing Dask scheduler's address.",
    )(f)
    f = click.option(
        "--workers",
        "workers",
        type=click.IntRange(1, 512),
        default=1,
        show_default=True,
        help="Worker processes of a local cluster.",
    )(f)
    return f


def _command_line(
    names: tuple[str, ...],
    kind: str,
    games: int,
    seed_start: int,
    rules: tuple[str, ...],
    ai: str,
    max_turns: int,
    default_max: int,
) -> str:
    parts = (
        ["hexwar balance", *names] + ([f"--kind {kind}"] if kind != "scenario" else []) + [f"--games {games}"]
    )
    parts += [f"--seed-start {seed_start}"] if seed_start else []
    parts += [f"--rules {r}" for r in rules]
    parts += [f"--ai {ai}"] if ai != "standard" else []
    parts += [f"--max-turns {max_turns}"] if max_turns != default_max else []
    return " ".join(parts)


def _balance_players(ai: str, ai_level: str | None, head_to_head: bool) -> tuple[dict[str, str], str]:
    """The computer player of each side from ``--ai`` or ``--ai-level`` (issue 31), and the
    ``--ai`` text that names them.

    Raises:
        HexwarError: for both options at once, or --head-to-head without two levels.
    """
    players = parse_balance_ai(ai)
    if ai_level is not None:
        from .ai_level import parse_ai_level

        if ai != "standard":
            raise HexwarError("--ai-level and --ai: give one of them (--ai-level plays the levels)")
        players = parse_ai_level(ai_level, SIDES, "normal")
        ai = ",".join(f"{s}={lv}" for s, lv in players.items())
    if head_to_head and (ai_level is None or players["german"] == players["soviet"]):
        raise HexwarError("--head-to-head needs two levels: --ai-level german=LEVEL,soviet=OTHER")
    return players, ai


def _balance_report(
    as_json: bool,
    head: dict[str, Any],
    tallies: list[Any],
    versus: list[Any],
    games_json: list[dict[str, Any]],
    objectives: str,
    summary: str,
    csv_path: str | None,
) -> None:
    """Print the run: ``--json`` (``head`` then the tables and every game) or the text tables, how
    games ended and which objectives decided (R10.2)."""
    from .. import balance as bal
    from ..search.versus import versus_table

    cmd = head["command"]
    if as_json:
        echo_json(
            {
                **head,
                "table": [t.to_json() for t in tallies],
                "head_to_head": [v.to_json() for v in versus],
                "games": games_json,
            }
        )
    else:
        if versus:
            click.echo(versus_table(versus))
        else:
            click.echo(bal.markdown_table(tallies))
        click.echo(bal.reasons_text(tallies))
        if objectives:
            click.echo("objectives decided (R10.2):\n" + objectives)
        click.echo(summary + (f"; wrote {csv_path}" if csv_path else ""))
        click.echo(f"reproduce: {cmd}")


def _balance_docs(
    gk: Any,
    run: Any,
    head: dict[str, Any],
    version: str,
    on: str,
    tallies: list[Any],
    versus: list[Any],
    objectives: str,
    games_json: list[dict[str, Any]],
    ai_level: str | None,
    as_json: bool,
) -> None:
    """``--update-docs``: write the run into the kind's document (the standard players' table and
    its JSON file, a head-to-head section, or one level's own section, issue 31).

    Raises:
        HexwarError: when a file cannot be written.
    """
    from .. import balance as bal
    from ..fileio import atomic_write_text
    from ..search.versus import versus_table

    cmd, players, where, workers = head["command"], head["ai"], head["cluster"], head["requested_workers"]
    kind, games, seed_start = head["kind"], head["games_per_scenario"], head["seed_start"]
    doc = bal.ROOT / gk.doc
    footer = (
        f"Reproduce: `{cmd}` ({len(run.records)} games, {run.seconds:.0f} s on {on}, code at commit "
        f"{version}; every game's seed and result in `{gk.json}`)."
    )
    if versus:  # the head-to-head table goes into its own marked section (no JSON file)
        footer = (
            f"Reproduce: `{cmd}{f' --workers {workers}' if where == 'local' and workers > 1 else ''}` "
            f"({len(run.records)} games, {run.seconds:.0f} s on {on}, code "
            f"at commit {version}; `--json` prints every game's seed and result)."
        )
        block = versus_table(versus) + (
            "\nObjectives decided (R10.2):\n\n" + objectives if objectives else ""
        )
        bal.update_doc(doc, f"{block}\n\n{footer}", "head-to-head")
        click.echo(f"wrote {gk.doc}", err=as_json)
        return
    level = players["german"] if players["german"] == players["soviet"] else None
    if ai_level is not None and level is not None and level != "normal":
        # one level on both sides (issue 31: hard against hard): its own marked section and JSON
        # file, merged with the scenarios earlier runs played, so the standard players' table
        # and docs/balance.json stay as they are
        from ..search.level_docs import write_level_docs

        written = write_level_docs(
            bal.ROOT,
            gk.doc,
            gk.json,
            level,
            games_json,
            {
                "command": f"{cmd}{f' --workers {workers}' if where == 'local' and workers > 1 else ''}",
                "commit": version,
                "wall_seconds": round(run.seconds, 1),
                "on": on,
            },
            sides=gk.sides,
            scenario_kind=kind == "scenario",
        )
        click.echo("wrote " + " and ".join(written), err=as_json)
        return
    reasons = bal.reasons_text(tallies) + (
        "\n\nObjectives decided (R10.2):\n" + objectives if objectives else ""
    )
    bal.update_doc(doc, bal.render_block(bal.markdown_table(tallies), reasons, footer), gk.marker)
    payload = {
        "command": cmd,
        "kind": kind,
        "ai": players,
        "games_per_scenario": games,
        "seed_start": seed_start,
        "wall_seconds": round(run.seconds, 1),
        "cluster": where,
        "workers": run.workers,
        "commit": version,
        "draws": "games with no winner count in the denominator of both win rates",
        "table": [t.to_json() for t in tallies],
    }
    atomic_write_text(bal.ROOT / gk.json, _json_text(payload, games_json))
    click.echo(f"wrote {gk.doc} and {gk.json}", err=as_json)


@click.command("balance")
@click.argument("scenarios", nargs=-1, metavar="[SCENARIO...]")
@click.option(
    "--kind", "kind", default="scenario", show_default=True, help="Game kind (hexwar.balance.GAME_KINDS)."
)
@click.option(
    "--games",
    "games",
    type=click.IntRange(1, 10_000_000),
    default=200,
    show_default=True,
    help="Games per scenario and variant.",
)
@click.option(
    "--seed-start",
    "seed_start",
    type=click.IntRange(0, 2**32 - 1),
    default=0,
    show_default=True,
    help="Number of the first game (seeds come from scenario, variant and game number).",
)
@click.option(
    "--rules",
    "rules",
    multiple=True,
    metavar="VARIANT",
    help="A rule variant to run (repeat for several; classic,burnout for both at once) "
    "[default: each scenario's own].",
)
@click.option(
    "--ai",
    "ai",
    default="standard",
    show_default=True,
    metavar="SPEC",
    help="Computer players: standard, random, or german=standard,soviet=random.",
)
@click.option(
    "--ai-level",
    "ai_level",
    default=None,
    metavar="LEVEL",
    help="Computer strength instead of --ai: easy, normal or hard for both sides, or "
    "german=hard,soviet=normal (issue 31).",
)
@click.option(
    "--head-to-head",
    "head_to_head",
    is_flag=True,
    help="With --ai-level german=A,soviet=B: half the games swapped, on paired seeds; print A's "
    "wins as each side with 95%% intervals (--update-docs: into the kind's document).",
)
@cluster_options
@click.option(
    "--chunk",
    "chunk",
    type=click.IntRange(1, 100_000),
    default=None,
    help="Games per chunk [default: about 3 s of games].",
)
@click.option(
    "--max-turns",
    "max_turns",
    type=click.IntRange(1, 1000),
    default=None,
    help="Safety cap in turns for scenarios without a turn limit [default: 60].",
)
@click.option(
    "--csv", "csv_path", type=click.Path(dir_okay=False), default=None, help="Write one row per game here."
)
@click.option("--json", "as_json", is_flag=True, help="Print the table and every game as JSON.")
@click.option("--force", is_flag=True, help="Replace an existing --csv file that hexwar did not write.")
@click.option(
    "--update-docs",
    "update_docs",
    is_flag=True,
    help="Rewrite the balance table of the kind's document (docs/scenarios.md) and its JSON file.",
)
def balance(
    scenarios: tuple[str, ...],
    kind: str,
    games: int,
    seed_start: int,
    rules: tuple[str, ...],
    ai: str,
    workers: int,
    cluster: str | None,
    chunk: int | None,
    max_turns: int | None,
    csv_path: str | None,
    as_json: bool,
    force: bool,
    update_docs: bool,
    ai_level: str | None = None,
    head_to_head: bool = False,
) -> int:
    """Seeded AI-vs-AI games per scenario and variant: wins with 95% intervals, how games ended (R10)."""
    from .. import balance as bal
    from ..cluster import parse_cluster
    from ..fileio import atomic_write_text
    from ..outputs import check_outputs

    check_outputs(force, csv=csv_path)  # as `hexwar sim`'s check_output_paths does
    gk = bal.game_kind(kind)
    where = parse_cluster(cluster, workers)
    players, ai = _balance_players(ai, ai_level, head_to_head)
    variant_sets = parse_variant_sets(rules, gk.variants)
    mt = max_turns if max_turns is not None else bal.MAX_TURNS
    loader = gk.function("load")
    names = scenarios or gk.defaults
    sources = [loader(n) for n in names]
    if head_to_head:
        from ..search.versus import plan_head_to_head

        specs = plan_head_to_head(gk, sources, variant_sets, games, seed_start, players, mt)
    else:
        specs = bal.plan_games(gk, sources, variant_sets, games, seed_start, players, mt)
    version = _source_version() if update_docs else ""  # the code that plays, before it can change
    run = bal.run_balance(specs, cluster=where, workers=workers, chunk=chunk, quiet=as_json)
    from ..search.versus import objective_text, versus_tally

    tallies = bal.tally(run.records, gk.sides)
    versus = versus_tally(run.records, players["german"], players["soviet"]) if head_to_head else []
    cmd = _command_line(scenarios, kind, games, seed_start, rules, ai, mt, bal.MAX_TURNS)
    if ai_level is not None:
        cmd = cmd.replace(f" --ai {ai}", f" --ai-level {ai}") + (" --head-to-head" if head_to_head else "")
    objectives = objective_text(run.records) if kind == "scenario" else ""
    rate = len(run.records) / run.seconds if run.seconds > 0 else 0.0
    on = (
        "this process"
        if where == "none"
        else f"{run.workers} {where} workers"
        if where == "local"
        else f"{run.workers} workers of {where}"
    )
    summary = (
        f"{len(run.records)} of {run.planned} games in {run.seconds:.1f} s on {on} ({rate:.2f} games/s, "
        f"{run.chunk} games a chunk)"
    )
    if csv_path:
        from ..outputs import record_output

        atomic_write_text(csv_path, bal.records_csv(run.records, gk.sides))
        record_output(csv_path)  # a later run may replace it without --force (issue 13)
    errors = [r for r in run.records if r.reason == "error"]
    games_json = [
        {k: (round(v, 3) if k == "seconds" else v) for k, v in vars(r).items() if k != "error" or v}
        for r in run.records
    ]
    head = {
        "command": cmd,
        "kind": kind,
        "ai": players,
        "games_per_scenario": games,
        "seed_start": seed_start,
        "planned": run.planned,
        "finished": len(run.records),
        "interrupted": run.interrupted,
        "wall_seconds": round(run.seconds, 2),
        "cluster": where,
        "workers": run.workers,
    }
    _balance_report(as_json, head, tallies, versus, games_json, objectives, summary, csv_path)
    for r in errors[:5]:
        src = next((n for n, (stem, _) in zip(names, sources, strict=True) if stem == r.scenario), r.scenario)
        rules_arg = "" if r.variant == "default" else f" --rules {r.variant.replace('+', ',')}"
        click.echo(
            f"ERROR {r.scenario} ({r.variant}) game {r.index} seed {r.seed}: "
            f"{r.error}\n  replay: {gk.replay.format(source=src, seed=r.seed, rules=rules_arg)}",
            err=True,
        )
    if run.interrupted:
        click.echo(
            f"interrupted: {len(run.records)} of {run.planned} games finished (the table counts those)",
            err=True,
        )
        return 130
    if update_docs:
        docs_head = {**head, "requested_workers": workers}
        _balance_docs(
            gk, run, docs_head, version, on, tallies, versus, objectives, games_json, ai_level, as_json
        )
    return 1 if errors else 0


def _json_text(head: dict[str, Any], games: list[dict[str, Any]]) -> str:
    """``head`` indented, then ``games`` one line each (the file stays small and diffable)."""
    text = json.dumps(head, indent=1)
    lines = ",\n".join("  " + json.dumps(g, separators=(",", ":")) for g in games)
    return text[:-2] + ',\n "games": [\n' + lines + "\n ]\n}\n"


def _source_version() -> str:
    """The git commit of the code measured (``+dirty`` with uncommitted changes), or ``unknown``."""
    import subprocess

    from ..balance import ROOT

    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "hexwar", "scenarios", "maps"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")
