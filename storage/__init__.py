"""The only door to Redis: matches, chats, users, ratings, challenge tokens."""
