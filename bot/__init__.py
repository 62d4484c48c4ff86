"""The Tetrad bot: the Telegram-free match layer and the python-telegram-bot adapter."""
