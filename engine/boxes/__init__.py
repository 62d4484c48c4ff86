"""boxes engine (lands with its issue)."""
