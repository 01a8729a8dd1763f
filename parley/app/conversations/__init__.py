"""Conversations: the model of messages and replies, the SQLite store, the book of conversations.

Imports the engine's errors and app/tasks; the views follow these."""
