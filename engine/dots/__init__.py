"""dots engine (lands with its issue)."""
