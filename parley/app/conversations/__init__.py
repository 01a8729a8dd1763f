"""Conversations: the model of messages and replies, the SQLite store, the book of conversations.

Imports the engine's errors, app/tasks and app/take_purpose; the views follow these."""
