"""sprouts engine (lands with its issue)."""
