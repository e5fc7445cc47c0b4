"""Command line: ``serve``, ``migrate``, ``keys create|revoke|list``, ``prune-idempotency``,
``sweep-clocks``, ``deliver-webhooks``, ``prune-webhooks``, ``openapi``, ``play``.

With no ``DATABASE_URL`` the commands that need a database start the embedded
PostgreSQL under ``var/`` (see :mod:`service.store.embedded`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg


@contextmanager
def database_url(cleanup_mode: str | None = "stop"):
    """The configured URL, or the embedded server's (started and kept for this process)."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url, None
        return
    from service.store import embedded

    server = embedded.start(cleanup_mode=cleanup_mode)
    yield server.get_uri(), server


def migrate_as_owner(url: str) -> list[str]:
    """Apply pending migrations as the owner and, given ``APP_DATABASE_URL``, make the
    service role log in with it (see :mod:`service.store.roles`)."""
    from service.store.migrate import migrate
    from service.store.roles import ensure_service_login

    applied = migrate(url)
    if os.environ.get("APP_DATABASE_URL"):
        print(ensure_service_login(url, os.environ["APP_DATABASE_URL"]), flush=True)
    return applied


def cmd_migrate(args: argparse.Namespace) -> int:
    from service.store.roles import ServiceLoginError

    with database_url() as (url, _):
        try:
            applied = migrate_as_owner(url)
        except ServiceLoginError as exc:
            print(exc, file=sys.stderr)
            return 1
    print("applied: " + (", ".join(applied) if applied else "nothing (up to date)"))
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    try:
        return _keys(args)
    except psycopg.errors.UndefinedTable:
        print(
            "keys: this database has no schema yet: run `python -m service.cli migrate`"
            " (`make run` migrates as it starts) first",
            file=sys.stderr,
        )
        return 2


def _keys(args: argparse.Namespace) -> int:
    from service.store import keys

    with database_url() as (url, _), psycopg.connect(url) as conn:
        if args.action == "create":
            key, plaintext = keys.create_key(conn, args.name)
            print(f"created key {key.id} ({key.name}); store it now, it is not shown again:")
            print(plaintext)
        elif args.action == "revoke":
            if not keys.revoke_key(conn, args.id):
                print(f"no active key {args.id}", file=sys.stderr)
                return 1
            print(f"revoked {args.id}")
        else:
            for key in keys.list_keys(conn):
                state = f"revoked {key.revoked_at:%Y-%m-%d}" if key.revoked_at else "active"
                print(f"{key.id}\t{key.name}\t{key.created_at:%Y-%m-%d %H:%M}\t{state}")
    return 0


def cmd_prune_idempotency(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from service.store.events import EventStore

    with database_url() as (url, _), psycopg.connect(url) as conn:
        removed = EventStore().prune_idempotency(conn, timedelta(hours=args.older_than_hours))
    print(f"removed {removed} idempotency records older than {args.older_than_hours} h")
    return 0


def cmd_deliver_webhooks(args: argparse.Namespace) -> int:
    """Send webhook deliveries in the foreground, as the service's role, beside (or
    instead of, with WEBHOOK_WORKER=0) the threads of the service's processes."""
    import signal
    import threading

    from service.api import delivery_policy, ruleset_lookup, secret_seal
    from service.app.delivery import DeliveryWorker
    from service.config import Settings
    from service.store import Database

    with database_url() as (url, server):
        if server is not None:
            _dev_secrets()
        settings = Settings(database_url=url)
        db = Database(settings.service_database_url(), max_size=settings.webhook_batch + 1)
        lookup, _names = ruleset_lookup(settings.load_extra_rulesets())
        worker = DeliveryWorker(db, lookup, delivery_policy(settings), secret_seal(settings))
        try:
            if args.once:
                sent = 0
                while claimed := worker.run_once():
                    sent += claimed
                print(f"sent {sent} deliveries")
                return 0
            stop = threading.Event()
            for signum in (signal.SIGINT, signal.SIGTERM):
                signal.signal(signum, lambda *_: stop.set())
            print("delivering webhooks (Ctrl-C to stop)", flush=True)
            worker.run(stop)
        finally:
            db.close()
    return 0


def cmd_seal_webhook_secrets(_args: argparse.Namespace) -> int:
    """Seal, under WEBHOOK_SECRETS_KEY, the webhook secrets stored before it was set."""
    from service.api import secret_seal
    from service.app.webhooks import seal_stored_secrets
    from service.config import Settings

    with database_url() as (url, server):
        if server is not None:
            _dev_secrets()
        seal = secret_seal(Settings(database_url=url))
        if seal is None:
            print("WEBHOOK_SECRETS_KEY is not set: nothing to seal with", file=sys.stderr)
            return 2
        with psycopg.connect(url) as conn:
            sealed = seal_stored_secrets(conn, seal)
    print(f"sealed {sealed} webhook secrets")
    return 0


def cmd_prune_webhooks(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from service.store import webhooks

    with database_url() as (url, _), psycopg.connect(url) as conn:
        removed = webhooks.prune(conn, timedelta(hours=args.older_than_hours))
    print(
        f"removed {removed} delivered or failed webhook deliveries older than"
        f" {args.older_than_hours} h"
    )
    return 0


def cmd_sweep_clocks(args: argparse.Namespace) -> int:
    """Apply the timeouts due in clocked games that nobody reads or moves; once, or every
    ``--every`` seconds until stopped (docs/matches.md, "Clocks")."""
    import time

    from service.api import create_app
    from service.config import Settings

    # As the API pods: with only APP_DATABASE_URL (the Helm chart's sweeper), the service
    # role applies the timeouts and no owner credentials are needed.
    with serving_database(migrate=False) as (url, server):
        if url is not None:
            os.environ["DATABASE_URL"] = url
        if server is not None:
            _dev_secrets()  # sign the heads it writes with the local service's key
        settings = Settings()
        if not settings.head_signing_key:
            print(
                "HEAD_SIGNING_KEY is not set: the heads of the games this sweep times out"
                " are written unsigned; if the service signs heads, give the sweeper its key"
                " too, or verify will call those games invalid",
                file=sys.stderr,
                flush=True,
            )
        games = create_app(settings).extensions["tilegames"].games
        while True:
            applied = games.sweep_clocks(args.limit)
            print(f"applied {applied} timeouts", flush=True)
            if not args.every:
                return 0
            time.sleep(args.every)


def _dev_key(url: str) -> None:
    """On an empty embedded database, create a development key and print it."""
    from service.store import keys

    with psycopg.connect(url) as conn:
        if keys.count_keys(conn):
            return
        _, plaintext = keys.create_key(conn, "development")
    path = Path("var") / "dev-api-key"
    path.parent.mkdir(exist_ok=True)
    path.touch(mode=0o600)
    path.chmod(0o600)  # readable by this user only, as the keys beside it
    path.write_text(plaintext + "\n")
    print(f"\n  development API key: {plaintext}\n  (also saved in {path})\n", flush=True)


def _dev_secret(variable: str, filename: str) -> None:
    """With the embedded database and no ``variable`` set, use a key kept in var/ beside
    the database (created once, readable by this user only), so that a local service
    reads what it signed (HEAD_SIGNING_KEY) or sealed (WEBHOOK_SECRETS_KEY) across
    restarts."""
    if os.environ.get(variable):
        return
    import secrets

    path = Path("var") / filename
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.touch(mode=0o600)
        path.write_text(secrets.token_hex(32) + "\n")
    os.environ[variable] = path.read_text().strip()


def _dev_secrets() -> None:
    _dev_secret("HEAD_SIGNING_KEY", "head-signing-key")
    _dev_secret("WEBHOOK_SECRETS_KEY", "webhook-secrets-key")


@contextmanager
def serving_database(migrate: bool):
    """The owner's URL (configured or embedded) and the embedded server, as
    :func:`database_url`; or, where only ``APP_DATABASE_URL`` is given (the Helm
    chart's API pods, which never hold the owner's credentials), no owner at all."""
    if os.environ.get("APP_DATABASE_URL") and not os.environ.get("DATABASE_URL"):
        if migrate:
            raise SystemExit(
                "serve: migrating needs the owner's DATABASE_URL; with only APP_DATABASE_URL"
                " run with --no-migrate (AUTO_MIGRATE=0) and migrate separately"
            )
        yield None, None
        return
    with database_url() as found:
        yield found


@contextmanager
def _metrics_directory() -> Iterator[None]:
    """One /metrics over all gunicorn workers: each writes its samples into
    ``PROMETHEUS_MULTIPROC_DIR``, a temporary directory that the master removes on its
    way out, unless the operator names one. (A worker leaves through this block too,
    forked inside it: it must leave the directory to the others.)"""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        yield
        return
    import shutil
    import tempfile

    directory, master = tempfile.mkdtemp(prefix="tilegames-metrics-"), os.getpid()
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
    try:
        yield
    finally:
        if os.getpid() == master:
            del os.environ["PROMETHEUS_MULTIPROC_DIR"]
            shutil.rmtree(directory, ignore_errors=True)


def cmd_serve(args: argparse.Namespace) -> int:
    from gunicorn.app.base import BaseApplication

    with _metrics_directory(), serving_database(args.migrate) as (url, server):
        if url is not None:
            os.environ["DATABASE_URL"] = url
        if args.migrate:
            migrate_as_owner(url)
        if server is not None:
            _dev_key(url)
            _dev_secrets()
        if not os.environ.get("HEAD_SIGNING_KEY"):
            print("  HEAD_SIGNING_KEY is not set: game heads will not be signed", flush=True)
        if not os.environ.get("WEBHOOK_SECRETS_KEY"):
            print(
                "  WEBHOOK_SECRETS_KEY is not set: webhook secrets are stored unsealed",
                flush=True,
            )

        class Server(BaseApplication):
            def load_config(self) -> None:
                from service import gunicorn_conf

                for name, value in vars(gunicorn_conf).items():
                    if name in self.cfg.settings and value is not None:
                        self.cfg.set(name, value)
                if args.bind:
                    self.cfg.set("bind", args.bind)
                if args.workers:
                    self.cfg.set("workers", args.workers)

            def load(self) -> Any:
                from service.api.wsgi import app

                return app

        from service.gunicorn_conf import default_bind

        print(f"serving on http://{args.bind or default_bind()}", flush=True)
        Server().run()
    return 0


def cmd_openapi(args: argparse.Namespace) -> int:
    import yaml

    from service.api import create_app
    from service.config import Settings

    app = create_app(Settings(database_url="postgresql:///openapi-only"))
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    sys.stdout.write(yaml.safe_dump(spec, sort_keys=True, allow_unicode=True, width=100))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Bot-only games in process (no database), with a progress bar over the games."""
    import secrets
    import time

    from service.rules import InvalidOptions, get_ruleset
    from service.rules.play import MAX_COMMANDS, NoEnd, play_game

    ruleset = get_ruleset(args.ruleset)
    if ruleset is None:
        print(f"unknown ruleset {args.ruleset}", file=sys.stderr)
        return 2
    bots = (args.bots or ruleset.bots[0]).split(",")
    unknown = sorted(set(bots) - set(ruleset.bots))
    if unknown:
        print(f"{ruleset.name} has no bot {unknown[0]!r} (bots: {ruleset.bots})", file=sys.stderr)
        return 2
    seats = [bots[i % len(bots)] for i in range(args.seats)]
    try:
        options = json.loads(args.options)
        ruleset.normalize_options(options)
    except (ValueError, InvalidOptions) as exc:
        print(f"bad --options: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    show_progress = args.progress and sys.stderr.isatty()
    wins = [0] * len(seats)
    endless = 0
    started = time.perf_counter()
    for game in range(args.games):
        if show_progress:
            done = 30 * game // args.games
            print(
                f"\r[{'#' * done}{'.' * (30 - done)}] {game}/{args.games}", end="", file=sys.stderr
            )
        seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(32)
        try:
            events, state = play_game(ruleset, options, len(seats), seed, seats)
        except NoEnd:
            endless += 1
            told = f"no end after {MAX_COMMANDS:,} commands (seed {seed.hex()}): these bots"
            told += " may never reach its end"
        else:
            result = ruleset.result(state)
            for winner in result.get("winners", []):
                wins[winner] += 1
            told = f"{result} (seed {seed.hex()}, {len(events)} events)"
        if show_progress:
            print("\r" + " " * 50 + "\r", end="", file=sys.stderr)
        print(f"game {game + 1}: seats {seats} -> {told}")
    seconds = time.perf_counter() - started
    tally = ", ".join(f"seat {i} ({bot}) {wins[i]}" for i, bot in enumerate(seats))
    unfinished = f"; {endless} without an end" if endless else ""
    print(f"{args.games} games in {seconds:.2f} s; wins (ties count for each): {tally}{unfinished}")
    return 1 if endless else 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="tilegames", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the API under gunicorn")
    serve.add_argument(
        "--bind", help="host:port (default $BIND, else 0.0.0.0:$PORT, else 127.0.0.1:8000)"
    )
    serve.add_argument("--workers", type=int, help="gunicorn workers")
    serve.add_argument(
        "--no-migrate",
        dest="migrate",
        action="store_false",
        help="do not migrate at start (also AUTO_MIGRATE=0, as the Helm chart's pods run)",
    )
    serve.set_defaults(func=cmd_serve, migrate=os.environ.get("AUTO_MIGRATE", "1") != "0")

    sub.add_parser("migrate", help="apply pending SQL migrations").set_defaults(func=cmd_migrate)

    keys = sub.add_parser("keys", help="manage API keys")
    keys_sub = keys.add_subparsers(dest="action", required=True)
    create = keys_sub.add_parser("create")
    create.add_argument("name")
    revoke = keys_sub.add_parser("revoke")
    revoke.add_argument("id")
    keys_sub.add_parser("list")
    keys.set_defaults(func=cmd_keys)

    prune = sub.add_parser(
        "prune-idempotency",
        help="forget idempotency records past their retention (run it periodically)",
    )
    prune.add_argument(
        "--older-than-hours", type=float, default=24.0, help="retention in hours (default 24)"
    )
    prune.set_defaults(func=cmd_prune_idempotency)

    deliver = sub.add_parser(
        "deliver-webhooks",
        help="send webhook deliveries in the foreground (WEBHOOK_* settings, see README)",
    )
    deliver.add_argument(
        "--once", action="store_true", help="send what is due now, then exit (e.g. from cron)"
    )
    deliver.set_defaults(func=cmd_deliver_webhooks)

    sub.add_parser(
        "seal-webhook-secrets",
        help="seal the webhook secrets stored before WEBHOOK_SECRETS_KEY was set (as owner)",
    ).set_defaults(func=cmd_seal_webhook_secrets)

    prune_hooks = sub.add_parser(
        "prune-webhooks",
        help="forget delivered and failed webhook deliveries past their retention",
    )
    prune_hooks.add_argument(
        "--older-than-hours", type=float, default=24.0 * 7, help="retention (default 168 h)"
    )
    prune_hooks.set_defaults(func=cmd_prune_webhooks)

    sweep = sub.add_parser(
        "sweep-clocks", help="apply the timeouts due in clocked games nobody touches"
    )
    sweep.add_argument("--every", type=float, default=0, help="repeat every N seconds")
    sweep.add_argument("--limit", type=int, default=1000, help="games looked at per sweep")
    sweep.set_defaults(func=cmd_sweep_clocks)

    sub.add_parser("openapi", help="print the OpenAPI document").set_defaults(func=cmd_openapi)

    play = sub.add_parser("play", help="play bot-only games locally and print the results")
    play.add_argument("--ruleset", default="carcassonne", help="a ruleset name (see /v1/rulesets)")
    play.add_argument("--seats", type=int, default=2, help="how many seats (default 2)")
    play.add_argument("--bots", help="comma-separated bot names, cycled over seats")
    play.add_argument(
        "--options",
        default="{}",
        help='game options as JSON, e.g. \'{"expansions": ["river", "inns_cathedrals"]}\'',
    )
    play.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    play.add_argument("--seed", help="hex seed, for a reproducible game")
    play.add_argument("--no-progress", dest="progress", action="store_false")
    play.set_defaults(func=cmd_play)

    bench = sub.add_parser("bench", help="see bench/service_bench.py")
    bench.set_defaults(func=lambda _a: print("run: python bench/service_bench.py --help") or 0)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
