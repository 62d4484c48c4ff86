"""Pillow renderers for the three games (pure functions of game and view)."""
