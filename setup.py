"""setuptools hook for the compiled modules (everything else is in pyproject.toml).

``pip install .`` compiles the hot-path modules with mypyc when a C compiler is there and
installs the pure Python otherwise; see mahjong_native/build.py.
"""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mahjong_native.build import OptionalBuildExt, extensions

setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
