"""The editor window's prompts and file handling: the Save As, scenario field and card picker
dialogs (toolkit dialogs), the help overlay switch, saving, the quit question and the recovery
prompt (restore or discard an autosave).

A mixin of :class:`hexwar.editor.window.EditorWindow`: every change to the document still goes
through :class:`~hexwar.editor.session.EditorSession`; refusals are shown in the status bar.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..render import backend

backend.ensure_configured()

import pyglet  # noqa: E402

from ..errors import HexwarError, ValidationError  # noqa: E402
from ..paths import shipped_folder_of  # noqa: E402
from ..ui.widgets import TextField  # noqa: E402
from .model import EditorDocument  # noqa: E402
from .palette import terrain_entries, wreck_entries  # noqa: E402
from .recovery import Autosaver  # noqa: E402
from .session import EditorSession  # noqa: E402

__all__ = ["EditorPromptsMixin"]


class EditorPromptsMixin:
    """The prompt and file half of :class:`~hexwar.editor.window.EditorWindow` (see module doc)."""

    session: Any
    doc: Any
    autosaver: Any
    behaviour: Any
    looks: Any
    palette: Any
    wrecks: Any
    palette_kind: str
    modal: str | None
    tab: str
    show_help: bool
    quit_requested: bool
    recoveries: list[Any]
    ui_screen: Any
    _field: TextField
    _typed: Any
    _ui_key: Any
    _dialog_kind: str | None
    _form_dialog: Any
    _after: Any
    fit_map: Any
    get_size: Any
    labels_too_small: Any
    _make_dialog: Any
    tick: Any
    close: Any

    @property
    def modal_text(self) -> str:
        """The Save As prompt's text (its :class:`~hexwar.ui.widgets.TextField`)."""
        return self._field.text

    @modal_text.setter
    def modal_text(self, text: str) -> None:
        self._field.text = text
        self._field.caret = len(text)

    def _field_initial(self, field: str) -> str:
        from .scenario_fields import weapon_text

        sc, side = self.doc.scenario, self.session.side
        if sc is None:
            return ""
        if field in ("name", "id", "description"):
            return str(getattr(sc, field))
        if field in ("budget", "hand_size"):
            v = sc.rest_value("sides", side, field)
            return "" if v is None else str(v)
        o = sc.objective_at(self.session.objective) if self.session.objective is not None else None
        if field == "objective_name":
            return o.name if o is not None else ""
        if field == "objective_points":
            return str(o.points) if o is not None else ""
        if field == "weapon":
            art = sc.artillery_of(side)
            return weapon_text(art.weapon) if art is not None else ""
        return ""

    def _typed_dialog(self, kind: str) -> Any:
        from ..ui.widgets import Dialog, SearchList
        from .scenario_fields import FIELDS, card_entries

        what, _, arg = kind.partition(":")
        if what == "field":
            f = TextField(
                self._field_initial(arg), on_enter=lambda _t: self._field_confirm(arg), tip=f"field {arg}"
            )

            def typed(text: str, _orig: Any = f.on_text) -> bool:
                _orig(text)
                self._refresh_field_message(arg)
                return True

            def motion(m: int, _orig: Any = f.on_motion) -> bool:
                used = _orig(m)
                self._refresh_field_message(arg)
                return bool(used)

            f.on_text = typed  # type: ignore[method-assign]
            f.on_motion = motion  # type: ignore[method-assign,assignment]
            self._typed = f
            label, hint = FIELDS[arg]
            who = f" ({self.session.side})" if arg in ("budget", "hand_size", "weapon") else ""
            return Dialog(
                f"{label}{who}",
                hint,
                [("Set  (Enter)", lambda: self._field_confirm(arg)), ("Cancel  (Esc)", self._close_modal)],
                body=[f],
                shade=120,
                width=620,
            )
        sl = SearchList(
            card_entries(self.session.side),
            on_pick=lambda cid: self._card_picked(arg, cid),
            rows=10,
            tip=f"cards {arg}",
        )
        self._typed = sl
        d = Dialog(
            f"Add a card to the {self.session.side} {'starting hand' if arg == 'hand' else 'Reserves'}",
            "type to search (name, type, id); Up/Down choose, Enter or click adds; Esc closes",
            [("Done  (Esc)", self._close_modal)],
            body=[sl],
            shade=120,
            width=680,
            body_h=sl.height,
        )
        return d

    def _card_picked(self, target: str, card_id: str) -> None:
        self.session.add_card(target, card_id)
        self._ui_key = None

    def _sync_modal(self) -> None:
        """Open the toolkit dialog for :attr:`modal` (or close it) when :attr:`modal` changed."""
        if self._dialog_kind == self.modal and (self.modal is None or self.ui_screen.dialogs):
            return
        while self.ui_screen.dialogs:
            self.ui_screen.close()
        self._dialog_kind = self.modal
        if self.modal is not None:
            self.ui_screen.layout(*self.get_size())
            self.ui_screen.open(self._make_dialog(self.modal))

    def toggle_help(self) -> None:
        """Show or hide the keyboard shortcut overlay (H, F1)."""
        self.show_help = not self.show_help

    def toggle_labels(self) -> None:
        """Hex labels on or off (T)."""
        self.session.show_labels = not self.session.show_labels
        self.session.say(
            "Hex labels "
            + ("on" if self.session.show_labels else "off")
            + (" (too small to read at this zoom: zoom in to see them)" if self.labels_too_small() else "")
        )

    def _close_modal(self) -> None:
        self._form_dialog = None
        self.modal = None
        self.modal_text = ""
        self._typed = None

    def _typed_state(self) -> Any:
        t = self._typed
        if t is None:
            return None
        f = getattr(t, "field", t)
        lst = getattr(t, "list", None)
        return (
            f.text,
            f.caret,
            lst.selected if lst is not None else None,
            lst.offset if lst is not None else None,
        )

    def open_field(self, field: str) -> None:
        """Open the dialog that types scenario field ``field`` (checked as it is typed)."""
        self.modal = f"field:{field}"

    def open_cards(self, target: str) -> None:
        """Open the searchable card picker adding to the side's ``reserves`` or ``hand``."""
        self.modal = f"cards:{target}"

    def _field_confirm(self, field: str) -> None:
        problem = self.session.set_field(field, self._typed.text if self._typed is not None else "")
        if problem is None:
            self._close_modal()
        else:
            self._refresh_field_message(field)

    def _refresh_field_message(self, field: str) -> None:
        from .scenario_fields import FIELDS, parse_field

        d = self.ui_screen.dialogs[-1] if self.ui_screen.dialogs else None
        if d is None or self._typed is None:
            return
        try:
            parse_field(field, self._typed.text)
            msg = f"{FIELDS[field][1]}  ·  ok"
        except ValueError as exc:
            msg = f"{FIELDS[field][1]}  ·  {exc}"
        d.message = msg  # type: ignore[attr-defined]
        d.text_block.text = msg  # type: ignore[attr-defined]

    def save(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Save (Ctrl+S) or Save As ``path``; with no file yet, opens the Save As prompt.

        Refusals (unwritable folder, a scenario the game's validator rejects) are shown in
        the status bar; the document stays dirty. Returns True when saved.
        """
        if path is None and self.doc.path is None:
            self.open_save_as()
            return False
        if path is None and shipped_folder_of(self.doc.path) is not None:
            # a shipped map or scenario opened by name: Save As a copy in the working folder
            self.open_save_as(Path.cwd() / self.doc.path.name)
            self.session.say(
                f"{self.doc.path.name} is one of hexwar's shipped files: save your copy here (Enter)"
            )
            return False
        try:
            p = self.doc.save(path)
        except ValidationError as exc:
            first = exc.problems[0] if exc.problems else None
            more = f" (+{len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
            self.session.say(
                f"Not saved: {first.where + ': ' if first and first.where else ''}"
                f"{first.message if first else exc}{more}",
                error=True,
            )
            return False
        except HexwarError as exc:
            self.session.say(f"Not saved: {exc}", error=True)
            return False
        self.session.say(f"Saved {p}")
        self._after()
        return True

    def open_save_as(self, suggest: Path | None = None) -> None:
        """Open the Save As prompt (Ctrl+Shift+S), filled with ``suggest`` when given."""
        self.modal = "saveas"
        if suggest is not None:
            self.modal_text = str(suggest)
        elif self.doc.path is not None:
            self.modal_text = str(self.doc.path)
        else:
            suffix = ".toml" if self.doc.scenario is not None else ".json"
            stem = (
                "".join(c if c.isalnum() or c in "-_" else "_" for c in self.doc.map.name.lower())
                or "untitled"
            )
            self.modal_text = str(Path.cwd() / f"{stem}{suffix}")

    def _saveas_confirm(self) -> None:
        target = self.modal_text.strip()
        if not target:
            return
        p = Path(os.path.expanduser(target))
        if self.doc.scenario is not None and p.suffix.lower() != ".toml":
            self.session.say("A scenario is saved as a .toml file", error=True)
            return
        if self.doc.scenario is None and p.suffix.lower() != ".json":
            self.session.say("A map is saved as a .json file", error=True)
            return
        self._close_modal()
        if self.save(p) and self._quit_after_save:
            self._quit_now()

    _quit_after_save = False

    def request_quit(self) -> None:
        """Quit (Ctrl+Q, the close button) through the shared :class:`WindowBehaviour`: with
        unsaved changes it asks first (Save / Discard / Cancel, naming the recovery file)."""
        self.behaviour.request_quit()  # asking opens the "quit" prompt (Save / Discard / Cancel)

    def _ask_quit(self) -> None:
        """Open the quit prompt, the recovery file written first so the prompt can name it."""
        try:
            self.autosaver.write_now()
        except HexwarError as exc:
            self.session.say(f"autosave failed: {exc}", error=True)
        self.modal = "quit"

    def _lost_text(self) -> str:
        """The quit question's sentence: what is lost and where the recovery file is."""
        where = self.doc.path.name if self.doc.path else "this new map"
        rec = self.autosaver.written
        kept = f" The last autosave stays in the recovery file {rec} until you quit." if rec else ""
        return f"Save the changes to {where} before quitting?{kept}"

    def _quit_save(self) -> None:
        self._close_modal()
        if self.doc.path is None or shipped_folder_of(self.doc.path) is not None:
            self._quit_after_save = True  # the Save As prompt's Enter saves, then quits
        if self.save():
            self._quit_now()

    def _quit_discard(self) -> None:
        self._close_modal()
        self.behaviour.request_quit(True)

    def _quit_now(self) -> None:
        """Clean quit: remove the recovery file, close the window, stop the app loop."""
        self.behaviour.closed = True
        self.autosaver.discard()
        self.quit_requested = True
        pyglet.clock.unschedule(self.tick)
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def _recover_restore(self) -> None:
        r = self.recoveries.pop(0)
        try:
            doc = r.load()
        except HexwarError as exc:
            self.session.say(f"Recovery file is broken: {exc}", error=True)
            self._close_modal()
            return
        r.discard()
        self._replace_document(doc)
        self.autosaver.write_now()
        self.session.say(f"Restored the autosave from {r.saved_at}: save to keep it")
        self._close_modal()

    def _replace_document(self, doc: EditorDocument) -> None:
        """Edit ``doc`` from now on (a restored autosave, a new map): new session and autosaver,
        the old document's recovery file removed."""
        old = self.session
        self.autosaver.discard()
        self.session = EditorSession(doc, units=old.units)
        self.autosaver = Autosaver(
            doc, clock=self.autosaver.clock, interval=self.autosaver.interval, folder=self.autosaver.folder
        )
        self.palette = terrain_entries(doc.map.rules, self.looks)
        self.wrecks = wreck_entries(doc.map.rules)
        self.tab, self.palette_kind = "map", "terrain"
        self._after()
        self.fit_map()
        self._ui_key = None

    def _recover_discard(self) -> None:
        r = self.recoveries.pop(0)
        r.discard()
        self._close_modal()
        self.session.say("Discarded the recovery file")
