"""Safe file reading and atomic writing for every hexwar file kind.

Files are written atomically: a temporary file in the same folder, flushed and fsynced, then
renamed over the target, so a crash leaves either the old file or the new one, never a torn
one. Reading refuses absurd sizes and never executes anything (JSON and TOML only).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from .errors import HexwarError, Problem, ValidationError

__all__ = ["MAX_FILE_BYTES", "atomic_write_text", "atomic_write_bytes", "read_json", "read_toml", "read_text"]

MAX_FILE_BYTES = 16 * 1024 * 1024  # no hexwar map, scenario or save is anywhere near this


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file, fsync, rename).

    Raises:
        HexwarError: naming the path when the folder is missing or not writable.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise HexwarError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        os.chmod(tmp, _mode_for(target))  # mkstemp makes 0o600; keep the file readable as open() would
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        try:
            dfd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise HexwarError(f"cannot write {target}: {exc.strerror or exc}") from None


def _mode_for(target: Path) -> int:
    """Permission bits for a file written over ``target``: the old file's, else 0o666 less the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically; see :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


def read_text(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file, refusing files over ``max_bytes``.

    Raises:
        ValidationError: one problem naming the file when it is missing, unreadable,
            too large or not UTF-8.
    """
    p = Path(path)
    try:
        st = p.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(st.st_mode):  # a named pipe or device would block or never end
            raise ValidationError([Problem(str(p), "", "is not a regular file")])
        size = st.st_size
        if size > max_bytes:
            raise ValidationError(
                [Problem(str(p), "", f"file is {size} bytes; at most {max_bytes} bytes expected")]
            )
        with p.open("rb") as fh:
            raw = fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise ValidationError([Problem(str(p), "", "file not found")]) from None
    except IsADirectoryError:
        raise ValidationError([Problem(str(p), "", "is a folder, expected a file")]) from None
    except OSError as exc:
        raise ValidationError([Problem(str(p), "", f"cannot read: {exc.strerror or exc}")]) from None
    if len(raw) > max_bytes:
        raise ValidationError([Problem(str(p), "", f"file exceeds {max_bytes} bytes")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError([Problem(str(p), "", f"not UTF-8 text (byte {exc.start})")]) from None


def read_json(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> Any:
    """Read and parse a JSON file (never executed).

    Raises:
        ValidationError: naming the file and the line/column of a syntax error.
    """
    text = read_text(path, max_bytes)
    if not text.strip():
        raise ValidationError([Problem(str(path), "", "file is empty; expected a JSON document")])
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            [Problem(str(path), f"line {exc.lineno} column {exc.colno}", f"bad JSON: {exc.msg}")]
        ) from None
    except RecursionError:
        raise ValidationError([Problem(str(path), "", "JSON nested too deeply")]) from None
    except ValueError as exc:  # an integer of over 4300 digits (int_max_str_digits)
        raise ValidationError([Problem(str(path), "", f"a number is too long: {_short(exc)}")]) from None


def read_toml(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """Read and parse a TOML file (never executed).

    Raises:
        ValidationError: naming the file and the TOML syntax error.
    """
    text = read_text(path, max_bytes)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError([Problem(str(path), "", f"bad TOML: {exc}")]) from None
    except RecursionError:
        raise ValidationError([Problem(str(path), "", "TOML nested too deeply")]) from None
    except ValueError as exc:  # an integer of over 4300 digits (int_max_str_digits)
        raise ValidationError([Problem(str(path), "", f"a number is too long: {_short(exc)}")]) from None


def _short(exc: Exception) -> str:
    """The first clause of an exception's message (Python's int-size message runs on)."""
    return str(exc).split(";")[0]


def dump_json(obj: Any) -> str:
    """Deterministic, readable JSON text (2-space indent, trailing newline)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
