"""Safe file reading and atomic writing for every hexwar file kind.

Files are written atomically: a temporary file in the same folder, flushed and fsynced, then
renamed over the target, so a crash leaves either the old file or the new one, never a torn
one. Reading refuses absurd sizes and never executes anything (JSON and TOML only).

* **One set of size limits** (:data:`LIMITS`), one per file kind; every refusal names the
  limit that applied ("the save file limit is 32 MB").
* **Duplicate JSON keys** are refused in every JSON file kind (maps, saves, recovery files):
  ``{"seed": 1, "seed": 2}`` is ambiguous, so it is an error naming the key.
* **Advisory locks** (:class:`FileLock`, ``fcntl.flock`` on ``.NAME.lock`` beside the target):
  a writer holds the target's lock while it writes, a game holds its save's lock for the whole
  session, so a second process saving to the same file waits briefly and then refuses with a
  clear message instead of silently overwriting another game.
* **No litter:** a crash (kill -9) mid-write can leave this program's ``.NAME.XXXXXXXX.tmp``
  file; the next write of NAME removes them (under the lock, so none is in use).
* **Pairs of files** (:func:`atomic_write_group`: the editor's map + scenario) are made
  crash-consistent with a small journal (``.NAME.pair`` beside each member) written after every
  new file is complete and before the first rename; whoever next reads or writes a member
  finishes the renames (:func:`recover_group`), so a crash at any point gives the old pair or the
  new pair, never a new map with an old scenario.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import stat
import tempfile
import time
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import HexwarError, Problem, ValidationError

try:  # POSIX advisory locks; elsewhere writes are atomic but unlocked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "LIMITS",
    "MAX_FILE_BYTES",
    "FileLock",
    "atomic_write_text",
    "atomic_write_bytes",
    "atomic_write_group",
    "recover_group",
    "tidy",
    "read_json",
    "read_toml",
    "read_text",
    "loads_json",
    "loads_toml",
    "sniff_kind",
    "limit_for",
    "dump_json",
]

_MB = 1024 * 1024
# The one set of size limits (issue 13 item 7): kind -> (bytes, name used in messages).
LIMITS: dict[str, tuple[int, str]] = {
    "hexwar-map": (8 * _MB, "map file"),
    "hexwar-scenario": (1 * _MB, "scenario file"),
    "hexwar-save": (64 * _MB, "save file"),
    "hexwar-cards": (2 * _MB, "card file"),
    "hexwar-editor-recovery": (12 * _MB, "editor recovery file"),
    "hexwar-deck": (256 * 1024, "deck file"),  # issue 33: checked before parsing, as the loader does
    "hexwar-campaign-save": (16 * _MB, "campaign save file"),
    "data": (2 * _MB, "data file"),
}
MAX_FILE_BYTES = max(b for b, _ in LIMITS.values())  # the largest of any kind (a save)
LOCK_WAIT_SECONDS = 2.0  # how long a second writer waits for a lock before refusing
_TMP_RE = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")  # tempfile.mkstemp's names


def limit_for(kind: str | None) -> tuple[int, str]:
    """``(bytes, name)`` of the size limit for a file ``kind`` (:data:`LIMITS`), or the largest
    limit (``"hexwar file"``) for ``None`` or an unknown kind."""
    if kind in LIMITS:
        return LIMITS[kind]  # type: ignore[index]
    return MAX_FILE_BYTES, "hexwar file"


def _mb(n: int) -> str:
    if n % _MB == 0:
        return f"{n // _MB} MB"
    return f"{n // 1024} KB" if n % 1024 == 0 else f"{n} bytes"


# -- locks -------------------------------------------------------------------------------------
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX; Windows has no symlinked lock files to fear
_HELD: dict[str, list[Any]] = {}  # resolved target -> [lock fd, lock path, count] of this process


class FileLock:
    """An exclusive advisory lock on ``target`` (``fcntl.flock`` on ``.NAME.lock`` beside it).

    Re-entrant within one process. A second process waits up to ``timeout`` seconds and then
    gets a :class:`~hexwar.errors.HexwarError` naming the file and the holder's pid. The lock
    file is removed on release (acquirers check that the file they locked is still the one at
    that path, so removing it is safe).

    Args:
        target: the file to protect (it need not exist).
        timeout: seconds to wait for another holder (default :data:`LOCK_WAIT_SECONDS`).
        what: how the refusal describes the holder's activity (``"written"``).
    """

    def __init__(self, target: str | os.PathLike[str], timeout: float | None = None, what: str = "written"):
        self.target = Path(target)
        self.timeout = LOCK_WAIT_SECONDS if timeout is None else timeout
        self.what = what
        self.key = str(Path(os.path.abspath(self.target)))
        folder = self.target.parent if str(self.target.parent) else Path(".")
        self.lock_path = folder / f".{self.target.name}.lock"
        self._mine = False

    def acquire(self) -> FileLock:
        """Take the lock (see the class docstring).

        Raises:
            HexwarError: when another process holds it for longer than the timeout, or the
                folder does not allow creating the lock file.
        """
        if fcntl is None:
            return self
        held = _HELD.get(self.key)
        if held is not None:
            held[2] += 1
            self._mine = True
            return self
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                # O_NOFOLLOW: a symlink planted at .NAME.lock (a shared folder such as /tmp) must
                # not make hexwar open, truncate and write the file it points to (issue 33)
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o644)
            except OSError as exc:
                if os.path.islink(self.lock_path):
                    raise HexwarError(
                        f"cannot write {self.target}: its lock file {self.lock_path.name} is a symbolic "
                        "link (refused: remove it if you did not make it)"
                    ) from None
                raise HexwarError(f"cannot write {self.target}: {exc.strerror or exc}") from None
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a fifo or device planted there
                os.close(fd)
                raise HexwarError(
                    f"cannot write {self.target}: its lock file {self.lock_path.name} is not a regular file"
                )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise HexwarError(
                        f"{self.target} is being {self.what} by another hexwar process{self._holder()}; "
                        f"waited {self.timeout:g} s. Close the other game or choose another file name."
                    ) from None
                time.sleep(0.05)
                continue
            try:
                same = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # the previous holder removed it between our open and flock: retry
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
            _HELD[self.key] = [fd, self.lock_path, 1]
            self._mine = True
            return self

    def _holder(self) -> str:
        try:
            pid = self.lock_path.read_text(encoding="ascii").strip()[:12]
        except (OSError, UnicodeDecodeError):
            return ""
        return f" (pid {pid})" if pid.isdigit() else ""

    def release(self) -> None:
        """Release the lock (the last release of this process removes the lock file)."""
        if not self._mine:
            return
        self._mine = False
        held = _HELD.get(self.key)
        if held is None:
            return
        held[2] -= 1
        if held[2] > 0:
            return
        del _HELD[self.key]
        try:
            os.unlink(held[1])
        except OSError:
            pass
        os.close(held[0])

    def __enter__(self) -> FileLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


# -- writing -----------------------------------------------------------------------------------
def _folder(target: Path) -> Path:
    return target.parent if str(target.parent) else Path(".")


def _remove_stale_temps(target: Path) -> None:
    """Remove this program's leftover ``.NAME.XXXXXXXX.tmp`` files for ``target`` (call under
    the target's lock: every writer takes it, so none of them is in use)."""
    folder = _folder(target)
    prefix = f".{target.name}."
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for n in names:
        if n.startswith(prefix) and n.endswith(".tmp"):
            m = _TMP_RE.match(n)
            if m and m.group("name") == target.name:
                try:
                    os.unlink(folder / n)
                except OSError:
                    pass


def _fsync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def _write_temp(target: Path, data: bytes) -> str:
    """A complete, fsynced temporary copy of ``data`` beside ``target``; returns its path."""
    folder = _folder(target)
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
    except OSError as exc:
        _unlink(tmp)
        raise HexwarError(f"cannot write {target}: {exc.strerror or exc}") from None
    return tmp


def _unlink(p: str | Path) -> None:
    try:
        os.unlink(p)
    except OSError:
        pass


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file, fsync, rename), under the target's
    :class:`FileLock`, removing this program's stale temp files for it first.

    Raises:
        HexwarError: naming the path when the folder is missing or not writable, or another
            process holds the file's lock.
    """
    target = Path(path)
    with FileLock(target):
        recover_group(target)
        _remove_stale_temps(target)
        _remove_stale_temps(_journal_path(target))
        tmp = _write_temp(target, data)
        try:
            os.replace(tmp, target)
        except OSError as exc:
            _unlink(tmp)
            raise HexwarError(f"cannot write {target}: {exc.strerror or exc}") from None
        _fsync_dir(_folder(target))


def _journal_path(target: Path) -> Path:
    return _folder(target) / f".{target.name}.pair"


def atomic_write_group(files: Iterable[tuple[str | os.PathLike[str], str]]) -> None:
    """Write several text files so that a crash at any point leaves all old or all new.

    Every new file is written completely to a temp file first; then a journal naming the
    (temp, target) pairs is written atomically beside each target; then the temps are renamed
    over the targets and the journals removed. A reader or writer that finds a journal
    finishes the renames first (:func:`recover_group`).

    Args:
        files: ``(path, text)`` pairs (UTF-8).

    Raises:
        HexwarError: naming a path that cannot be written or is locked by another process.
    """
    items = [(Path(p), t.encode("utf-8")) for p, t in files]
    if len(items) == 1:
        atomic_write_bytes(items[0][0], items[0][1])
        return
    locks = [FileLock(p) for p, _ in sorted(items, key=lambda x: os.path.abspath(x[0]))]
    taken: list[FileLock] = []
    try:
        for lk in locks:
            taken.append(lk.acquire())
        for p, _ in items:
            recover_group(p)
            _remove_stale_temps(p)
            _remove_stale_temps(_journal_path(p))
        temps: list[tuple[str, Path]] = []
        try:
            for p, data in items:
                temps.append((_write_temp(p, data), p))
        except HexwarError:
            for t, _ in temps:
                _unlink(t)
            raise
        journal = dump_json(
            {
                "format": "hexwar-write-journal",
                "files": [[os.path.abspath(t), os.path.abspath(p)] for t, p in temps],
            }
        ).encode()
        journals = []
        for _, p in temps:
            jp = _journal_path(p)
            jt = _write_temp(jp, journal)
            os.replace(jt, jp)
            _fsync_dir(_folder(p))
            journals.append(jp)
        for t, p in temps:
            try:
                os.replace(t, p)
            except FileNotFoundError:  # a reader already finished this rename
                pass
            except OSError as exc:
                raise HexwarError(f"cannot write {p}: {exc.strerror or exc}") from None
        for _, p in temps:
            _fsync_dir(_folder(p))
        for jp in reversed(journals):
            _unlink(jp)
            _fsync_dir(_folder(jp))
    finally:
        for lk in reversed(taken):
            lk.release()


def tidy(path: str | os.PathLike[str]) -> None:
    """Clear what a writer killed while writing ``path`` left beside it, without writing it:
    finish an interrupted group (:func:`recover_group`), remove this program's stale temp files
    of it and of its journal, and (taking and releasing its lock) its stale lock file. For a
    member of a pair that a save leaves unchanged (the editor's map when only the scenario
    changed), so no litter outlives the next save (issue 33).

    Raises:
        HexwarError: when another process holds the file's lock.
    """
    target = Path(path)
    with FileLock(target):
        recover_group(target)
        _remove_stale_temps(target)
        _remove_stale_temps(_journal_path(target))


def recover_group(path: str | os.PathLike[str]) -> bool:
    """Finish an interrupted :func:`atomic_write_group` that ``path`` belongs to.

    Only renames the journal's own temp files (``.NAME.XXXXXXXX.tmp`` beside their target);
    a journal naming anything else is ignored and removed. Returns whether a journal was found.
    """
    target = Path(path)
    jp = _journal_path(target)
    if not jp.is_file():
        return False
    try:
        data = loads_json(jp.read_text(encoding="utf-8"), str(jp))
        pairs = data["files"]
        ok = isinstance(pairs, list) and all(isinstance(x, list) and len(x) == 2 for x in pairs)
    except (OSError, UnicodeDecodeError, ValidationError, KeyError, TypeError):
        ok, pairs = False, []
    if ok:
        for tmp, dst in pairs:
            t, d = Path(str(tmp)), Path(str(dst))
            m = _TMP_RE.match(t.name)
            if not (m and m.group("name") == d.name and t.parent == d.parent):
                ok = False
        if ok:
            for tmp, dst in pairs:
                try:
                    os.replace(tmp, dst)
                except OSError:  # already renamed by the writer or another reader
                    pass
            for _, dst in pairs:
                _fsync_dir(_folder(Path(dst)))
            for _, dst in reversed(pairs):
                _unlink(_journal_path(Path(dst)))
    if not ok:
        _unlink(jp)
    return True


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


# -- reading -----------------------------------------------------------------------------------
def read_text(path: str | os.PathLike[str], max_bytes: int | None = None, kind: str | None = None) -> str:
    """Read a UTF-8 text file, refusing files over the size limit of ``kind`` (:data:`LIMITS`).

    Args:
        path: the file.
        max_bytes: an explicit limit in bytes (overrides ``kind``'s).
        kind: the file kind whose limit applies (``"hexwar-save"`` ...); default the largest.

    Raises:
        ValidationError: one problem naming the file when it is missing, unreadable,
            too large (naming the limit that applied) or not UTF-8.
    """
    p = Path(path)
    limit, lname = limit_for(kind)
    if max_bytes is not None:
        limit = max_bytes
    try:
        st = p.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(st.st_mode):  # a named pipe or device would block or never end
            raise ValidationError([Problem(str(p), "", "is not a regular file")])
        size = st.st_size
        if size > limit:
            raise ValidationError(
                [Problem(str(p), "", f"file is {size:,} bytes; the {lname} limit is {_mb(limit)}")]
            )
        with p.open("rb") as fh:
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise ValidationError([Problem(str(p), "", "file not found")]) from None
    except IsADirectoryError:
        raise ValidationError([Problem(str(p), "", "is a folder, expected a file")]) from None
    except OSError as exc:
        raise ValidationError([Problem(str(p), "", f"cannot read: {exc.strerror or exc}")]) from None
    if len(raw) > limit:
        raise ValidationError([Problem(str(p), "", f"file grew past the {lname} limit of {_mb(limit)}")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError([Problem(str(p), "", f"not UTF-8 text (byte {exc.start})")]) from None


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lone_surrogate(text: str) -> int | None:
    """Where (index) ``text``, valid JSON, writes the first ``\\uD800``-``\\uDFFF`` escape that is
    not half of a high-low pair, or ``None``. JSON's grammar allows one, but it decodes to no
    character: a model reads it as a broken string and names the wrong field (R12.5 refuses
    it on the network the same way)."""
    skip = -1
    for m in _SURROGATE_ESCAPE.finditer(text):
        i = m.start()
        if i < skip:
            continue
        n = 0
        while i - 1 - n >= 0 and text[i - 1 - n] == "\\":
            n += 1
        if n % 2:  # "\\\\ud800": an escaped backslash, then plain letters
            continue
        if int(m.group()[2:], 16) <= 0xDBFF and _SURROGATE_ESCAPE.match(text, m.end()):
            low = int(text[m.end() + 2 : m.end() + 6], 16)
            if low >= 0xDC00:
                skip = m.end() + 6
                continue
        return i
    return None


def loads_json(text: str, src: str = "<memory>") -> Any:
    """Parse JSON ``text`` (never executed), refusing duplicate keys in any object.

    Raises:
        ValidationError: naming ``src`` and the line/column of a syntax error (saying so
            when the text ends before its JSON does: a file cut short), or the duplicated key
            (cut to 80 characters).
    """
    from .errors import clip

    if not text.strip():
        raise ValidationError([Problem(src, "", "file is empty; expected a JSON document")])
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
        at = _lone_surrogate(text) if _SURROGATE_ESCAPE.search(text) else None
        if at is not None:
            line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
            raise ValidationError(
                [
                    Problem(
                        src,
                        f"line {line} column {col}",
                        f"bad JSON: {text[at : at + 6]} is half of a UTF-16 surrogate pair without the "
                        "other half: no character (a file of text cannot hold it)",
                    )
                ]
            )
        return data
    except _DuplicateKey as exc:
        raise ValidationError(
            [
                Problem(
                    src, "", f"duplicate key {clip(exc.args[0])} in one JSON object: each key may appear once"
                )
            ]
        ) from None
    except json.JSONDecodeError as exc:
        # json's "Unterminated string starting at" names the place in lineno/colno, not in msg
        msg = exc.msg.removesuffix(" starting at").removesuffix(" at")
        if msg == "Unterminated string" or exc.pos >= len(text.rstrip()):
            msg += "; the file ends before its JSON does (cut short?)"  # a truncated save (fresh7)
        raise ValidationError(
            [Problem(src, f"line {exc.lineno} column {exc.colno}", f"bad JSON: {msg}")]
        ) from None
    except RecursionError:
        raise ValidationError([Problem(src, "", "JSON nested too deeply")]) from None
    except ValueError as exc:  # an integer of over 4300 digits (int_max_str_digits)
        raise ValidationError([Problem(src, "", f"a number is too long: {_short(exc)}")]) from None


def read_json(path: str | os.PathLike[str], max_bytes: int | None = None, kind: str | None = None) -> Any:
    """Read and parse a JSON file (never executed; duplicate keys refused, :func:`loads_json`).

    Args:
        path: the file.
        max_bytes: an explicit size limit (overrides ``kind``'s).
        kind: the file kind whose size limit applies (:data:`LIMITS`).

    Raises:
        ValidationError: naming the file and the line/column of a syntax error.
    """
    return loads_json(read_text(path, max_bytes, kind), str(path))


def read_toml(
    path: str | os.PathLike[str], max_bytes: int | None = None, kind: str | None = "data"
) -> dict[str, Any]:
    """Read and parse a TOML file (never executed; TOML itself refuses duplicate keys).

    Raises:
        ValidationError: naming the file and the TOML syntax error.
    """
    return loads_toml(read_text(path, max_bytes, kind), str(path))


def loads_toml(text: str, src: str = "<memory>") -> dict[str, Any]:
    """Parse TOML ``text`` (never executed; TOML itself refuses duplicate keys).

    Raises:
        ValidationError: naming ``src`` and the TOML syntax error, a nesting too deep for the
            parser or a number of over 4300 digits.
    """
    try:
        data = tomllib.loads(text)
        if _DATE_OR_TIME.search(text):  # else the text holds no TOML date or time at all
            _no_datetimes(data, src)
        return data
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError([Problem(src, "", f"bad TOML: {exc}")]) from None
    except RecursionError:
        raise ValidationError([Problem(src, "", "TOML nested too deeply")]) from None
    except ValueError as exc:  # an integer of over 4300 digits (int_max_str_digits)
        raise ValidationError([Problem(src, "", f"a number is too long: {_short(exc)}")]) from None


#: What every TOML date or time has (``1979-05-27``, ``07:32:00``): a text without it holds none,
#: so :func:`loads_toml` skips the walk (issue 35: the card files are read at every start).
_DATE_OR_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{2}:[0-9]{2}")


def _no_datetimes(data: Any, src: str, where: str = "") -> None:
    """Refuse TOML dates and times: no hexwar file kind has one, and every later check (and
    the messages quoting values as JSON) expects text, numbers, booleans, lists and tables.

    Raises:
        ValidationError: naming ``src`` and the field (``scenario.turns``).
    """
    if isinstance(data, dict):
        for k, v in data.items():
            _no_datetimes(v, src, f"{where}.{k}" if where else str(k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _no_datetimes(v, src, f"{where}[{i}]")
    elif isinstance(data, (datetime.date, datetime.time)):  # datetime is a date
        raise ValidationError(
            [
                Problem(
                    src,
                    where,
                    "a TOML date or time is not allowed here; expected text, a number, a list or a table",
                )
            ]
        )


_FORMAT_RE = re.compile(r'"format"\s*:\s*"([A-Za-z0-9_-]{1,40})"')
_TOML_FORMAT_RE = re.compile(r'(?m)^\s*format\s*=\s*"([A-Za-z0-9_-]{1,40})"')


def sniff_kind(path: str | os.PathLike[str]) -> str | None:
    """The file kind named near the top of a file (its ``format`` field, or ``[scenario]`` in
    TOML), read from the first 64 KB only, so the right size limit can be applied before the
    whole file is read. ``None`` when it cannot tell (the full read then decides)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return None
    is_toml = str(path).lower().endswith(".toml")
    m = (_TOML_FORMAT_RE if is_toml else _FORMAT_RE).search(head)
    if m:
        return m.group(1)
    if is_toml and re.search(r"(?m)^\s*\[scenario\]", head):
        return "hexwar-scenario"
    return None


def _short(exc: Exception) -> str:
    """The first clause of an exception's message (Python's int-size message runs on)."""
    return str(exc).split(";")[0]


def dump_json(obj: Any) -> str:
    """Deterministic, readable JSON text (2-space indent, trailing newline)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
