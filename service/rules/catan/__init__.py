"""Catan: the board (:mod:`.board`), production on a roll (:mod:`.production`) and the
longest road (:mod:`.roads`), as pure functions on plain data. The decider builds on
these; Seafarers reuses them with sea hexes and ships."""
