"""The Eastern Front campaign (002, R11.2): card data, engine, odds, computer players, saves.

Pure: nothing here imports pyglet (the window lives in :mod:`hexwar.ui`).
"""
