"""The replay viewer window (issue 36): ``hexwar replay SAVE --window`` steps through any save of
the three games (hex, lines, campaign), forward and back, with the log beside it, each roll of
the step with its exact odds before it was rolled (labelled bars: the chance of success where a
number was needed, and where the roll fell among all it could have been), and a luck summary per
side (expected against scored victory points, the mean percentile of its rolls, its rarest
roll; :mod:`hexwar.game.luck`).

The board: the hex game's map with the units of that step, the card table of a line game as a
spectator sees it, or the campaign's year, battle and history. The model is
:class:`~hexwar.ui.replay_model.ReplayModel`; this module only lays it out and routes keys.

Keys: Right / Space next step, Left previous, PageDown / PageUp ten steps, Home / End the start
and the end, H / F1 help, Esc closes the help (never quits), Ctrl+Q quits (nothing to lose:
a replay never asks).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from .replay_model import ReplayModel
from .widgets import Painter, wrap
from .widgets import theme as T
from .widgets.text import ellipsize

__all__ = ["ReplayWindow", "paint_replay", "replay_image", "render_replay", "run_replay", "SHORTCUTS"]

#: (keys, what) of the help overlay.
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Right / Space", "next step"),
    ("Left", "previous step"),
    ("PageDown / PageUp", "ten steps on / back"),
    ("Home / End", "the start / the end of the game"),
    ("H / F1", "this help"),
    ("Esc", "close the help (never quits)"),
    ("Ctrl+Q", "quit"),
)

TOP_H = 40.0
PANEL_FRAC = 0.42
BAR_H = 14.0


def panel_width(width: float) -> float:
    """The right panel's width in points for a window ``width`` points wide (360-620)."""
    return max(360.0, min(620.0, width * PANEL_FRAC))


def _bar(p: Painter, x: float, y: float, w: float, frac: float, colour: Any, label: str) -> None:
    """A labelled bar: the label (10.5 pt) above a bar ``w`` long filled to ``frac``."""
    frac = max(0.0, min(1.0, frac))
    p.text(ellipsize(p.atlas, label, w, 10.5), x, y + BAR_H + 8, 10.5, T.DIM)
    p.rect(x, y, x + w, y + BAR_H, T.FIELD)
    p.rect(x, y, x + w * frac, y + BAR_H, colour)
    p.frame(x, y, x + w, y + BAR_H, 1.0, T.LINE)


#: Nothing of the panel is drawn under this height (the key hint's line).
FLOOR = 56.0  # above the hint line and the stepping buttons


def _para(
    p: Painter, s: str, x: float, y: float, w: float, size: float, colour: Any, gap: float = 4.0
) -> float:
    """``s`` wrapped to ``w`` points at ``size``, drawn downwards from ``y`` (lines that would
    fall under :data:`FLOOR` are left out); the next ``y``."""
    for ln in wrap(p.atlas, s, w, size):
        if y - size / 2 > FLOOR:
            p.text(ellipsize(p.atlas, ln, w, size), x, y, size, colour)
        y -= size + gap
    return y


def _battle_line(st: Any, h: Any) -> str:
    """One battle of a campaign's history in words: year, number, cards, score, winner."""

    def title(c: Any) -> str:
        try:
            return str(st.cards.title(c)) if c else "-"
        except Exception:  # noqa: BLE001 - an unknown id: show it as it is
            return str(c)

    g, s = getattr(h, "german", None), getattr(h, "soviet", None)
    score = f"{getattr(h, 'german_score', '?')}-{getattr(h, 'soviet_score', '?')}"
    win = getattr(h, "winner", None) or "stalemate"
    return f"{getattr(h, 'year', '')} battle {getattr(h, 'number', '')}: {title(g)} vs {title(s)}, {score}, {win}"


def _state_line(model: ReplayModel, st: Any) -> str:
    if model.mode == "campaign":
        return f"{st.year}, battle {st.battle}, {st.phase} phase" + (
            f" - {st.result_reason}" if st.over else ""
        )
    vp = getattr(st, "vp", {}) or {}
    head = f"turn {st.turn}, {st.phase} phase - VP " + ", ".join(f"{s} {vp.get(s, 0)}" for s in model.sides)
    return head + (" - game over" if st.over else "")


def _watching(state: Any) -> Any:
    """A card-table controller that only watches ``state`` (a replay): every seat counts as
    played elsewhere, so no hand, button, setup picker or hand-over is offered, and the prompt
    says whose turn it was (R12.1: a replay shows no hidden hand either)."""
    from ..lines.table import TableController

    class _Watching(TableController):
        def prompt(self) -> str:
            st = self.state
            if st.over:
                return f"Game over: {st.result}."
            return f"Replay: {st.to_act or '-'} to act in the {st.phase} phase (Left / Right steps)."

    return _Watching(state, ai={s: None for s in state.seats}, viewer=None)


#: The stepping buttons under the log: (label, steps moved; ``None``: to the start / the end).
STEP_BUTTONS: tuple[tuple[str, str, int], ...] = (
    ("|<", "replay start", -(10**9)),
    ("<< 10", "replay back 10", -10),
    ("< Back", "replay back", -1),
    ("Next >", "replay next", 1),
    ("10 >>", "replay next 10", 10),
    (">|", "replay end", 10**9),
)


def paint_replay(
    p: Painter,
    model: ReplayModel,
    step: int,
    width: float,
    height: float,
    show_help: bool = False,
    go: Any = None,
) -> None:
    """Paint the viewer's panels at ``step`` (0..len: commands applied) into ``p``: the top bar,
    the right panel (this step, its rolls with odds bars, the luck summary, the log) and, for a
    line game or a campaign, the board on the left (the hex map is drawn by the window's map
    view under the panels)."""
    pw = panel_width(width)
    px = width - pw
    st = model.state_at(step)
    # the board (lines, campaign); the hex map is the window's map view
    if model.mode == "lines":
        from .lines_screen import paint_table

        paint_table(p, _watching(st), px, height - TOP_H, side_panel=False)  # the log is the viewer's
    elif model.mode == "campaign":
        p.rect(0, 0, px, height - TOP_H, T.BG)
        y = height - TOP_H - 30
        p.text("The war so far", 16, y, 15, T.ACTIVE, style="bold")
        y -= 26
        for h in list(st.history)[-max(1, int((y - 20) // 20)) :]:
            p.text(ellipsize(p.atlas, _battle_line(st, h), px - 32, 12), 16, y, 12, T.TEXT)
            y -= 20
    # top bar
    p.rect(0, height - TOP_H, width, height, T.SECTION)
    title = (
        f"Replay {Path(model.path).name if model.path else ''} ({model.mode}) - step {step} of {len(model)}"
    )
    p.text(ellipsize(p.atlas, title, width * 0.55 - 24, 13, "bold"), 12, height - TOP_H / 2, 13, T.TEXT,
           style="bold")  # fmt: skip
    p.text(ellipsize(p.atlas, _state_line(model, st), width * 0.45 - 12, 12), width - 12, height - TOP_H / 2, 12,
           T.ACTIVE, ax="right")  # fmt: skip
    # right panel
    p.rect(px, 0, width, height - TOP_H, T.PANEL)
    x, w = px + 14, pw - 28
    y = height - TOP_H - 22
    cur = model.steps[step - 1] if step > 0 else None
    p.text("This step" if cur else "Before the first command", x, y, 13, T.ACTIVE, style="bold")
    y -= 20
    if cur is not None:
        y = _para(p, f"{cur.index + 1}. {cur.text}", x, y, w, 11.5, T.TEXT) - 2
        if cur.expected_vp is not None:
            y = _para(p, f"exact expected VP of this attack: {cur.expected_vp:.2f}", x, y, w, 11, T.DIM) - 2
        budget = max(0, int((y - FLOOR - 170) // 90))  # rolls that fit above the luck summary
        shown_rolls = cur.rolls[: min(3, budget)]
        for r in shown_rolls:
            y = _para(p, r.text, x, y, w, 10.5, T.ROLL) + 6 - BAR_H
            if r.p_success is not None:
                y -= 14
                verdict = "succeeded" if r.success else "failed"
                _bar(p, x, y, w, float(r.p_success), T.GOOD,
                     f"chance of success before the roll: {float(r.p_success):.1%} ({verdict})")  # fmt: skip
                y -= 10 + BAR_H
            y -= 14
            _bar(p, x, y, w, float(r.percentile), T.FOCUS,
                 f"{r.dice} = {r.natural}: P(this or higher) {float(r.p_at_least):.1%}, "
                 f"P(this or lower) {float(r.p_at_most):.1%}")  # fmt: skip
            y -= 16
        if len(cur.rolls) > len(shown_rolls):
            p.text(f"... and {len(cur.rolls) - len(shown_rolls)} more rolls (in the log)", x, y, 10.5, T.DIM)
            y -= 16
    y -= 6
    if y - 6 > FLOOR:
        p.text("Luck so far", x, y, 13, T.ACTIVE, style="bold")
    y -= 18
    if model.mode == "campaign" and not any(s.rolls for s in model.steps):
        y = _para(p, "No dice in this war: the battles are decided by the cards (002); the draws "
                  "of cards and initiative are in the log.", x, y, w, 10.5, T.DIM)  # fmt: skip
    for sl in model.luck(step).values():
        for ln in sl.lines():
            sub = ln.startswith(" ")
            y = _para(p, ln.strip(), x + (10 if sub else 0), y, w - 10, 10.5, T.DIM if sub else T.TEXT)
    y -= 8
    if y - 44 > FLOOR:
        p.line(px + 8, y, width - 8, y, 1.0, T.LINE)
        y -= 16
        p.text("Log", x, y, 13, T.ACTIVE, style="bold")
        y -= 18
    room = max(0, int((y - FLOOR) // 14))
    shown: list[tuple[int, str]] = []
    for i, ln in reversed(model.log_until(step)):
        if len(shown) >= room:
            break
        shown[:0] = [(i, part) for part in wrap(p.atlas, ln, w, 10.5)]
    for i, ln in shown[-room:] if room else []:
        p.text(ellipsize(p.atlas, ln, w, 10.5), x, y, 10.5, T.TEXT if i == step - 1 else T.DIM)
        y -= 14
    hint = "Left / Right step, PageUp / PageDown ten, Home / End, H help"
    p.text(ellipsize(p.atlas, hint, w, 10.5), x, 12, 10.5, T.FAINT)
    if go is not None:  # the same steps for the mouse (``go(step)`` shows that step)
        bw = (w - 5 * 4) / len(STEP_BUTTONS)
        for i, (label, tip, d) in enumerate(STEP_BUTTONS):
            to = max(0, min(len(model), step + d))
            p.button(x + i * (bw + 4), 26, bw, 22, label, partial(go, to) if to != step else None,
                     enabled=to != step, tip=tip, size=10.5, align="center")  # fmt: skip
    if show_help:
        bw, bh = min(width - 40, 520.0), 60 + 22 * len(SHORTCUTS)
        x0, y0 = (width - bw) / 2, (height - bh) / 2
        p.rect(x0, y0, x0 + bw, y0 + bh, T.PANEL, 2)
        p.frame(x0, y0, x0 + bw, y0 + bh, 1.5, T.ACTIVE, 2)
        p.text("Replay viewer keys", x0 + 20, y0 + bh - 26, 15, T.ACTIVE, style="bold", z=2)
        yy = y0 + bh - 54
        for k, what in SHORTCUTS:
            p.text(k, x0 + 20, yy, 12, T.TEXT, style="bold", z=2)
            p.text(ellipsize(p.atlas, what, bw - 210, 12), x0 + 190, yy, 12, T.DIM, z=2)
            yy -= 22


def _make_window_class() -> Any:
    import pyglet

    from ..render import MapView
    from ..render.gamescene import counters_from_state
    from ..render.map_window import MapAreaMixin
    from .widgets import UiLayer

    class _ReplayWindow(MapAreaMixin, pyglet.window.Window):  # type: ignore[misc]
        """The replay viewer (see the module text)."""

        def __init__(self, model: ReplayModel, width: int = 1400, height: int = 900, visible: bool = True,
                     **kw: Any) -> None:  # fmt: skip
            super().__init__(width, height, caption="hexwar replay", resizable=True, visible=visible, **kw)
            self._enable_event_queue = False
            self.model = model
            self.step = 0
            self.show_help = False
            self._mouse = (-1.0, -1.0)
            st = model.state_at(0)
            board = getattr(st, "battlemap", None)
            if board is None:
                from ..model.maps import BattleMap

                board = BattleMap(4, 4)
            self.mapview = MapView(board, self, show_labels=False)
            self.ui = UiLayer(self, self.mapview.batch, self.mapview.atlas)
            self.painter: Painter | None = None
            from .window_base import WindowBehaviour

            self.behaviour = WindowBehaviour(
                "replay", f"hexwar replay: {model.path}", at_stake=lambda: False, autosave=lambda: None,
                close=self._close_for_good,
            )  # fmt: skip
            self.fit_map()
            self.refresh()

        def map_area(self) -> tuple[float, float, float, float]:
            """The board: left of the panel, under the top bar."""
            w, h = self.get_size()
            return (0.0, 0.0, w - panel_width(w), h - TOP_H)

        def go(self, step: int) -> None:
            """Show the game after ``step`` commands (clamped to 0..len)."""
            self.step = max(0, min(len(self.model), step))
            self.refresh()

        def refresh(self) -> None:
            """Repaint the panels (and the hex game's counters) for the current step."""
            w, h = self.get_size()
            st = self.model.state_at(self.step)
            if self.model.mode == "hex":
                self.mapview.set_counters(counters_from_state(st))
            p = Painter(self.mapview.atlas, self._mouse)
            paint_replay(p, self.model, self.step, w, h, self.show_help, go=self.go)
            self.painter = p
            self.ui.show(p)
            cur = self.model.steps[self.step - 1].text if self.step else "start"
            self.behaviour.focus(self, f"step {self.step} of {len(self.model)}: {cur}")

        def on_draw(self) -> None:
            """The board, then the panels."""
            self.clear()
            self.mapview.draw()

        def on_resize(self, width: int, height: int) -> None:
            """Relayout (HiDPI aware)."""
            super().on_resize(width, height)
            if hasattr(self, "painter"):
                self.mapview.resize(width, height, self.get_pixel_ratio())
                self.fit_map()
                self.refresh()

        def on_key_press(self, symbol: int, modifiers: int) -> bool:
            """Stepping keys; Ctrl+Q, Esc, H / F1 through the shared behaviour."""
            from pyglet.window import key

            shared = self.behaviour.key(symbol, modifiers)
            if shared == "handled":
                return True
            if shared == "cancel":
                self.show_help = False
            elif shared == "help":
                self.show_help = not self.show_help
            else:
                moves = {
                    key.RIGHT: 1, key.SPACE: 1, key.LEFT: -1, key.PAGEDOWN: 10, key.PAGEUP: -10,
                    key.HOME: -len(self.model), key.END: len(self.model),
                }  # fmt: skip
                if symbol not in moves:
                    return False
                self.step = max(0, min(len(self.model), self.step + moves[symbol]))
            self.refresh()
            return True

        def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
            """A click on a stepping button runs it."""
            from .widgets import top_hit

            if self.painter is not None:
                hit = top_hit(self.painter.widgets, x, y)
                if hit is not None and hit.action is not None:
                    hit.action()
                    if not self.behaviour.closed:
                        self.refresh()

        def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
            """Hover highlights the button under the pointer."""
            from .widgets import top_hit

            was = top_hit(self.painter.widgets, *self._mouse) if self.painter is not None else None
            self._mouse = (x, y)
            now = top_hit(self.painter.widgets, x, y) if self.painter is not None else None
            if was is not now:
                self.refresh()

        def on_close(self) -> bool:
            """The close button quits (a replay has nothing to lose)."""
            self.behaviour.request_quit()
            return True

        def _close_for_good(self) -> None:
            self.close()
            if pyglet.app.event_loop.is_running:
                pyglet.app.exit()

        def render_image(
            self, size: tuple[float, float] | None = None, pixel_ratio: float | None = None
        ) -> Any:
            """The window drawn offscreen as ``uint8 [H, W, 4]`` (``size`` in points)."""
            from ..render.offscreen import render_view

            self.switch_to()
            ratio = pixel_ratio or self.get_pixel_ratio()
            if size is not None:
                self.mapview.resize(size[0], size[1], ratio)
                self.fit_map()
            self.refresh()
            return render_view(self.mapview, size=size, pixel_ratio=ratio)

    return _ReplayWindow


def ReplayWindow(model: ReplayModel, **kw: Any) -> Any:  # noqa: N802 - a class made on first use
    """The replay viewer window over ``model`` (pyglet is imported only here)."""
    from ..render import backend

    backend.ensure_configured()
    return _make_window_class()(model, **kw)


def replay_image(
    model: ReplayModel, step: int, size: tuple[int, int] = (1400, 900), pixel_ratio: float = 1.0
) -> Any:
    """The viewer at ``step`` drawn headless as ``uint8 [H, W, 4]`` RGBA."""
    win = ReplayWindow(model, width=size[0], height=size[1], visible=False)
    try:
        win.go(step)
        return win.render_image(size=(float(size[0]), float(size[1])), pixel_ratio=pixel_ratio)
    finally:
        win.close()


def render_replay(
    save: str, out: str, size: tuple[int, int], pixel_ratio: float, step: int | None = None
) -> tuple[int, int]:
    """Draw the replay viewer of ``save`` at ``step`` (default: the step of the rarest roll) to
    the PNG ``out`` (``hexwar render SAVE --screen replay``); returns its size in pixels.

    Raises:
        HexwarError: when the save cannot be replayed or the PNG cannot be written.
    """
    from ..render.offscreen import save_png
    from .replay_model import load_replay

    model = load_replay(save)
    if step is None:
        rare = [sl.rarest for sl in model.luck().values() if sl.rarest is not None]
        step = min(rare, key=lambda r: r.rarity).step + 1 if rare else len(model)
    img = replay_image(model, step, size, pixel_ratio)
    save_png(img, out)
    return int(img.shape[1]), int(img.shape[0])


def run_replay(model: ReplayModel) -> None:
    """Open the viewer and run until it is closed (``hexwar replay SAVE --window``)."""
    import pyglet

    from ..render import backend

    backend.require_display()
    ReplayWindow(model)
    pyglet.app.run()
