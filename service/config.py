"""Settings from the environment (twelve-factor): one place lists every knob."""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field

from service.rules.core import Ruleset


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


@dataclass(frozen=True)
class Settings:
    #: PostgreSQL URL; the CLI fills it with the embedded server's when unset
    database_url: str = field(default_factory=lambda: _env("DATABASE_URL", ""))
    db_pool_max: int = field(default_factory=lambda: int(_env("DB_POOL_MAX", "10")))
    db_pool_timeout: float = field(default_factory=lambda: float(_env("DB_POOL_TIMEOUT", "5")))
    #: per-credential limit, flask-limiter syntax
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
    state_cache_size: int = field(default_factory=lambda: int(_env("STATE_CACHE_SIZE", "512")))
    max_body_bytes: int = field(default_factory=lambda: int(_env("MAX_BODY_BYTES", "1048576")))
    #: browser origins allowed to call the API (CORS), comma-separated; "*" for any
    cors_origins: frozenset[str] = field(
        default_factory=lambda: frozenset(
            o.strip() for o in _env("CORS_ORIGINS", "").split(",") if o.strip()
        )
    )

    def load_extra_rulesets(self) -> list[Ruleset]:
        found = []
        for spec in filter(None, (s.strip() for s in self.extra_rulesets.split(","))):
            module, _, attribute = spec.partition(":")
            found.append(getattr(importlib.import_module(module), attribute))
        return found
