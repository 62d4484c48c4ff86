"""Tests of the Sprouts positions, canonical forms, solver and tables."""
