"""``python -m bench``: every benchmark, one table, docs/PERFORMANCE.md (see bench/run.py)."""

from bench.run import main

raise SystemExit(main())
