"""The map model layer (DESIGN.md "model"): hex geometry, terrain, maps and line of sight.

Modules: :mod:`.hexgrid` (Hex, Layout, labels, R2), :mod:`.terrain` (terrain and wreck
definitions, R2.5, R8.1), :mod:`.maps` (BattleMap and its files), :mod:`.los` (exact
integer LOS with its numpy fast path, R3) and :mod:`.los_exact` (the shapely reference).
Nothing here imports pyglet, the rules, the game or the UI.
"""
