"""Search players (issue 31): the shared determinized-search framework (:mod:`.core`) and each
mode's ``hard`` player built on it (:mod:`.lines` for the card game on lines, :mod:`.hexgame`
for the hex game). See DESIGN.md, computer players."""
