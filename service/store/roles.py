"""The service role's login: ``migrate`` makes ``APP_DATABASE_URL`` work.

Migration 0004 creates :data:`SERVICE_ROLE` without a password, which is all a server
that trusts local connections needs (the embedded one, the tests'). A server that asks
for passwords needs the role to have the one in ``APP_DATABASE_URL``. The migration
step (the Helm chart's Job, which holds both URLs) sets it, so an operator gives the
two URLs and nothing else. The password is sent already hashed (libpq's
``PQencryptPasswordConn``, with the server's ``password_encryption``), so it never
appears in plain text in a statement or the server's log.
"""

from __future__ import annotations

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from service.store.db import SERVICE_ROLE


class ServiceLoginError(Exception):
    """The service role cannot log in with its URL and the owner cannot fix that."""


def can_log_in(url: str) -> bool:
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.OperationalError:
        return False
    return True


def ensure_service_login(owner_url: str, app_url: str) -> str:
    """Make ``app_url`` (the service's URL) log in, setting :data:`SERVICE_ROLE`'s
    password from it as the owner if needed; return what was done, in words."""
    params = conninfo_to_dict(app_url)
    password = str(params.get("password") or "")
    if params.get("user") != SERVICE_ROLE or not password:
        return f"APP_DATABASE_URL is not {SERVICE_ROLE} with a password: left as it is"
    if can_log_in(app_url):
        return f"{SERVICE_ROLE} logs in with APP_DATABASE_URL"
    with psycopg.connect(owner_url, autocommit=True) as conn:
        hashed = conn.pgconn.encrypt_password(password.encode(), SERVICE_ROLE.encode())
        try:
            conn.execute(
                sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                    sql.Identifier(SERVICE_ROLE), sql.Literal(hashed.decode())
                )
            )
        except psycopg.errors.InsufficientPrivilege as exc:
            raise ServiceLoginError(
                f"{SERVICE_ROLE} cannot log in with APP_DATABASE_URL and the owner may not"
                f" set its password ({exc}); set it as a superuser:"
                f" ALTER ROLE {SERVICE_ROLE} PASSWORD '...'"
            ) from exc
    if not can_log_in(app_url):
        raise ServiceLoginError(
            f"{SERVICE_ROLE} has the password of APP_DATABASE_URL and still cannot log in:"
            " check the URL's host and database, and the server's pg_hba.conf"
        )
    return f"{SERVICE_ROLE}'s password set from APP_DATABASE_URL"
