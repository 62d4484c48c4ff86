# Tetrad bot image: `tetrad run` (long polling, or webhook mode when WEBHOOK_URL is set).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# DejaVu covers Cyrillic for the board captions and labels.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY storage ./storage
COPY bot ./bot
COPY playground ./playground
COPY bench ./bench
RUN pip install . && useradd --create-home --uid 10001 tetrad
USER tetrad
# Рассада's drawing and picture kernels are compiled (numba) into the image, so no container
# pays the compiler at start-up (it only loads them: about half a second).
ENV NUMBA_CACHE_DIR=/home/tetrad/.cache/numba
RUN python -c "from bot.warmup import warm_engines; warm_engines()"

EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import os,sys,urllib.request; \
u=os.environ.get('WEBHOOK_URL') and f'http://127.0.0.1:{os.environ.get(\"PORT\",\"8080\")}/healthz'; \
sys.exit(0 if not u else urllib.request.urlopen(u, timeout=4).status != 200)"
ENTRYPOINT ["tetrad"]
CMD ["run"]
