"""A local Telegram Bot API emulator with a web chat page (never imported by bot/)."""
