"""The engines' compiled kernels, loaded before the bot takes its first update; and the
objects of start-up set aside from the garbage collector."""

from __future__ import annotations

import gc
import logging
import time

log = logging.getLogger(__name__)


def warm_engines() -> None:
    """Рассада's drawing steps and its picture's kernels are compiled (numba): the first time
    on an install that costs tens of seconds of CPU, afterwards about half a second to load
    from the cache. Either way it happens at start-up, not inside the first move someone
    plays or the first picture."""
    from engine.sprouts.paper import warm
    from render.sprouts import warm as warm_picture

    start = time.perf_counter()
    warm()
    warm_picture()
    log.info("Рассада drawing kernels ready in %.1f s", time.perf_counter() - start)


def freeze_start_up() -> None:
    """Set every object alive now (the imported libraries, the compiled kernels: some 150,000
    of them) aside from the cyclic garbage collector: they live as long as the process. A full
    collection walks every object it tracks, and with them it took 50–200 ms, landing now and
    then inside a tap (or a route), which set the p99 of a tap's CPU. Called once start-up is
    done, in the bot process and in each worker."""
    gc.collect()
    gc.freeze()
