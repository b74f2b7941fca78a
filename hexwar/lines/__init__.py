"""The Spearpoint 1943 card game on lines (R11.1): seeds 000 as written, 001 as ``classic``.

No map: each side has a Frontline and a Rear Line, aircraft fly on no line with their Turns of
Flight. Everything else is the hex game's engine, never a copy: the same cards and decks
(:mod:`hexwar.rules.cards`), dice (:mod:`hexwar.rules.dice`), combat steps a-i, specials, crew
fate and close assault (:class:`hexwar.rules.combat.CombatEngine`), End Turn recovery
(:func:`hexwar.rules.combat.end_turn`), exact odds (:mod:`hexwar.rules.odds`) and saves /
replays (:mod:`hexwar.game.save`, ``mode = "lines"``).

Shape (the same as the hex game's action registry):

* :mod:`.state` -- :class:`~.state.LinesState`: ids and numbers only (lines, hands, decks,
  declared attacks, score);
* :mod:`.commands` -- frozen, JSON round-tripping commands, one per player action;
* :mod:`.actions` -- one module per action, each with ``check`` / ``apply`` / ``options``,
  registered in :data:`.actions.registry.ACTIONS`;
* :mod:`.events` -- typed frozen events (every roll is a :class:`~.events.RollMade`);
* :mod:`.turn` -- the phase machine of 000 (Begin Turn, Commitment, Combat, Draw, End Turn),
  2-player and 4-player teams;
* :mod:`.scenario` -- line scenarios (``mode = "lines"``) and deck files;
* :mod:`.ai` -- computer players for every seat.
"""
