"""Machinery shared by the Carcassonne family of tile-laying games.

- :mod:`.geometry`: sides, ports (half-sides), rotation, coordinates, neighbours;
- :mod:`.tiles`: feature kinds and tile types loaded and validated from data files;
- :mod:`.board`: placed tiles, the frontier of open positions, placement legality;
- :mod:`.features`: incremental connected features (union-find);
- :mod:`.scoring`: majorities with figure weights;
- :mod:`.state`: the state fields every game keeps, and how a drawn, set-aside or
  placed tile changes them;
- :mod:`.turns`: the draw, set-aside and place-tile steps of a turn.

Nothing here knows a particular game: feature kinds, scores and turn structure belong
to the game packages (``service.rules.carcassonne``, ``service.rules.south_seas``).
"""
