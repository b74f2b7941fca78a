"""The ``hexwar`` command line: ``hexwar play | campaign | edit | sim | los | odds | render | validate | info | replay | selftest | balance``,
``import | export | schema | migrate``.

Subcommands live in their own modules and are imported only when used (so ``hexwar info``
never loads pyglet). Every user error is printed as one clear message and exit status 2;
nothing reaches the user as a traceback.
"""

from __future__ import annotations

import errno
import importlib
import io
import json
import sys
from typing import Any

import click

from ..errors import HexwarError, printable

__all__ = ["main", "cli", "SafeText"]

# name -> "module:attribute" of a click command; imported lazily.
COMMANDS: dict[str, str] = {
    "info": "hexwar.cli.basic:info",
    "validate": "hexwar.cli.basic:validate",
    "play": "hexwar.cli.game:play",
    "replay": "hexwar.cli.game:replay",
    "edit": "hexwar.cli.edit:edit",
    "render": "hexwar.cli.render:render",
    "sim": "hexwar.cli.sim:sim",
    "los": "hexwar.cli.los:los",
    "odds": "hexwar.cli.odds:odds",
    "cards": "hexwar.cli.cards:cards",
    "serve": "hexwar.cli.net:serve",
    "join": "hexwar.cli.net:join",
    "lines": "hexwar.cli.lines:lines",
    "balance": "hexwar.cli.balance:balance",
    "campaign": "hexwar.cli.campaign:campaign",
    "selftest": "hexwar.cli.selftest:selftest",
    "import": "hexwar.cli.formats:import_group",
    "export": "hexwar.cli.formats:export_group",
    "schema": "hexwar.cli.formats:schema",
    "migrate": "hexwar.cli.formats:migrate",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every registered subcommand name, sorted."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """Import and return the subcommand ``name``, or ``None`` when unknown."""
        target = COMMANDS.get(name)
        if target is None:
            return None
        mod, attr = target.split(":")
        return getattr(importlib.import_module(mod), attr)  # type: ignore[no-any-return]


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hexwar")
def cli() -> None:
    """hexwar: 1943 Eastern Front hex wargame (Spearpoint combat, CoH wrecks, artillery, fire)."""


def echo_json(obj: Any) -> None:
    """Print ``obj`` as indented JSON on stdout."""
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


class SafeText(io.TextIOBase):
    """A text stream that passes everything written through :func:`hexwar.errors.printable`
    (issue 33): strings from files and sockets reach the terminal with their control
    characters escaped, whichever command prints them.

    It deliberately has no ``buffer``, so click writes through it rather than around it.

    Args:
        inner: the stream written to (``sys.stdout`` or ``sys.stderr``).
        keep_cr: keep carriage returns (stderr: progress bars redraw with them).
    """

    def __init__(self, inner: Any, keep_cr: bool = False):
        super().__init__()
        self.inner = inner
        self.keep_cr = keep_cr

    def write(self, s: str) -> int:  # noqa: D102 - io.TextIOBase
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self.inner.write(printable(s, self.keep_cr))
        return len(s)

    def flush(self) -> None:  # noqa: D102
        self.inner.flush()

    def isatty(self) -> bool:  # noqa: D102
        return bool(self.inner.isatty())

    def fileno(self) -> int:  # noqa: D102
        return int(self.inner.fileno())

    def writable(self) -> bool:  # noqa: D102
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]  # noqa: D102
        return getattr(self.inner, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]  # noqa: D102
        return getattr(self.inner, "errors", None) or "strict"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hexwar`` console script; returns the exit status.

    User errors (:class:`~hexwar.errors.HexwarError`, values click's parameter types refuse,
    and a file name the file system refuses as too long) print one message to stderr and give
    status 2; Ctrl+C gives 130. Everything
    printed goes through :class:`SafeText` (control characters escaped, issue 33).
    """
    out, err = sys.stdout, sys.stderr
    wrap = not isinstance(out, SafeText) and out is not None and err is not None
    if wrap:
        sys.stdout, sys.stderr = SafeText(out), SafeText(err, keep_cr=True)
    try:
        return _main(argv)
    finally:
        if wrap:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None) -> int:
    try:
        rv = cli.main(args=argv, prog_name="hexwar", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.BadParameter as exc:  # click's types (IntRange, Choice, Path ...): one sentence
        click.echo(f"hexwar: {exc.format_message()}", err=True)
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except HexwarError as exc:
        click.echo(f"hexwar: {exc}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 1
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        # a file name the person gave that the file system refuses (a name part over 255
        # bytes): every command's stat() of it, one sentence rather than a traceback
        from ..errors import clip

        name = clip(str(exc.filename)) if exc.filename is not None else "a file name given"
        click.echo(f"hexwar: {name}: cannot be used as a file name ({exc.strerror})", err=True)
        return 2
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
