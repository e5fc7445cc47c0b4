"""Carcassonne South Seas as a decider, on the Carcassonne-family tiling machinery.

``SOUTH_SEAS`` is the :class:`~service.rules.core.Ruleset` registered as
``"carcassonne-south-seas"``. Layout: :mod:`.content` (tiles and ships from data),
:mod:`.ships` (ship demands and deliveries), :mod:`.state` (state and ``evolve``),
:mod:`.evaluation` (what features give), :mod:`.game` (the decider: its decisions,
the one check per rule behind both its handlers and its menus), :mod:`.bots` (the
bots); ``data/tiles.json`` and ``data/ships.json`` hold the provisional components.
"""

from service.rules.south_seas.game import SOUTH_SEAS, SouthSeas

__all__ = ["SOUTH_SEAS", "SouthSeas"]
