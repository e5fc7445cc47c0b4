-- Least privilege and signed heads.
--
-- The service runs as tilegames_app (service/store/db.py, SERVICE_ROLE): it may read
-- what it serves, create games, append events and move a game's head, and nothing
-- else. It owns no table, so it cannot disable the append-only triggers (ALTER TABLE
-- needs the owner), and it is no superuser, so it cannot set
-- session_replication_role = replica either. Migrations and the CLI's administrative
-- commands (keys, pruning) run as the owner, DATABASE_URL.
--
-- Roles belong to the whole server, not to one database: several databases of one
-- server (the tests make one per session) share the role and may create it at once.
DO $$
BEGIN
    CREATE ROLE tilegames_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;  -- made already, by an earlier database of this server or by the operator
END
$$;

GRANT USAGE ON SCHEMA public TO tilegames_app;
GRANT SELECT, INSERT ON events TO tilegames_app;
GRANT SELECT, INSERT ON idempotency_keys TO tilegames_app;
GRANT SELECT ON api_keys, schema_migrations TO tilegames_app;
GRANT SELECT, INSERT ON games TO tilegames_app;

-- The head's signature: HMAC-SHA256 of "<game_id>:<version>:<head_hash>" under a key the
-- database never holds (HEAD_SIGNING_KEY), so a rewrite of the log with recomputed
-- hashes, made with database rights alone, fails GET .../verify.
ALTER TABLE games ADD COLUMN head_signature text;

GRANT UPDATE (version, head_hash, head_signature, status, updated_at) ON games TO tilegames_app;
