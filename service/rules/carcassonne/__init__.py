"""Carcassonne, the base game (first edition, 72 tiles), as a decider.

``CARCASSONNE`` is the :class:`~service.rules.core.Ruleset` registered as
``"carcassonne"``. Layout: :mod:`.state` (state and ``evolve``), :mod:`.game` (the
decider), :mod:`.scoring` (what features are worth), :mod:`.modules` (hook points for
expansions), :mod:`.base` (the base game as a module), :mod:`.bots` (bots and
``play_game``), ``data/base.json`` (the tiles).
"""

from service.rules.carcassonne.game import CARCASSONNE, Carcassonne

__all__ = ["CARCASSONNE", "Carcassonne"]
