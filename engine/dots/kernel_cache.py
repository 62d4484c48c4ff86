"""numba's on-disk cache for kernels that inline another module's kernels.

numba keys a cached kernel on its own source file only, but a kernel of
:mod:`engine.dots.search` (or :mod:`~engine.dots.forcing`, :mod:`~engine.dots.tactics`) has
the :mod:`engine.dots.fastboard` kernels it calls compiled into it: after an upgrade that
touched only ``fastboard.py``, the kept cache would go on running the old board rules.
:func:`depends_on` makes the cache's source stamp of a module's kernels cover the files it
inlines too, so a change to either recompiles. It must be called before the module's first
``@njit(cache=True)``; the cache stays where numba would put it (``NUMBA_CACHE_DIR``, the
``__pycache__`` next to the file, …).

It uses numba's cache locators (``numba.core.caching.CacheImpl._locator_classes``), the hook
numba itself offers for other ways to find and stamp a cache (``NUMBA_CACHE_LOCATOR_CLASSES``).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from numba.core import caching

# source file -> the files whose kernels it inlines
_DEPENDS: dict[str, tuple[str, ...]] = {}


def stamp(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The content hashes of ``paths``: the cache holds while every one is unchanged."""
    out = []
    for path in paths:
        with open(path, "rb") as f:
            out.append(hashlib.sha256(f.read()).hexdigest())
    return tuple(out)


class _Locator(caching._CacheLocator):
    """numba's own locator for the file, with a stamp over the file and what it inlines."""

    def __init__(self, base: Any, paths: tuple[str, ...]) -> None:
        self._base = base
        self._paths = paths

    def ensure_cache_path(self) -> None:
        self._base.ensure_cache_path()

    def get_cache_path(self) -> str:
        return str(self._base.get_cache_path())

    def get_source_stamp(self) -> tuple[object, tuple[str, ...]]:
        return (self._base.get_source_stamp(), stamp(self._paths))

    def get_disambiguator(self) -> str:
        return str(self._base.get_disambiguator())

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _Locator | None:
        paths = _DEPENDS.get(os.path.abspath(py_file))
        if paths is None:
            return None
        others: list[Any] = caching.CacheImpl._locator_classes
        for other in others:
            if other is cls:
                continue
            base = other.from_function(py_func, py_file)
            if base is not None:
                return cls(base, paths)
        return None


def depends_on(module_file: str, *inlined: str) -> None:
    """The kernels cached from ``module_file`` are stale when any of ``inlined`` changes."""
    _DEPENDS[os.path.abspath(module_file)] = tuple(os.path.abspath(p) for p in inlined)
    classes = caching.CacheImpl._locator_classes
    if _Locator not in classes:
        classes.insert(0, _Locator)
