"""Parley on the desktop beyond its own window: one instance per conversation database."""
