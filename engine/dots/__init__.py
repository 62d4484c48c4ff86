"""Точки (Dots): rules engine, SGF and AI.

Import ``Game`` and ``Move`` from here; importing this package registers the game as kind
``"dots"`` (``engine.new("dots", width=20, height=20)``).
"""

from engine.dots.game import ILLEGAL_CODES, Base, Capture, Cell, Game, Move, Zone

__all__ = ["ILLEGAL_CODES", "Base", "Capture", "Cell", "Game", "Move", "Zone"]
