"""The terminal table for every game: :mod:`.session` (a game being played: record, autosave,
undo), :mod:`.terminal` (the one play loop, shared commands and end of game) and one screen per
game (:mod:`.stars`, :mod:`.freight`, :mod:`.market`), plus :mod:`.narrate` for replays and
:mod:`.freight_board` for the Freight board picture."""
