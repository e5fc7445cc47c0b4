"""Hexagonal boards (Catan and its expansions): coordinates, canonical corner and edge
names, and per-board adjacency tables. See :mod:`.geometry`."""
