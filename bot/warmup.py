"""The engines' compiled kernels, loaded before the bot takes its first update; and the end
of each process's start-up (:func:`settle`): its objects set aside from the garbage
collector, freed picture-sized buffers kept for reuse."""

from __future__ import annotations

import ctypes
import gc
import importlib
import logging
import os
import time
from typing import Any

from PIL import _imaging as pillow_core  # Image.core, which Image does not re-export

log = logging.getLogger(__name__)


# The modules whose numba kernels warm_engines loads (or compiles).
KERNEL_MODULES = ("engine.sprouts.tidy_core", "render.sprouts_core")
# Точки's search (the hard and expert levels: compiled here, loaded by the AI workers), and
# the forcing prover and exact search that judge its puzzles and lessons in this process.
DOTS_KERNEL_MODULES = (
    "engine.dots.fastboard",
    "engine.dots.search",
    "engine.dots.forcing",
    "engine.dots.tactics",
)


def warm_engines(dots: bool = True) -> bool:
    """Рассада's drawing steps and its picture's kernels are compiled (numba): the first time
    on an install that costs some 20 s of CPU, afterwards about half a second to load from
    the cache. Either way it happens at start-up, not inside the first move someone plays or
    the first picture. With ``dots``, Точки's kernels too (47 s of CPU to compile the search,
    7 s the puzzles' and lessons' provers): the AI workers then load them from the cache.
    Returns whether anything was compiled (numba's own count)."""
    from engine.sprouts.paper import warm
    from render.sprouts import warm as warm_picture

    start = time.perf_counter()
    warm()
    warm_picture()
    modules = KERNEL_MODULES + (DOTS_KERNEL_MODULES if dots else ())
    if dots:
        warm_dots()
    compiled = any(d.stats.cache_misses for d in _kernels(modules))
    log.info(
        "Рассада drawing%s kernels %s in %.1f s",
        " and Точки search" if dots else "",
        "compiled" if compiled else "loaded from the cache",
        time.perf_counter() - start,
    )
    return compiled


def warm_dots() -> None:
    """Точки's kernels (:data:`DOTS_KERNEL_MODULES`), compiled or loaded."""
    from engine.dots import forcing, search, tactics

    search.warm()
    forcing.warm()
    tactics.warm()


def kernels_cached() -> bool:
    """Whether numba's cache holds every Рассада kernel for these sources and this machine,
    so that :func:`warm_engines` loads them rather than compiles them: start-up says
    "compiling" only when it will. False where that cannot be told."""
    try:
        return all(_cached(d) for d in _kernels())
    except Exception:  # numba's cache internals (not a public API) changed: assume not
        log.debug("numba's cache could not be read", exc_info=True)
        return False


def _kernels(modules: tuple[str, ...] = KERNEL_MODULES) -> list[Any]:
    """The numba dispatchers of ``modules`` (importing them compiles nothing)."""
    from numba.core.dispatcher import Dispatcher

    return [
        d
        for name in modules
        for d in vars(importlib.import_module(name)).values()
        if isinstance(d, Dispatcher)
    ]


def _cached(dispatcher: Any) -> bool:
    """A cache entry for this kernel that numba would load: its index is of this numba and
    of the source file as it is now (numba checks its size and time), an entry's key holds
    this machine's code generator and the function's current bytecode, and the entry's
    data file exists. The same checks as numba's ``Cache.load_overload``."""
    cache = dispatcher._cache
    index = cache._cache_file._load_index()  # {} when missing, stale or of another numba
    codegen = dispatcher.targetctx.codegen()
    return any(
        cache._index_key(key[0], codegen) == key
        and os.path.exists(os.path.join(cache.cache_path, data_name))
        for key, data_name in index.items()
    )


# glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 16 << 20  # blocks this big or bigger are still mapped apart
TRIM_THRESHOLD = 64 << 20  # free memory at the heap's top kept for the next picture
PILLOW_BLOCKS = 16  # freed image blocks Pillow keeps for the next picture


def keep_buffers() -> None:
    """Let freed picture-sized buffers be reused instead of returned to the system. A picture
    is 1.5 MB (and its PNG rows as much again); glibc hands out blocks over 128 KB as fresh
    mappings and unmaps them when freed, and Pillow frees its image memory at once, so every
    picture took some 700 page faults (~1.2 µs each here: 0.8 ms of a picture's 10). Kept on
    the heap, the pages are reused: 79,000 faults over 150 Рассада taps became 8,000. Where
    the C library is not glibc, only Pillow's part applies."""
    pillow_core.set_blocks_max(PILLOW_BLOCKS)
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except AttributeError:
        return
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)


def settle() -> None:
    """The end of a process's start-up: :func:`keep_buffers` and :func:`freeze_start_up`."""
    keep_buffers()
    freeze_start_up()


def freeze_start_up() -> None:
    """Set every object alive now (the imported libraries, the compiled kernels: some 150,000
    of them) aside from the cyclic garbage collector: they live as long as the process. A full
    collection walks every object it tracks, and with them it took 50–200 ms, landing now and
    then inside a tap (or a route), which set the p99 of a tap's CPU. Called once start-up is
    done, in the bot process and in each worker."""
    gc.collect()
    gc.freeze()
