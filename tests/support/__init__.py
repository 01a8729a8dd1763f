"""What tests share: fake servers, tiny models, the virtual microphone, X11 and privilege helpers.

No tests here; test modules import these, never each other.  The bench scripts and
``packaging/screenshot.py`` import them too, as ``tests.support.*``: pytest puts the repository
on the path (``pythonpath`` in pyproject.toml), and ``./setup.sh`` (every mode but ``start``)
puts it on the development venv's path (``parley-source-tree.pth``), so no script edits
``sys.path``.  Never part of a wheel: the wheel ships ``parley`` only."""
