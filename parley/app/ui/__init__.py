"""Widgets and windows; no engine calls and no background work here."""
