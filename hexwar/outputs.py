"""Output files (``--csv``, ``--png``, ``--out``) never replace a file hexwar did not write.

Every output a command writes is recorded (path and SHA-256) in ``outputs.json`` in hexwar's
user state folder (``platformdirs.user_state_path("hexwar")``, e.g.
``~/.local/state/hexwar``). Before a command runs, :func:`check_outputs` refuses an existing
output path unless hexwar wrote exactly that file there (an earlier run's CSV or PNG) or the
user gave ``--force`` (issue 13 item 9).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .errors import HexwarError, clip
from .fileio import FileLock, atomic_write_text, dump_json, read_json

__all__ = ["check_outputs", "record_output", "registry_path", "MAX_RECORDS"]

MAX_RECORDS = 2000  # the oldest records are dropped beyond this


def registry_path() -> Path:
    """The record of written outputs (``outputs.json`` in the user state folder)."""
    import platformdirs

    return Path(platformdirs.user_state_path("hexwar")) / "outputs.json"


def _digest(p: Path) -> str | None:
    h = hashlib.sha256()
    try:
        with p.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def _records() -> dict[str, str]:
    reg = registry_path()
    if not reg.is_file():
        return {}
    try:
        data = read_json(reg, kind="data")
    except HexwarError:
        return {}
    recs = data.get("outputs") if isinstance(data, dict) else None
    if not isinstance(recs, dict):
        return {}
    return {str(k): str(v) for k, v in recs.items() if isinstance(v, str)}


def check_outputs(force: bool, **paths: str | None) -> None:
    """Refuse before any work when an output path holds a file hexwar did not write there.

    Args:
        force: ``--force`` was given (replace anything).
        paths: option name (``csv``, ``png``, ``out``) -> path, or ``None`` when not given.

    Raises:
        HexwarError: naming the option and the file, and suggesting ``--force``.
    """
    recs: dict[str, str] | None = None
    for opt, p in paths.items():
        if p is None:
            continue
        path = Path(p)
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise HexwarError(f"cannot write {clip(p, quote=False)}: the folder {folder} does not exist")
        if path.is_dir():
            raise HexwarError(f"--{opt} {clip(p, quote=False)}: is a folder, expected a file name")
        if force or not path.exists():
            continue
        if recs is None:
            recs = _records()
        if recs.get(os.path.abspath(path)) != _digest(path):
            raise HexwarError(
                f"--{opt} {clip(p, quote=False)}: the file exists and was not written by hexwar (or was "
                "changed since); refusing to overwrite it. Choose another name or add --force."
            )


def record_output(path: str | os.PathLike[str]) -> None:
    """Record that hexwar just wrote ``path`` (so a later run may replace it). Never fails:
    a state folder that cannot be written only means the next run asks for ``--force``."""
    p = Path(path)
    digest = _digest(p)
    if digest is None:
        return
    reg = registry_path()
    try:
        reg.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(reg):
            recs = _records()
            recs.pop(os.path.abspath(p), None)
            recs[os.path.abspath(p)] = digest
            if len(recs) > MAX_RECORDS:
                recs = dict(list(recs.items())[-MAX_RECORDS:])
            atomic_write_text(reg, dump_json({"format": "hexwar-outputs", "outputs": recs}))
    except (OSError, HexwarError):
        pass
