"""One behaviour for every hexwar window (issue 36): quit, the question before a loss, the
autosave it names, Esc, help and the title.

The five windows (the hex game's play window, the card table, the campaign, the editor and the
deck builder) each own one :class:`WindowBehaviour` and route every key press through
:meth:`WindowBehaviour.key` first. So in every window:

* **Ctrl+Q** (Cmd+Q) and the close button quit; when something would be lost (a game or war in
  progress, unsaved edits) the window asks first, and the question names the autosave file and
  the command that continues it (:meth:`WindowBehaviour.question`). Enter or Ctrl+Q again
  answers yes, Esc answers no.
* **Esc** cancels (a selection, a prompt, the help, the quit question) and never quits: the
  window receives the ``"cancel"`` intent and ``True`` goes back to pyglet, whose default would
  close the window.
* **H** and **F1** toggle the help (the ``"help"`` intent; never while typing into a field).
* The window title carries the focused item in plain text (:meth:`WindowBehaviour.title`), so a
  screen reader announces what the keyboard is on; setting it on a closed window is a no-op
  (the editor once printed a traceback after Ctrl+Q because its title was set after closing).

The behaviour holds no pyglet objects, so it is tested without a window; the windows give it
callables for what differs (what is at stake, where the autosave is, how to close).

>>> b = WindowBehaviour("table", "hexwar lines: Kursk", at_stake=lambda: True,
...                     autosave=lambda: None, close=lambda: None)
>>> b.key(ESCAPE, 0), b.asking
('cancel', False)
>>> b.key(ord("q"), MOD_CTRL), b.asking
('handled', True)
>>> b.question()[1][0]
'This game has no save file: it will be lost.'
>>> b.key(ESCAPE, 0), b.asking, b.closed
('handled', False, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ESCAPE",
    "F1",
    "MOD_CTRL",
    "MOD_COMMAND",
    "WINDOW_KINDS",
    "WindowBehaviour",
    "continue_command",
    "paint_question",
    "paint_quit_question",
    "set_title",
]

#: pyglet key symbols and modifier bits used here (pyglet.window.key values; not imported so
#: that this module loads without GL).
ESCAPE = 0xFF1B
F1 = 0xFFBE
RETURN = 0xFF0D
ENTER = 0xFF8D
MOD_CTRL = 1 << 1
MOD_COMMAND = 1 << 6
_Q, _H, _Y, _N = ord("q"), ord("h"), ord("y"), ord("n")

#: Every window that owns a :class:`WindowBehaviour` (the layout and behaviour tests cover each).
WINDOW_KINDS: tuple[str, ...] = ("play", "table", "campaign", "editor", "deck", "replay")

#: The command that continues an autosave of each kind.
_CONTINUE = {
    "play": "hexwar play {path}",
    "table": "hexwar play {path}",
    "campaign": "hexwar campaign {path}",
    "editor": "hexwar edit (it offers the recovery file)",
    "deck": "hexwar play lines",
    "replay": "hexwar replay {path} --window",
}

#: What is lost, by kind, in the question's title.
_WHAT = {
    "play": "game",
    "table": "game",
    "campaign": "war",
    "editor": "map",
    "deck": "deck",
    "replay": "replay",
}


def continue_command(kind: str, path: Path | str) -> str:
    """The command that continues ``path`` (an autosave of window ``kind``), e.g.
    ``continue_command("campaign", "w.json") == "hexwar campaign w.json"``.

    Raises:
        KeyError: for a kind not in :data:`WINDOW_KINDS`.
    """
    return _CONTINUE[kind].format(path=path)


def set_title(window: Any, text: str) -> bool:
    """Set ``window``'s caption to ``text`` unless the window is closed (no GL context):
    returns True when set. pyglet raises on a closed window; a window that quit must not."""
    if window is None or getattr(window, "context", True) is None:
        return False
    if getattr(window, "_hexwar_title", None) == text:
        return True
    try:
        window.set_caption(text)
    except Exception:  # noqa: BLE001 - a window torn down between the check and the call
        return False
    try:
        window._hexwar_title = text
    except AttributeError:
        pass
    return True


@dataclass
class WindowBehaviour:
    """Quit, confirm-on-loss, Esc, help and title of one window.

    Args:
        kind: one of :data:`WINDOW_KINDS`.
        title_base: the title without the focused item, e.g. ``"hexwar lines: Prokhorovka"``.
        at_stake: ``() -> bool``: True when quitting now would lose something (a game or war in
            progress, unsaved edits); then quitting asks first.
        autosave: ``() -> Path | None``: the file the window autosaves to (named in the
            question), or None when it has none.
        close: ``() -> None``: closes the window for good (after a final save, if any).
        save_now: ``() -> str | None``: writes the autosave one last time before closing;
            returns an error message or None. Optional.
        lost_text: ``() -> str``: for windows whose loss is not covered by an autosave (the
            editor's unsaved edits), the sentence to show instead of the autosave sentence.
        ask: ``() -> None``: opens the window's own question instead of :meth:`question`'s
            (the editor's adds Save to Quit / Keep); its answers call :meth:`request_quit`
            with ``confirmed=True`` or nothing. Optional.

    Attributes:
        asking: the quit question is open (modal: every other key is eaten).
        closed: the window was closed through :meth:`request_quit`.
        focused: the focused item's plain name (shown in the title), or "".
        problems: messages from a failed final save.
    """

    kind: str
    title_base: str
    at_stake: Callable[[], bool]
    autosave: Callable[[], Path | None]
    close: Callable[[], None]
    save_now: Callable[[], str | None] | None = None
    lost_text: Callable[[], str] | None = None
    ask: Callable[[], None] | None = None
    asking: bool = False
    closed: bool = False
    focused: str = ""
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in WINDOW_KINDS:
            raise ValueError(f"unknown window kind {self.kind!r}; expected one of {', '.join(WINDOW_KINDS)}")

    # -- quit ---------------------------------------------------------------------------------------
    def request_quit(self, confirmed: bool = False) -> bool:
        """Quit: ask first when something is at stake (unless ``confirmed``); otherwise save one
        last time (``save_now``), close and return True. Returns False while asking."""
        if self.closed:
            return True
        if not confirmed and not self.asking and self.at_stake():
            if self.ask is not None:
                self.ask()
            else:
                self.asking = True
            return False
        self.asking = False
        if self.save_now is not None:
            msg = self.save_now()
            if msg:
                self.problems.append(msg)
        self.closed = True
        self.close()
        return True

    def cancel_quit(self) -> bool:
        """Close the quit question (Esc, "Keep playing"); True when it was open."""
        was, self.asking = self.asking, False
        return was

    def question(self) -> tuple[str, list[str]]:
        """The quit question: ``(title, lines)``; the lines name the autosave file and the
        command that continues it, or say what will be lost."""
        what = _WHAT[self.kind]
        verb = "Quit this war?" if what == "war" else f"Quit this {what}?"
        if self.lost_text is not None:
            return verb, [self.lost_text()]
        path = self.autosave()
        if path is None:
            return verb, [f"This {what} has no save file: it will be lost."]
        return verb, [f"The {what} is saved in {path}; `{continue_command(self.kind, path)}` continues it."]

    # -- keys ---------------------------------------------------------------------------------------
    def key(self, symbol: int, modifiers: int, typing: bool = False) -> str | None:
        """Route one key press through the shared behaviour.

        Args:
            symbol, modifiers: pyglet's key symbol and modifier bits.
            typing: a text field has the keyboard (H is a letter then, not help).

        Returns:
            ``"handled"`` when the behaviour used the key (quit, the question), ``"cancel"`` for
            Esc (the window cancels its own selection or prompt; the window must return True to
            pyglet so Esc never closes it), ``"help"`` for H / F1, or ``None``: the window's own.
        """
        ctrl = bool(modifiers & (MOD_CTRL | MOD_COMMAND))
        if self.asking:
            if symbol in (RETURN, ENTER, _Y) or (ctrl and symbol == _Q):
                self.request_quit(True)
            elif symbol in (ESCAPE, _N):
                self.cancel_quit()
            return "handled"
        if ctrl and symbol == _Q:
            self.request_quit()
            return "handled"
        if symbol == ESCAPE:
            return "cancel"
        if symbol == F1 or (symbol == _H and not ctrl and not typing):
            return "help"
        return None

    # -- title --------------------------------------------------------------------------------------
    def title(self) -> str:
        """The window title: the base and, when something has the focus, ``" | "`` and its
        plain name (what a screen reader reads out)."""
        return f"{self.title_base} | {self.focused}" if self.focused else self.title_base

    def focus(self, window: Any, name: str) -> None:
        """Put ``name`` (plain text, "" for none) in ``window``'s title; no-op once closed."""
        self.focused = name
        if not self.closed:
            set_title(window, self.title())


def paint_quit_question(p: Any, width: float, height: float, b: WindowBehaviour, z: int = 2) -> None:
    """Paint ``b``'s quit question as a modal box with Quit (Enter) and Keep (Esc) buttons, on
    a :class:`~hexwar.ui.widgets.Painter` ``p`` over a ``width`` x ``height`` points screen."""
    title, lines = b.question()
    keep = "Keep playing" if b.kind != "editor" else "Keep editing"
    paint_question(
        p,
        width,
        height,
        title,
        lines,
        ("Quit", lambda: b.request_quit(True), "Enter", "quit_now"),
        (keep, b.cancel_quit, "Esc", "stay"),
        z,
    )


def paint_question(
    p: Any,
    width: float,
    height: float,
    title: str,
    lines: Sequence[str],
    yes: tuple[str, Callable[[], Any], str, str],
    no: tuple[str, Callable[[], Any], str, str],
    z: int = 2,
) -> None:
    """A modal question of every window (quit, continue the last game): ``title``, the wrapped
    ``lines`` (13 pt) and two buttons, each ``(label, action, key hint, tip)``, the first the
    primary one; the whole screen behind is shaded and inert."""
    from .widgets import theme as T
    from .widgets.text import wrap

    bw = min(width - 40, 600.0)
    body = [ln for s in lines for ln in wrap(p.atlas, s, bw - 60, 13)][:5]
    bh = 130.0 + 19 * len(body)
    x0, y0 = (width - bw) / 2, (height - bh) / 2
    p.rect(0, 0, width, height, (0, 0, 0, 170), z)
    p.rect(x0, y0, x0 + bw, y0 + bh, T.PANEL, z)
    p.frame(x0, y0, x0 + bw, y0 + bh, 1.5, T.ACTIVE, z)
    p.widget(0, 0, width, height, None, "modal", z)
    p.text(title, x0 + 30, y0 + bh - 34, 19, T.TEXT, style="bold", z=z, max_width=bw - 60)
    y = y0 + bh - 66
    for ln in body:
        p.text(ln, x0 + 30, y, 13, T.DIM, z=z, max_width=bw - 60)
        y -= 19
    half = (bw - 80) / 2
    p.button(x0 + 30, y0 + 22, half, 38, yes[0], yes[1], z=z, primary=True, key=yes[2], tip=yes[3])
    p.button(x0 + 50 + half, y0 + 22, half, 38, no[0], no[1], z=z, key=no[2], tip=no[3])


def texts_of(p: Any) -> Sequence[str]:
    """The strings ``p`` drew (a helper for tests and screen readers)."""
    return list(getattr(p, "texts", []))
