"""Every folder Parley keeps files in, each overridable from the environment (tests, portable use).

- ``config_dir()``: the settings file (``PARLEY_CONFIG_DIR``);
- ``data_dir()``: what the user would miss: the conversations, the record of Parley's downloads,
  the single-instance lock (``PARLEY_DATA_DIR``);
- ``cache_dir()``: what Parley can make again: converted models, measured speeds, the device
  trials, the portal's permission token (``PARLEY_CACHE_DIR``; ``native/build.py`` keeps the
  native build under the same root, and reads the variable itself since it builds Parley);
- ``models_cache_dir()``: the converted models and unpacked model packs, inside the cache;
- ``runtime_dir()``: the user's runtime folder (the running app's socket), never overridden.

Folders are named, not created: whoever writes into one makes it.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "parley"


def config_dir() -> Path:
    override = os.environ.get("PARLEY_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    override = os.environ.get("PARLEY_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    override = os.environ.get("PARLEY_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def models_cache_dir() -> Path:
    return cache_dir() / "models"


def runtime_dir() -> Path:
    return Path(platformdirs.user_runtime_dir(APP_NAME, appauthor=False))
