"""The engines' compiled kernels, loaded before the bot takes its first update; and the end
of each process's start-up (:func:`settle`): its objects set aside from the garbage
collector, freed picture-sized buffers kept for reuse."""

from __future__ import annotations

import ctypes
import gc
import logging
import time

from PIL import Image

log = logging.getLogger(__name__)


def warm_engines() -> None:
    """Рассада's drawing steps and its picture's kernels are compiled (numba): the first time
    on an install that costs tens of seconds of CPU, afterwards about half a second to load
    from the cache. Either way it happens at start-up, not inside the first move someone
    plays or the first picture. The Dots search's kernels too (:func:`warm_ai`)."""
    from engine.sprouts.paper import warm
    from render.sprouts import warm as warm_picture

    start = time.perf_counter()
    warm()
    warm_picture()
    log.info("Рассада drawing kernels ready in %.1f s", time.perf_counter() - start)
    warm_ai()


def warm_ai() -> None:
    """The Dots tree search's kernels (its board, playouts, forcing lines): compiled once
    per install (about a minute of CPU), then loaded from numba's cache in about a second.
    Each AI worker runs this before its first move, so no move waits for the compiler."""
    from engine.dots.search import warm

    start = time.perf_counter()
    warm()
    log.info("Dots search kernels ready in %.1f s", time.perf_counter() - start)


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
    Image.core.set_blocks_max(PILLOW_BLOCKS)
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
