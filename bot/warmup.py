"""The engines' compiled kernels, loaded before the bot takes its first update."""

from __future__ import annotations

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
