"""File formats in and out of hexwar: typed models, schemas, migrations, Tiled and Wesnoth maps (issues 19, 34).

- :mod:`hexwar.formats.scenario_file`, :mod:`hexwar.formats.save_file`: the hex scenario and the
  save as typed models (the map's is :mod:`hexwar.model.map_file`).
- :mod:`hexwar.formats.protocol_file`: the network protocol's messages as typed models.
- :mod:`hexwar.formats.schema`: the JSON Schema (draft 2020-12) of each kind, generated from its
  model, and a checker that reports problems by file and field path.
- :mod:`hexwar.formats.migrate`: ``schema_version`` upgrades, one function per version step.
- :mod:`hexwar.formats.tiled`: Tiled TMX/TMJ hexagonal maps, import and export.
- :mod:`hexwar.formats.wesnoth`: Wesnoth ``.map`` import.
"""
