"""The screens (issue 7, issue 14): pyglet windows over the shared renderer, driving the game
engine through its own commands, built from one widget toolkit.

* :mod:`hexwar.ui.widgets` - the widget toolkit every screen uses (layout, text, painter,
  focus, dialogs, text field, scrolling list, card views); see docs/architecture.md
* :mod:`hexwar.ui.controller` - the play screen's selection state and command dispatch
  (no pyglet, no rules), composed of :mod:`~hexwar.ui.play_views` (derived views),
  :mod:`~hexwar.ui.log_view`, :mod:`~hexwar.ui.pacing` (computer players),
  :mod:`~hexwar.ui.autosave`, :mod:`~hexwar.ui.view_cache`, :mod:`~hexwar.ui.animation`
* :mod:`hexwar.ui.input_map` - keys and mouse buttons -> intents
* :mod:`hexwar.ui.clock` - injectable clocks and the computer's pace
* :mod:`hexwar.ui.panels` - the play screen's panels (hand, phase track, log, odds ...)
* :mod:`hexwar.ui.play_window` - :class:`~hexwar.ui.play_window.PlayWindow` and ``run``
  (what ``hexwar play`` opens)
* :mod:`hexwar.ui.render_state` - the play screen drawn headless to a PNG
  (``hexwar render SCENARIO --screen play``)

Importing this package loads no GL.
"""
