"""The application's settings from the environment (twelve-factor). The server's own
(``BIND``, ``PORT``, ``WEB_CONCURRENCY``, ``THREADS``, ``WORKER_TIMEOUT``) are read by
``service/gunicorn_conf.py``, ``REQUEST_READ_TIMEOUT`` by ``service/api/framing.py``;
the README's *Configuration* lists them all."""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field

from service.rules.core import Ruleset
from service.store.db import service_url


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


@dataclass(frozen=True)
class Settings:
    #: PostgreSQL URL of the schema's owner (migrations, the CLI); the CLI fills it with
    #: the embedded server's when unset
    database_url: str = field(default_factory=lambda: _env("DATABASE_URL", ""))
    #: the service's own connection, as the least-privileged role; derived from
    #: ``database_url`` (same server, user ``tilegames_app``, no password) when unset
    app_database_url: str = field(default_factory=lambda: _env("APP_DATABASE_URL", ""))
    #: the secret that signs each game's head hash (never stored in the database);
    #: empty: heads are not signed and ``verify`` says so
    head_signing_key: str = field(default_factory=lambda: _env("HEAD_SIGNING_KEY", ""))
    #: the secret that seals webhook endpoints' secrets at rest (never stored in the
    #: database; service/app/sealing.py); empty: they are stored as they are
    webhook_secrets_key: str = field(default_factory=lambda: _env("WEBHOOK_SECRETS_KEY", ""))
    db_pool_max: int = field(default_factory=lambda: int(_env("DB_POOL_MAX", "10")))
    db_pool_timeout: float = field(default_factory=lambda: float(_env("DB_POOL_TIMEOUT", "5")))
    #: seconds any one statement of the service may take, lock waits included, before
    #: PostgreSQL cancels it and the request gets 503; 0 for no limit
    db_statement_timeout: float = field(
        default_factory=lambda: float(_env("DB_STATEMENT_TIMEOUT", "5"))
    )
    #: per-caller limit, in the `limits` library's syntax ("6000 per minute")
    rate_limit: str = field(default_factory=lambda: _env("RATE_LIMIT", "6000 per minute"))
    #: memory:// per process; redis://host:6379 to share limits across replicas
    ratelimit_storage_uri: str = field(
        default_factory=lambda: _env("RATELIMIT_STORAGE_URI", "memory://")
    )
    log_level: str = field(default_factory=lambda: _env("LOG_LEVEL", "INFO"))
    #: extra rulesets to serve, "module:attribute" comma-separated (plugins, test games)
    extra_rulesets: str = field(default_factory=lambda: _env("EXTRA_RULESETS", ""))
    sse_poll_seconds: float = field(default_factory=lambda: float(_env("SSE_POLL_SECONDS", "5")))
    sse_max_seconds: float = field(default_factory=lambda: float(_env("SSE_MAX_SECONDS", "600")))
    #: event streams one credential (API key or seat token) may have open per process
    sse_streams_per_credential: int = field(
        default_factory=lambda: int(_env("SSE_STREAMS_PER_CREDENTIAL", "20"))
    )
    state_cache_size: int = field(default_factory=lambda: int(_env("STATE_CACHE_SIZE", "512")))
    #: "0": every request goes through Flask; else the moves, states and legal moves
    #: of plain requests are answered by service/api/fast.py in front of it
    fast_path: bool = field(default_factory=lambda: _env("FAST_PATH", "1") != "0")
    max_body_bytes: int = field(default_factory=lambda: int(_env("MAX_BODY_BYTES", "1048576")))
    #: browser origins allowed to call the API (CORS), comma-separated; "*" for any
    cors_origins: frozenset[str] = field(
        default_factory=lambda: frozenset(
            o.strip() for o in _env("CORS_ORIGINS", "").split(",") if o.strip()
        )
    )

    #: "0": no webhook delivery thread in the service's processes (run
    #: ``python -m service.cli deliver-webhooks`` instead)
    webhook_worker: bool = field(default_factory=lambda: _env("WEBHOOK_WORKER", "1") != "0")
    #: "1": webhooks may go to this machine's loopback, over http:// too (tests,
    #: development); else only to public internet addresses over https://
    webhook_allow_loopback: bool = field(
        default_factory=lambda: _env("WEBHOOK_ALLOW_LOOPBACK", "0") == "1"
    )
    #: seconds one webhook POST may take
    webhook_timeout: float = field(default_factory=lambda: float(_env("WEBHOOK_TIMEOUT", "10")))
    #: seconds a claimed delivery stays with its worker before another may send it
    webhook_lease: float = field(default_factory=lambda: float(_env("WEBHOOK_LEASE", "60")))
    webhook_max_attempts: int = field(
        default_factory=lambda: int(_env("WEBHOOK_MAX_ATTEMPTS", "15"))
    )
    #: seconds before the second attempt, doubled for each one after, up to the max
    webhook_backoff: float = field(default_factory=lambda: float(_env("WEBHOOK_BACKOFF", "5")))
    webhook_backoff_max: float = field(
        default_factory=lambda: float(_env("WEBHOOK_BACKOFF_MAX", "3600"))
    )
    #: deliveries one worker sends at once
    webhook_batch: int = field(default_factory=lambda: int(_env("WEBHOOK_BATCH", "4")))
    #: seconds an idle worker waits before it looks for due deliveries again
    webhook_poll: float = field(default_factory=lambda: float(_env("WEBHOOK_POLL", "1")))

    def service_database_url(self) -> str:
        return self.app_database_url or service_url(self.database_url)

    def load_extra_rulesets(self) -> list[Ruleset]:
        found = []
        for spec in filter(None, (s.strip() for s in self.extra_rulesets.split(","))):
            module, _, attribute = spec.partition(":")
            found.append(getattr(importlib.import_module(module), attribute))
        return found
