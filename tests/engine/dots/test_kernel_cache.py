"""numba's cache of a kernel that inlines another module's kernel: stale once that module
changes, with :func:`engine.dots.kernel_cache.depends_on` (without it numba goes on running
the old code, which is why it exists)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.dots import fastboard, forcing, search, tactics
from engine.dots.kernel_cache import _Locator, stamp

CALLER = """
from numba import njit
import inner
{hook}
@njit(cache=True)
def outer():
    return inner.value() * 10
print(outer())
"""
INNER = "from numba import njit\n@njit(cache=True)\ndef value():\n    return {v}\n"


def _run(folder: Path, hook: bool, v: int) -> int:
    (folder / "inner.py").write_text(INNER.format(v=v))
    line = "from engine.dots.kernel_cache import depends_on\ndepends_on(__file__, inner.__file__)"
    (folder / "caller.py").write_text(CALLER.format(hook=line if hook else ""))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, str(folder / "caller.py")], env=env, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return int(out.split()[-1])


def test_a_change_to_the_inlined_module_recompiles_the_caller(tmp_path: Path) -> None:
    plain, hooked = tmp_path / "plain", tmp_path / "hooked"
    plain.mkdir()
    hooked.mkdir()
    assert _run(plain, False, 1) == 10 and _run(hooked, True, 1) == 10
    assert _run(plain, False, 2) == 10  # numba alone: the caller's cache still runs value 1
    assert _run(hooked, True, 2) == 20


def test_the_search_kernels_are_stamped_with_the_board() -> None:
    board = stamp((fastboard.__file__,))
    kernels: list[Any] = [search.run, search.playout, forcing._met, tactics._score]
    for kernel in kernels:
        locator = kernel._cache._impl.locator
        assert isinstance(locator, _Locator)
        assert locator.get_source_stamp()[1] == board
