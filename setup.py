"""Build hook: fill parley/engine/_native with the shared native build and the cffi module.

All metadata lives in pyproject.toml; this only adds the native step to ``build_py`` and marks
the wheel as platform-specific.
"""

import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "native"))
import build as native_build  # noqa: E402  (native/build.py, standard library only)


class BuildPyWithNative(build_py):
    def run(self) -> None:
        super().run()
        # An editable install imports parley from the checkout: fill the in-tree folder.
        if getattr(self, "editable_mode", False):
            dest = native_build.IN_TREE_DEST
        else:
            dest = Path(self.build_lib) / "parley" / "engine" / "_native"
        native_build.install_into(dest, native_build.Options.from_env())


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildPyWithNative}, distclass=BinaryDistribution)
