"""The reliability suite: load, faults, bad input and attacks against real bot processes.

Short form by default (CI); the full form with ``TETRAD_FULL=1``.
"""
