"""A metaclass that keeps a class an ordinary Python class under mypyc.

mypyc compiles the classes of the modules it compiles to native classes (fixed attribute
slots, no instance ``__dict__``, no subclasses written in Python) unless a class has a
metaclass of its own. :class:`scoring.engine.Features` uses this one: its :class:`lazy`
attributes live in the instance ``__dict__``, and rule sets (and tests) subclass it. The
methods of such a class are still compiled. This module itself is never compiled (a
subclass of ``type`` cannot be native); see mahjong_native.
"""

from __future__ import annotations

__all__ = ["PyClass"]


class PyClass(type):
    """The metaclass of classes that stay Python classes in the compiled build."""
