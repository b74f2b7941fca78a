"""File formats in and out of hexwar: JSON Schemas, migrations, Tiled and Wesnoth maps (issue 19).

- :mod:`hexwar.formats.schema`: the JSON Schema (draft 2020-12) documents shipped in
  ``schemas/`` and a checker that reports problems by file and field path.
- :mod:`hexwar.formats.migrate`: ``schema_version`` upgrades, one function per version step.
- :mod:`hexwar.formats.tiled`: Tiled TMX/TMJ hexagonal maps, import and export.
- :mod:`hexwar.formats.wesnoth`: Wesnoth ``.map`` import.
"""
