"""The play screen (issue 7): a pyglet window over the shared renderer, driving the game
engine through its own commands.

* :mod:`hexwar.ui.controller` - clicks and keys -> game commands (no pyglet, no rules)
* :mod:`hexwar.ui.clock` - injectable clocks and the computer's pace
* :mod:`hexwar.ui.panels` - the screen-space panels (hand, phase track, log, odds ...)
* :mod:`hexwar.ui.play_window` - :class:`~hexwar.ui.play_window.PlayWindow` and ``run``
  (what ``hexwar play`` opens)
* :mod:`hexwar.ui.render_state` - the play screen drawn headless to a PNG
  (``hexwar render SCENARIO --screen play``)

Importing this package loads no GL.
"""
