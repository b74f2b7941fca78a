"""The simulation harness (issue 9): Monte Carlo of artillery drift and fire spread on real maps.

Pure and vectorized over trials; built on the game's own rule functions (``hexwar.rules``);
never imports pyglet. Modules:

* :mod:`~hexwar.sim.seeding` - per-trial streams from ``SeedSequence.spawn`` (batch-size independent)
* :mod:`~hexwar.sim.artillery` - :func:`~hexwar.sim.artillery.simulate_artillery`
* :mod:`~hexwar.sim.fire` - :func:`~hexwar.sim.fire.simulate_fire`
* :mod:`~hexwar.sim.fire_los` - lines of sight cut by fire
* :mod:`~hexwar.sim.exact` - exact landing distributions, building outcomes, fire closed forms and DP
* :mod:`~hexwar.sim.sweep` - parameter sweeps over seeds
* :mod:`~hexwar.sim.report` - tables, JSON and CSV
"""
