"""Autosave and crash recovery for the editor.

While a document has unsaved changes, an :class:`Autosaver` writes a recovery file at most
once a ``interval`` (60 seconds by default; the clock is injectable so tests need not wait).
The file lives in the recovery folder (:func:`recovery_dir`), is written atomically, and is
removed when the document is saved, when its changes are undone back to the saved state, and
on a clean quit. After a crash the file stays; the next ``hexwar edit`` of the same document
(or of a new one, for untitled documents) finds it with :func:`find_recoveries` and offers it.

Recovery file (JSON)::

    {"format": "hexwar-editor-recovery", "schema_version": 1, "pid": 1234,
     "saved_at": "2026-11-30T10:41:07+00:00", "document_path": "/abs/maps/x.json" | null,
     "kind": "map" | "scenario", "map": {...hexwar-map...}, "scenario": {...} | null}

Loading a recovery file validates the map through :meth:`hexwar.model.maps.BattleMap.from_json`
like any map file; nothing in it is executed.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem, ValidationError
from ..fileio import atomic_write_text, dump_json, read_json
from ..model.maps import BattleMap
from .model import EditorDocument

__all__ = [
    "AUTOSAVE_SECONDS",
    "RECOVERY_FORMAT",
    "Autosaver",
    "Recovery",
    "find_recoveries",
    "recovery_dir",
]

RECOVERY_FORMAT = "hexwar-editor-recovery"
AUTOSAVE_SECONDS = 60.0
RECOVERY_ENV = "HEXWAR_RECOVERY_DIR"


def recovery_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The recovery folder: ``$HEXWAR_RECOVERY_DIR``, else the per-user state folder
    (:func:`hexwar.paths.user_state_dir`, platformdirs: ``$XDG_STATE_HOME/hexwar/recovery`` or
    ``~/.local/state/hexwar/recovery`` on Linux); created when first written."""
    env = os.environ if environ is None else environ
    if env.get(RECOVERY_ENV):
        return Path(env[RECOVERY_ENV])
    from ..paths import user_state_dir

    return user_state_dir("recovery")


def _doc_key(path: Path | None) -> str | None:
    if path is None:
        return None
    return hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


class Autosaver:
    """Keeps a recovery file for ``doc`` while it has unsaved changes.

    Args:
        doc: the document.
        clock: seconds, monotonic (injectable; default :func:`time.monotonic`).
        interval: seconds between autosaves (default 60).
        folder: the recovery folder (default :func:`recovery_dir`).
        wall_clock: seconds since the epoch, for the "saved at" shown to the user.
    """

    def __init__(
        self,
        doc: EditorDocument,
        clock: Callable[[], float] = time.monotonic,
        interval: float = AUTOSAVE_SECONDS,
        folder: str | os.PathLike[str] | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.doc = doc
        self.clock = clock
        self.wall_clock = wall_clock
        self.interval = float(interval)
        self.folder = Path(folder) if folder is not None else recovery_dir()
        self._last = clock()
        self._saved_revision = doc.revision
        self._token = f"{os.getpid()}-{time.time_ns()}"
        self._written: Path | None = None
        doc.add_save_hook(lambda _d: self.discard())

    @property
    def path(self) -> Path:
        """Where this document's recovery file goes (depends on the document's current path)."""
        key = _doc_key(self.doc.path)
        if key is None:
            return self.folder / f"untitled-{self._token}.recovery.json"
        assert self.doc.path is not None
        return self.folder / f"{self.doc.path.stem}-{key}.recovery.json"

    @property
    def written(self) -> Path | None:
        """The recovery file currently on disk, if any."""
        return self._written

    def tick(self) -> Path | None:
        """Autosave if the interval has passed and there are changes since the last one.

        Call it often (the window schedules it every second); returns the file written or
        ``None``. A clean document (saved, or undone back to its file) has its file removed.

        Raises:
            HexwarError: when the recovery folder cannot be written.
        """
        if not self.doc.dirty:
            if self._written is not None:
                self.discard()
            self._saved_revision = self.doc.revision
            return None
        if self.doc.revision == self._saved_revision:
            return None
        if self.clock() - self._last < self.interval:
            return None
        return self.write_now()

    def write_now(self) -> Path:
        """Write the recovery file now (atomically) and restart the interval."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path
        doc = self.doc
        data: dict[str, Any] = {
            "format": RECOVERY_FORMAT,
            "schema_version": 1,
            "pid": os.getpid(),
            "saved_at": _dt.datetime.fromtimestamp(self.wall_clock(), _dt.UTC).isoformat(timespec="seconds"),
            "document_path": str(doc.path.resolve()) if doc.path is not None else None,
            "kind": doc.kind,
            "map": doc.map.to_json(),
            "scenario": doc.scenario.to_json() if doc.scenario is not None else None,  # type: ignore[attr-defined]
        }
        atomic_write_text(target, dump_json(data))
        if self._written is not None and self._written != target:
            _unlink(self._written)
        self._written = target
        self._last = self.clock()
        self._saved_revision = doc.revision
        return target

    def discard(self) -> None:
        """Remove the recovery file (after a save or a clean quit)."""
        if self._written is not None:
            _unlink(self._written)
            self._written = None
        self._last = self.clock()
        self._saved_revision = self.doc.revision


def _unlink(p: Path) -> None:
    try:
        p.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:  # pragma: no cover - unusual permissions
        raise HexwarError(f"cannot remove recovery file {p}: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class Recovery:
    """A recovery file left by an editor that did not quit cleanly.

    Attributes:
        path: the recovery file.
        document_path: the document it belongs to (``None`` for an untitled one).
        saved_at: when it was written (ISO 8601 text, UTC).
        kind: ``"map"`` or ``"scenario"``.
    """

    path: Path
    document_path: Path | None
    saved_at: str
    kind: str

    def load(self) -> EditorDocument:
        """The document as autosaved: dirty, with its original path (Save overwrites it).

        Raises:
            ValidationError: when the recovery file is broken.
        """
        data = read_json(self.path, kind="hexwar-editor-recovery")
        m = BattleMap.from_json(data.get("map"), str(self.path))
        sc = None
        if data.get("scenario") is not None:
            from .scenario_draft import ScenarioDraft

            try:
                sc = ScenarioDraft.from_json(data["scenario"])
            except (KeyError, TypeError, AttributeError) as exc:
                raise ValidationError(
                    [Problem(str(self.path), "scenario", f"broken scenario data: {exc}")]
                ) from None
        doc = EditorDocument(m, path=self.document_path, scenario=sc)
        doc.stack._clean = None  # unsaved changes
        return doc

    def discard(self) -> None:
        """Delete the recovery file (the user declined it)."""
        _unlink(self.path)


def find_recoveries(
    document_path: str | os.PathLike[str] | None, folder: str | os.PathLike[str] | None = None
) -> list[Recovery]:
    """Recovery files for ``document_path`` (or, with ``None``, for untitled documents) whose
    editor is no longer running, newest first. Broken files are skipped."""
    d = Path(folder) if folder is not None else recovery_dir()
    if not d.is_dir():
        return []
    want = str(Path(document_path).resolve()) if document_path is not None else None
    out: list[tuple[float, Recovery]] = []
    for p in d.glob("*.recovery.json"):
        try:
            data = read_json(p, kind="hexwar-editor-recovery")
        except ValidationError:
            continue
        if not isinstance(data, dict) or data.get("format") != RECOVERY_FORMAT:
            continue
        if data.get("document_path") != want:
            continue
        pid = data.get("pid")
        if isinstance(pid, int) and _pid_alive(pid):
            continue
        dp = data.get("document_path")
        out.append(
            (
                p.stat().st_mtime,
                Recovery(
                    p, Path(dp) if dp else None, str(data.get("saved_at", "")), str(data.get("kind", "map"))
                ),
            )
        )
    out.sort(key=lambda x: -x[0])
    return [r for _, r in out]
