"""python-telegram-bot handlers, keyboards and serving."""
