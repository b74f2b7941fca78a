"""Where the shipped maps, scenarios and assets live, for source checkouts and installs.

In a source checkout (or an editable install) they are the top-level ``maps/``,
``scenarios/``, ``assets/`` and ``decks/`` folders next to the package. A regular ``pip install .``
copies them to ``<prefix>/share/hexwar/`` (pyproject ``data-files``).
"""

from __future__ import annotations

import sys
import sysconfig
from functools import cache
from pathlib import Path

__all__ = ["content_dir", "find_content", "shipped_folder_of", "user_state_dir"]

_KINDS = ("maps", "scenarios", "assets", "decks")


def _candidates(kind: str) -> list[Path]:
    """The folders where shipped ``kind`` may be, in order (a new list each call)."""
    return list(_candidate_tuple(kind))


@cache
def _candidate_tuple(kind: str) -> tuple[Path, ...]:
    # the install scheme and the package's place do not change in a process: asked once a kind
    # (sysconfig's paths cost about 0.3 ms a call, and a game's start asks several times)
    here = Path(__file__).resolve().parent
    out = [here.parent / kind]
    for scheme in (None, "posix_user", "nt_user", "osx_framework_user"):
        try:
            data = sysconfig.get_path("data", scheme) if scheme else sysconfig.get_path("data")
        except KeyError:
            continue
        if data:
            out.append(Path(data) / "share" / "hexwar" / kind)
    out.append(Path(sys.prefix) / "share" / "hexwar" / kind)
    return tuple(out)


def content_dir(kind: str) -> Path:
    """The folder of shipped ``kind`` (``"maps"``, ``"scenarios"``, ``"assets"`` or ``"decks"``).

    Raises:
        ValueError: for another kind.
        FileNotFoundError: when no such folder is installed.
    """
    if kind not in _KINDS:
        raise ValueError(f"content kind must be one of {_KINDS}, got {kind!r}")
    for c in _candidates(kind):
        if c.is_dir() and any(c.iterdir()):
            return c
    raise FileNotFoundError(
        f"hexwar's shipped {kind}/ folder was not found (looked in "
        + ", ".join(str(c) for c in _candidates(kind))
        + ")"
    )


def find_content(kind: str, name: str) -> Path | None:
    """Resolve ``name`` (a path, or a bare shipped file name with or without suffix).

    Returns the existing path, or ``None`` when nothing matches.
    """
    p = Path(name)
    if p.exists():
        return p
    try:
        d = content_dir(kind)
    except FileNotFoundError:
        return None
    for cand in (d / name, d / f"{name}.json", d / f"{name}.toml"):
        if cand.is_file():
            return cand
    return None


def user_state_dir(sub: str) -> Path:
    """A per-user folder for hexwar's own state files (``sub``: ``"recovery"``, ``"autosave"``),
    where the platform keeps application state (platformdirs: ``$XDG_STATE_HOME/hexwar/<sub>``
    or ``~/.local/state/hexwar/<sub>`` on Linux, ``~/Library/Application Support/hexwar/<sub>``
    on macOS, ``%LOCALAPPDATA%\\hexwar\\<sub>`` on Windows). Not created here: writers create
    it on first write."""
    import platformdirs

    return Path(platformdirs.user_state_path("hexwar", appauthor=False)) / sub


def shipped_folder_of(path: str | Path, cwd: Path | None = None) -> str | None:
    """The kind (``"maps"``, ``"scenarios"``, ``"decks"``) of hexwar's shipped folder holding
    ``path``, or ``None``: not in one, or that folder lies inside the working folder ``cwd``
    (default :func:`Path.cwd`; a source checkout worked on from its root edits its own files).

    The editor refuses to write there otherwise (fresh7: ``hexwar edit kharkov`` then Ctrl+S
    from any folder rewrote the shipped map that every Kharkov scenario plays on).

    >>> shipped_folder_of("/nowhere/kharkov.json") is None
    True
    """
    p = Path(path).resolve()
    here = (cwd if cwd is not None else Path.cwd()).resolve()
    for kind in ("maps", "scenarios", "decks"):
        for folder in _candidates(kind):
            f = folder.resolve()
            if p.is_relative_to(f) and not f.is_relative_to(here):
                return kind
    return None
