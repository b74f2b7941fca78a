"""The play window's session (issue 34 split of :mod:`hexwar.ui.play_window`): quit asks
while a game is in progress and names the autosave (issue 36), the last save on quit, the
replay viewer on the game so far, and the start offer to continue the last unfinished game.
"""

from __future__ import annotations

from typing import Any

from ..errors import HexwarError, cannot
from ..game.commands import SIDES

__all__ = ["SessionMixin", "players_from_names", "show_drawn", "size_for_screen"]


def players_from_names(names: dict[str, str], seed: int, variants: Any = ()) -> dict[str, Any]:
    """Computer players for the sides a save names with a computer player's name
    (``"standard"``, ``"random"``); ``"human"`` sides are played at the screen."""
    from ..game.ai import LEVEL_NAMES, PLAYER_NAMES, make_player

    players: dict[str, Any] = {
        s: make_player(n, s, seed)
        for s, n in names.items()
        if (n in PLAYER_NAMES or n in LEVEL_NAMES) and s in SIDES
    }
    if "fog" in tuple(variants or ()):
        from ..game.view import ViewPlayer

        players = {s: ViewPlayer(p) for s, p in players.items()}
    return players


class SessionMixin:
    """The session part of :class:`~hexwar.ui.play_window.PlayWindow`: quitting (through the
    shared :class:`~hexwar.ui.window_base.WindowBehaviour`), the last save, the replay viewer
    and the start offer. Reads the window's ``controller``, ``flags`` and ``behaviour``."""

    controller: Any
    flags: Any
    behaviour: Any
    state: Any
    visible: Any
    quit_requested: bool
    replay_window: Any
    _saver_names: dict[str, str]
    refresh: Any
    tick: Any
    close: Any
    set_game: Any

    def game_in_progress(self) -> bool:
        """A game that is not over is on screen (quitting asks first)."""
        return not self.state.over

    def request_quit(self, confirmed: bool = False) -> None:
        """Quit through the shared :class:`~hexwar.ui.window_base.WindowBehaviour`: a game in
        progress asks first (item 7; the question names the autosave); then save a given save
        path one last time, close the window, stop the app loop."""
        self.behaviour.request_quit(confirmed or self.behaviour.asking)  # a second Ctrl+Q answers yes
        if self.behaviour.asking:
            self.flags.extra["quit_confirm"] = self.behaviour.question()
            self.refresh()

    def _save_now(self) -> str | None:
        """The game's last save before closing (when it has a save file); an error or None."""
        ctl = self.controller
        if ctl.saver is None:
            return None
        from ..game.save import write_save

        try:
            write_save(ctl.state, ctl.saver.path, ctl.saver.players)
        except HexwarError as exc:
            ctl.say(f"save failed: {exc}", error=True)
            return f"save failed: {exc}"
        return None

    def _close_for_good(self) -> None:
        import pyglet  # the backend is configured: play_window imported it first

        self.flags.extra.pop("quit_confirm", None)
        self.quit_requested = True
        pyglet.clock.unschedule(self.tick)
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def open_replay(self) -> Any:
        """Ctrl+R / "Watch the replay": the game so far in the replay viewer
        (:mod:`hexwar.ui.replay_window`), from its save file (written now) or, without one, a
        copy in the autosave folder. Returns the viewer window, or None (the reason is said)."""
        import datetime

        from ..game.save import write_save
        from .autosave import new_game_autosave
        from .replay_model import load_replay
        from .replay_window import ReplayWindow

        ctl = self.controller
        try:
            path = (
                ctl.saver.path
                if ctl.saver is not None
                else new_game_autosave(f"replay-{ctl.state.scenario.id}", datetime.datetime.now())
            )
            write_save(ctl.state, path, self._saver_names)
            sc_path = getattr(ctl.state.scenario, "path", None)
            model = load_replay(path, (str(sc_path),) if sc_path else ())
        except HexwarError as exc:
            ctl.say(f"cannot open the replay: {exc}", error=True)
            self.refresh()
            return None
        self.replay_window = ReplayWindow(model, visible=self.visible)
        self.replay_window.go(len(model))
        return self.replay_window

    def cancel_quit(self) -> None:
        """Keep playing: close the quit question."""
        self.behaviour.cancel_quit()
        self.flags.extra.pop("quit_confirm", None)
        self.refresh()

    def accept_offer(self) -> None:
        """Continue the last unfinished game (the start offer, item 7): replayed from its
        autosave, with the same computer sides, autosaving to the same file."""
        offer = self.flags.extra.pop("offer", None)
        if offer is None:
            return
        from ..game.save import load_game

        try:
            state = load_game(offer.path)
        except HexwarError as exc:
            self.controller.say(cannot("continue", offer.path, exc), error=True)
            self.refresh()
            return
        self.set_game(
            state, ai=players_from_names(offer.players, state.seed, state.variants), save=offer.path
        )
        self.controller.say(f"Continuing {offer.text}.")
        self.refresh()

    def decline_offer(self) -> None:
        """Start the new game instead of the offered one."""
        self.flags.extra.pop("offer", None)
        self.refresh()

    def on_close(self) -> bool:
        """The close button quits (asking first while a game is in progress)."""
        self.request_quit()
        return True


def size_for_screen(
    width: int = 1400, height: int = 900, screen: tuple[int, int] | None = None
) -> tuple[int, int]:
    """The play window's first size in points: ``width`` x ``height``, but never larger than
    the screen (``screen`` = its ``(width, height)``, default the display's default screen), so
    on an 800x600 screen the window is 800x600 and its panels and questions are all on screen
    (walk-through, issue 36: a 1400x900 window on an 800x600 screen had the quit question cut).

    >>> size_for_screen(screen=(800, 600)), size_for_screen(screen=(2560, 1440))
    ((800, 600), (1400, 900))
    """
    if screen is None:
        try:
            import pyglet  # the backend is configured: play_window imported it first

            sc = pyglet.display.get_display().get_default_screen()
            screen = (int(sc.width), int(sc.height))
        except Exception:  # no screen to ask: the default size
            return width, height
    return max(320, min(width, screen[0])), max(240, min(height, screen[1]))


def show_drawn(win: Any) -> None:
    """Draw ``win``'s first frame, then map it and put that frame on screen at once, so the
    window never shows black while the map, atlas and panels are built (seconds on a busy
    machine) or until the first input event."""
    win.on_draw()  # builds every mesh and text while the window is still unmapped
    win.set_visible(True)
    win.on_draw()
    win.flip()
