"""Parley's desktop application: controllers, background work, persistence and settings."""
