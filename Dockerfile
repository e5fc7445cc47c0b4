# syntax=docker/dockerfile:1
#
# Image for the tilegames rules service. Build from the repository root:
#
#     docker build -t tilegames-service:dev .
#
# Two stages:
#   builder  - a virtualenv in /opt/venv holding the third-party dependencies listed in
#              pyproject.toml ([project].dependencies). Only pyproject.toml is copied before
#              the install, so the dependency layer is rebuilt only when it changes.
#   runtime  - slim Python, the venv copied from the builder, and the code laid out in /app
#              exactly as in the repository (service/, migrations/, root-level config such as
#              a gunicorn config), so `python -m service.cli ...` resolves everything the same
#              way it does in a checkout. Files are owned by root and read-only to the app
#              user; the container runs as an unprivileged numeric UID.
#
# No credentials are baked in: DATABASE_URL (and any other secret) is given at run time.
# The image never relies on the embedded PostgreSQL the package can start for local runs:
# run it with a DATABASE_URL pointing at a real server.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

COPY pyproject.toml ./
# requirements.txt <- [project].dependencies of pyproject.toml (tomllib is in the stdlib).
RUN python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; open('requirements.txt', 'w').write(chr(10).join(deps) + chr(10))" \
    && pip install --requirement requirements.txt \
    && python -m compileall -q /opt/venv

# ---------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runtime

LABEL org.opencontainers.image.title="tilegames-service" \
      org.opencontainers.image.description="Rules-as-a-service REST API for board games"

ENV PATH=/opt/venv/bin:$PATH \
    VIRTUAL_ENV=/opt/venv \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    MIGRATIONS_DIR=/app/migrations \
    PORT=8000

# A fixed numeric UID/GID, so Kubernetes can verify runAsNonRoot (it cannot for a name).
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /nonexistent \
       --no-create-home --shell /usr/sbin/nologin app

COPY --from=builder /opt/venv /opt/venv

WORKDIR /app
# .dockerignore is an allow-list: only the code and files the service needs at run time
# reach this COPY (no .git, .venv, tests, local databases or .env files).
COPY . /app
RUN python -m compileall -q /app

USER 10001:10001

EXPOSE 8000

# curl is not in the slim image; python's urllib is. urlopen raises on any non-2xx answer.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=4)"]

CMD ["python", "-m", "service.cli", "serve"]
