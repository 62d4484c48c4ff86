"""The Mini App: an adapter beside bot/telegram on the bot's aiohttp server.

``auth`` checks the signed launch data Telegram gives the page; ``state`` is what the page
is shown of a match; ``server`` the routes (the page, the JSON API, the live channel). Moves
go through :func:`bot.telegram.act.act`, the path of a button tap.
"""
