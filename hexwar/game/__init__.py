"""The game layer: scenarios, game state, commands -> events, turn sequence, saves, AI players.

Nothing here imports pyglet (DESIGN). The main entry points:

* :func:`hexwar.game.scenario.load_scenario` -> :class:`~hexwar.game.scenario.Scenario`
* :func:`hexwar.game.setup.new_game` -> :class:`~hexwar.game.state.GameState`
* :meth:`GameState.apply(command) <hexwar.game.state.GameState.apply>` -> list of
  :class:`~hexwar.game.events.Event`; :meth:`~hexwar.game.state.GameState.legal_commands`
* :mod:`hexwar.game.actions`: one module per command (check, apply, legal options) and the
  :class:`~hexwar.game.actions.ActionRegistry` the turn sequence (:mod:`hexwar.game.turn`)
  dispatches through; events stay typed (:mod:`hexwar.game.events`, one serializer)
* :mod:`hexwar.game.save` (saves, replays), :mod:`hexwar.game.ai` (computer players),
  :mod:`hexwar.game.headless` (a whole game without a window).
"""
