"""``hexwar serve`` and ``hexwar join``: network play (R12.5; docs/protocol.md).

``hexwar serve [SCENARIO|SAVE ...] [--host 127.0.0.1] [--port 7420] [--games DIR] [--fog]
[--seed N --public-seed] [--tokens FILE] [--certfile F --keyfile F]`` and the limits
(``--max-pending``, ``--max-spectators``, ``--max-games``, ``--max-rate``, ``--max-violations``,
``--idle-timeout``, ``--max-queue-bytes``, ``--sync-interval``, ``--expire-after``,
``--create-key``: docs/protocol.md, "Limits") hosts the games of DIR (resumed from
their saves) plus one new game per SCENARIO or SAVE given, prints each new game's seat tokens
and join commands (``--tokens FILE`` also writes them as JSON, mode 0600), and serves until
interrupted. It binds 127.0.0.1 unless ``--host`` names another address. A SCENARIO is a hex
scenario, a 2-player line scenario (the card game on lines, R11.1) or a campaign preset
(``campaign``, ``campaign-advanced``, R11.2): the protocol carries the mode.

``hexwar join ws://HOST:PORT/GAME --seat german --token T`` opens the play window for the
seat (hex games); ``--headless`` plays it at the terminal, ``--ai`` lets the computer play it (every mode),
``--watch`` joins as a spectator. The client reconnects by itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import HexwarError

__all__ = ["serve", "join", "result_line"]


def _read_tokens_file(path: str) -> dict[str, Any]:
    """The games already in a ``--tokens`` file (``{GAME: {seat: token}}``), ``{}`` when it does
    not exist yet.

    Raises:
        HexwarError: naming the file when it exists but is not a tokens file hexwar wrote
            (unreadable, not JSON, or another shape): it is never replaced then.
    """
    from ..errors import ValidationError
    from ..fileio import loads_json, read_text

    if not os.path.lexists(path):
        return {}
    keep = "it is not replaced: give another --tokens file"
    try:
        doc = loads_json(read_text(path, 1024 * 1024), path)
    except ValidationError as exc:
        why = exc.problems[0].message if exc.problems else "unreadable"
        raise HexwarError(f"--tokens {path}: {why}; not a hexwar tokens file, so {keep}") from None
    if not isinstance(doc, dict) or not all(
        isinstance(v, dict) and all(isinstance(t, str) for t in v.values()) for v in doc.values()
    ):
        raise HexwarError(
            f'--tokens {path}: expected {{"GAME": {{"seat": "TOKEN"}}}} as hexwar serve writes it; {keep}'
        )
    return doc


def _check_tls_files(certfile: str, keyfile: str | None) -> None:
    """Load ``certfile`` (and ``keyfile``) as a TLS server would, so a wrong file is named.

    Raises:
        HexwarError: naming the files when they are not a PEM certificate and its private key.
    """
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError) as exc:
        given = f"--certfile {certfile}" + (f" --keyfile {keyfile}" if keyfile else "")
        why = re.sub(r"\s*\(_ssl\.c:\d+\)$", "", str(exc))  # OpenSSL's source line is no help
        raise HexwarError(
            f"{given}: expected a PEM certificate and its private key (in --keyfile or the same file); "
            f"TLS refused them ({why})"
        ) from None


def _is_save(path: str) -> bool:
    from .game import _is_save as is_save

    return path.lower().endswith(".json") and is_save(path)


def _is_campaign_save(path: str) -> bool:
    from ..campaign.save import CAMPAIGN_SAVE_FORMAT
    from ..fileio import sniff_kind

    return (
        path.lower().endswith(".json") and Path(path).is_file() and sniff_kind(path) == CAMPAIGN_SAVE_FORMAT
    )


@click.command()
@click.argument("games", nargs=-1, metavar="[SCENARIO | SAVE.json ...]")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; 0.0.0.0 (every interface) only when asked for.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=7420,
    show_default=True,
    help="TCP port (0: any free one).",
)
@click.option(
    "--games",
    "folder",
    type=click.Path(file_okay=False),
    default="hexwar-games",
    show_default=True,
    help="Folder of the hosted games (saved after every command).",
)
@click.option("--fog", is_flag=True, help="New games use fog of war (R12.2).")
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="Seed of the first new game, N+1 of the next... (needs --public-seed; default: secret "
    "random seeds drawn with the secrets module).",
)
@click.option(
    "--public-seed",
    is_flag=True,
    help="Allow --seed: the host accepts that the seeds are known (tests, tournaments that "
    "publish seeds); whoever knows a seed knows every die and deck order of its game.",
)
@click.option(
    "--tokens",
    "tokens_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the new games' seat tokens to this JSON file (mode 0600).",
)
@click.option(
    "--scenario",
    "scenario_paths",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    metavar="FILE",
    help="A scenario file (not shipped) that games of the folder need to resume (repeatable).",
)
@click.option(
    "--max-rate",
    type=click.FloatRange(min=1),
    default=50.0,
    show_default=True,
    help="Messages a second each connection may send (a burst of twice that).",
)
@click.option(
    "--max-pending",
    type=click.IntRange(min=1),
    default=256,
    show_default=True,
    help="Connections without a hello (lobby ones too); a new one beyond closes the oldest.",
)
@click.option(
    "--max-spectators",
    type=click.IntRange(min=0),
    default=8,
    show_default=True,
    help="Spectators per game (seats never count against it).",
)
@click.option(
    "--max-games", type=click.IntRange(min=1), default=500, show_default=True, help="Games on the server."
)
@click.option(
    "--max-violations",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Protocol violations a connection may earn before it is closed.",
)
@click.option(
    "--idle-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds a connection may wait before its hello (or between lobby messages).",
)
@click.option(
    "--max-queue-bytes",
    type=click.IntRange(min=65536),
    default=4 * 1024 * 1024,
    show_default=True,
    help="Bytes waiting to be sent to one connection; a slower reader is dropped.",
)
@click.option(
    "--sync-interval",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Seconds between two sync snapshots of one connection.",
)
@click.option(
    "--expire-after",
    type=click.FloatRange(min=0),
    default=30 * 24 * 3600.0,
    show_default=True,
    help="Seconds without a command or a connection before a game moves to DIR/expired (0: never).",
)
@click.option(
    "--create-key",
    default=None,
    help="Let lobby clients create games when their create carries this key (default: the lobby "
    "creates none).",
)
@click.option(
    "--certfile", type=click.Path(exists=True, dir_okay=False), default=None, help="TLS certificate (PEM)."
)
@click.option(
    "--keyfile", type=click.Path(exists=True, dir_okay=False), default=None, help="TLS private key (PEM)."
)
def serve(
    games: tuple[str, ...],
    host: str,
    port: int,
    folder: str,
    fog: bool,
    seed: int | None,
    public_seed: bool,
    tokens_file: str | None,
    scenario_paths: tuple[str, ...],
    max_rate: float,
    max_pending: int,
    max_spectators: int,
    max_games: int,
    max_violations: int,
    idle_timeout: float,
    max_queue_bytes: int,
    sync_interval: float,
    expire_after: float,
    create_key: str | None,
    certfile: str | None,
    keyfile: str | None,
) -> int:
    """Host network games: an authoritative server with a lobby (R12.5)."""
    from ..net.server import GameServer, Limits, serve_forever

    if keyfile and not certfile:
        raise HexwarError("--keyfile needs --certfile")
    if seed is not None and not public_seed:
        raise HexwarError(
            "--seed needs --public-seed: a seed the host picks can be found by trying seeds, and it "
            "decides every die and deck order (leave --seed out for secret random seeds)"
        )
    if host not in ("127.0.0.1", "localhost", "::1") and not certfile:
        click.echo(
            f"note: serving on {host} without TLS: seat tokens cross the network in the clear; "
            "give --certfile and --keyfile for wss://",
            err=True,
        )
    if certfile:  # before any game is made; it said "cannot listen on ...: [SSL] PEM lib"
        _check_tls_files(certfile, keyfile)
    # before any game is made: a --tokens file that is not one would be replaced (lost) or crash
    old_tokens = _read_tokens_file(tokens_file) if tokens_file else {}
    limits = Limits(
        max_pending=max_pending,
        max_spectators=max_spectators,
        max_games=max_games,
        rate=max_rate,
        burst=2 * max_rate,
        max_violations=max_violations,
        idle_timeout=idle_timeout,
        max_queue_bytes=max_queue_bytes,
        sync_interval=sync_interval,
        expire_after=expire_after,
        create_key=create_key or None,
    )
    srv = GameServer(folder, limits, scenario_paths=scenario_paths)
    for p in srv.load_all():
        click.echo(p, err=True)
    new = _host_games(srv, games, fog, seed, scenario_paths)
    scheme = "wss" if certfile else "ws"
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if tokens_file and new:
        _write_tokens(tokens_file, {**old_tokens, **new})

    def ready(bound: int) -> None:
        click.echo(
            f"hexwar server on {scheme}://{host}:{bound} (games in {folder}): {len(srv.rooms)} games",
            err=False,
        )
        for gid, toks in new.items():
            for seat, tok in toks.items():
                click.echo(
                    f"  {gid} {seat}: hexwar join {scheme}://{shown}:{bound}/{gid} --seat {seat} --token {tok}"
                )
        sys.stdout.flush()

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
                pass
        try:
            await serve_forever(srv, host, port, certfile, keyfile, ready=ready, stop=stop)
        except OSError as exc:
            raise HexwarError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None

    asyncio.run(main())
    return 0


def _host_games(
    srv: Any, games: tuple[str, ...], fog: bool, seed: int | None, scenario_paths: tuple[str, ...]
) -> dict[str, dict[str, str]]:
    """Create a game on ``srv`` for each ``GAME`` argument: a campaign save (R11.2), a hex or
    lines save (continued where it stopped), or a scenario (game ``i`` seeded ``seed + i``).
    Returns each new game's seat tokens.

    Raises:
        HexwarError: for a save that does not replay or a scenario that does not load.
    """
    new: dict[str, dict[str, str]] = {}
    for i, g in enumerate(games):
        if _is_campaign_save(g):  # a war to go on with over the network (R11.2)
            from ..net.campaign_mode import CampaignMode

            gid, toks = srv.create_game("", mode="campaign", game=CampaignMode().load(g))
        elif _is_save(g):
            from ..game.save import ReplayError, load_game

            try:
                state = load_game(g, scenario_paths=scenario_paths)
            except ReplayError as exc:
                raise HexwarError(f"cannot host {g}: {exc}") from None
            gid, toks = srv.create_game("", game=state)
        else:
            gid, toks = srv.create_game(g, fog=fog, seed=None if seed is None else seed + i)
        new[gid] = toks
    return new


def _write_tokens(tokens_file: str, tokens: dict[str, dict[str, str]]) -> None:
    """Write ``--tokens FILE`` (game -> seat -> token), readable by its owner only (0600),
    through a temporary file replaced in one step."""
    fd = os.open(tokens_file + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(tokens, fh, indent=2)
    os.replace(tokens_file + ".tmp", tokens_file)


@click.command()
@click.argument("url", metavar="ws://HOST:PORT/GAME")
@click.option("--seat", type=click.Choice(["german", "soviet"]), default=None, help="The seat to play.")
@click.option("--token", default=None, help="The seat's token (from the host).")
@click.option("--headless", is_flag=True, help="Play the seat at the terminal, no window.")
@click.option("--ai", "ai", is_flag=True, help="The computer plays the seat (from the seat's view only).")
@click.option(
    "--player",
    type=click.Choice(["standard", "random"]),
    default="standard",
    show_default=True,
    help="Which computer player --ai uses.",
)
@click.option(
    "--ai-level",
    "ai_level",
    default=None,
    metavar="LEVEL",
    help="How strong --ai plays: easy, normal or hard (hex and line games), or SEAT=LEVEL [default: normal].",
)
@click.option(
    "--ai-seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="The computer player's own seed.",
)
@click.option("--watch", is_flag=True, help="Join as a spectator: only what both sides may see.")
@click.option(
    "--give-up",
    type=click.FloatRange(min=1),
    default=600.0,
    show_default=True,
    help="Stop reconnecting after this many seconds without a server.",
)
@click.option(
    "--cafile",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Trust this certificate for wss:// (a server with its own certificate).",
)
@click.option(
    "--scenario",
    "scenario_file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="The server's scenario file, when it is not a shipped one.",
)
@click.option("--json", "as_json", is_flag=True, help="At the end print the result and state hash as JSON.")
def join(
    url: str,
    seat: str | None,
    token: str | None,
    headless: bool,
    ai: bool,
    player: str,
    ai_seed: int,
    watch: bool,
    give_up: float,
    cafile: str | None,
    scenario_file: str | None,
    as_json: bool,
    ai_level: str | None = None,
) -> int:
    """Join a network game: a seat (window, --headless terminal, --ai computer) or --watch."""
    import ssl

    from ..net.client import AiPolicy, FatalClientError, SeatClient, TerminalPolicy

    if watch and (seat or token or ai):
        raise HexwarError("--watch joins as a spectator: leave out --seat, --token and --ai")
    if not watch and (seat is None or token is None):
        raise HexwarError("give --seat SIDE and --token TOKEN (from the host), or --watch")
    if ai_level is not None and not ai:
        raise HexwarError("--ai-level is for --ai (the computer plays the seat)")
    ctx = ssl.create_default_context(cafile=cafile) if cafile else None
    out = (lambda s: None) if as_json else (lambda s: click.echo(s))
    if not (headless or ai or watch):
        from ..net.window import run_window

        return run_window(url, seat, token, ssl_context=ctx, give_up=give_up, scenario_file=scenario_file)
    if ai and seat and player == "standard":  # issue 31: the level of the computer seat
        from .ai_level import parse_ai_level

        level = parse_ai_level(ai_level, (seat,), "normal")[seat]
        player = "standard" if level == "normal" else level
    policy = AiPolicy(seat, player, ai_seed) if ai and seat else TerminalPolicy(seat) if seat else None
    client = SeatClient(
        url,
        seat,
        token,
        watch=watch,
        policy=policy,
        out=out,
        give_up=give_up,
        ssl_context=ctx,
        scenario_file=scenario_file,
    )
    try:
        summary = asyncio.run(client.run())
    except FatalClientError as exc:
        raise HexwarError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo("stopped; join again with the same token to continue")
        return 0
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo("\n" + result_line(summary))
    return 0


def result_line(summary: dict[str, Any]) -> str:
    """The line ``hexwar join`` ends with (without ``--json``), as the same game's local
    terminal prints it: a hex or line game's ``Result:`` line
    (:meth:`hexwar.game.outcome.GameResult.summary`: a hold victory named as one, R10.2), a
    war's winner, ending and year (the campaign view's ``{winner, reason, turn}``), and the
    state hash only when the server sent one (it sends none of a game with hidden state, R12.1).

    Args:
        summary: :meth:`hexwar.net.client.SeatClient.run`'s ``{"result", "state_hash", ...}``;
            ``result`` is the view's: a ``GameResult`` dict, a war's dict or ``None``.

    Returns:
        one line, e.g. ``"Result: soviet wins by holding every objective at the end of turn 8
        (R10.2): german 12, soviet 30; objective points german 0, soviet 30"``.
    """
    from ..game.outcome import GameResult

    res = summary.get("result")
    text = ""
    if isinstance(res, dict):
        try:
            text = GameResult(
                res["winner"],
                str(res["reason"]),
                int(res["turn"]),
                dict(res["score"]),
                dict(res.get("objective_points") or {}),
            ).summary()
        except (KeyError, TypeError, ValueError):  # a war (no score) or another shape: its fields
            text = f"{res.get('winner') or 'draw'} ({res.get('reason')}) in turn {res.get('turn')}"
    elif res:  # a result this client reads nothing of: as sent
        text = str(res)
    else:
        text = "unfinished"
    h = summary.get("state_hash") or ""
    return f"Result: {text}" + (f"; state hash {h}" if h else "")
