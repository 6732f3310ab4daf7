"""`intentgate`: serve, config, db upgrade, keys create|list|revoke, credits grant."""

# Each command imports what it uses, inside it: `config` needs no store and the key, credit and db commands
# no service, whose import alone takes over a second of CPU that every call would wait for.
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.limits import RATE_TIERS, SCOPES
from engine.numbers import parse_decimal
from gateway.config import ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from storage import Database


class CliError(Exception):
    """A command could not do what was asked; printed without a traceback, exit status 2."""


def _store_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="data directory (default .intentgate)")
    parser.add_argument("--database-url", help="postgresql://... (default: SQLite in the data directory)")
    parser.add_argument("--config", type=Path, help="TOML configuration file")


# Most credits one command grants: far above any real grant, far below what storage integers hold.
MAX_CREDITS = 10**12


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`, read bounded (engine.numbers)."""

    def parse(text: str) -> int:
        try:
            number = parse_decimal(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if number != number.to_integral_value() or not low <= number <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}")
        return int(number)

    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="intentgate", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the gateway and its background workers")
    _store_options(serve)
    serve.add_argument("--host")
    serve.add_argument("--port", type=_whole_number(0, 65535))
    serve.add_argument("--role", choices=["all", "api", "workers"])
    serve.add_argument("--devnet", action="store_true", default=None, help="run offline on local chains")

    config = commands.add_parser("config", help="print the effective configuration, secrets redacted")
    _store_options(config)

    db = commands.add_parser("db", help="storage administration")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    _store_options(db_commands.add_parser("upgrade", help="apply pending migrations"))

    keys = commands.add_parser("keys", help="API keys")
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    create = key_commands.add_parser("create", help="create a key (printed once)")
    _store_options(create)
    create.add_argument("--tenant", required=True)
    create.add_argument("--tier", choices=sorted(RATE_TIERS))
    create.add_argument("--scopes", default=",".join(SCOPES), help="comma-separated: plan,agents")
    create.add_argument(
        "--credits", type=_whole_number(0, MAX_CREDITS), default=0, help="credits to grant the tenant"
    )
    create.add_argument("--json", action="store_true")
    listing = key_commands.add_parser("list", help="list keys (never the keys themselves)")
    _store_options(listing)
    listing.add_argument("--tenant")
    listing.add_argument("--json", action="store_true")
    revoke = key_commands.add_parser("revoke", help="revoke a key by id")
    _store_options(revoke)
    revoke.add_argument("key_id")

    credits = commands.add_parser("credits", help="credit balances")
    credit_commands = credits.add_subparsers(dest="credits_command", required=True)
    grant = credit_commands.add_parser("grant", help="grant credits to a tenant")
    _store_options(grant)
    grant.add_argument("--tenant", required=True)
    grant.add_argument("--amount", type=_whole_number(1, MAX_CREDITS), required=True)
    return parser


def settings_from(args: argparse.Namespace) -> Settings:
    flags = {
        name: getattr(args, name, None)
        for name in ("data_dir", "database_url", "host", "port", "role", "devnet")
    }
    return load_settings(flags, config_file=getattr(args, "config", None))


def _open_store(settings: Settings) -> Database:
    from gateway.store import open_database

    db = open_database(settings)
    db.upgrade()
    return db


def cmd_db_upgrade(settings: Settings) -> int:
    from gateway.store import open_database

    db = open_database(settings)
    before = db.revision()
    db.upgrade()
    after = db.revision()
    if before == after:
        print(f"storage is already at the latest migration ({after})")
    else:
        print(f"storage upgraded from {before or 'an empty store'} to {after}")
    return 0


def cmd_serve(settings: Settings) -> int:
    import signal

    import trio

    from gateway.app import create_app
    from gateway.logs import configure_logging
    from gateway.service import (
        PortUnavailable,
        bind_listener,
        prepare,
        serve,
        settle_heap,
        tune_gc_for_serving,
    )

    listener = None
    if settings.role in ("all", "api"):
        try:
            listener = bind_listener(settings)
        except PortUnavailable as exc:
            raise CliError(str(exc)) from None
    configure_logging(settings.log_format, settings.log_level)
    services = prepare(settings)
    services.listener = listener
    app = create_app(services)
    run: Callable[..., Awaitable[None]] = serve
    if settings.devnet:
        # The CLI is where the offline devnet is composed around the service (nothing else imports it).
        from devnet.serve import serve_devnet

        run = serve_devnet
    tune_gc_for_serving()
    services.after_load = settle_heap

    async def main() -> None:
        shutdown = trio.Event()
        async with trio.open_nursery() as nursery:

            async def on_signals() -> None:
                with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                    async for signum in signals:
                        print(
                            f"received {signal.Signals(signum).name}; finishing in-flight requests",
                            flush=True,
                        )
                        shutdown.set()
                        return

            nursery.start_soon(on_signals)
            binds = await nursery.start(
                lambda task_status: run(services, app, shutdown=shutdown, say=_say, task_status=task_status)
            )
            for bind in binds:
                print(f"intentgate serving on {bind} (role {settings.role})", flush=True)
            await shutdown.wait()
        print("intentgate stopped", flush=True)

    try:
        trio.run(main)
    except BaseExceptionGroup as group:
        # The devnet failing to start is the operator's to fix (install anvil): say so without a traceback.
        failed = _devnet_failure(group) if settings.devnet else None
        if failed is None:
            raise
        raise CliError(f"--devnet could not start: {failed}") from None
    finally:
        services.db.dispose()
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def _devnet_failure(group: BaseExceptionGroup) -> Exception | None:
    from devnet.mode import DevnetUnavailable

    found: BaseException | None = group.subgroup(DevnetUnavailable)
    while isinstance(found, BaseExceptionGroup):
        found = found.exceptions[0]
    return found if isinstance(found, Exception) else None


def cmd_keys_create(settings: Settings, args: argparse.Namespace) -> int:
    from storage import accounts

    scopes = tuple(s.strip() for s in args.scopes.split(",") if s.strip())
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown or not scopes:
        raise CliError(f"--scopes must be a comma-separated subset of {','.join(SCOPES)}")
    if args.credits < 0:
        raise CliError("--credits must be zero or positive")
    db = _open_store(settings)

    def create(conn: Any) -> tuple[str, accounts.ApiKey, int]:
        tenant = accounts.ensure_tenant(conn, args.tenant, args.tier)
        key, record = accounts.create_key(conn, tenant, scopes)
        balance = accounts.grant_credits(conn, tenant.id, args.credits) if args.credits else tenant.balance
        return key, record, balance

    key, record, balance = db.transaction(create)
    if args.json:
        out = {
            "tenant": args.tenant,
            "key_id": record.id,
            "key": key,
            "tier": record.tier,
            "scopes": list(scopes),
            "credits": balance,
        }
        print(json.dumps(out))
    else:
        print(
            f"API key for tenant {args.tenant} (tier {record.tier}, scopes {','.join(scopes)}), shown once:"
        )
        print(key)
        print(f"key id: {record.id}   credits: {balance}")
    return 0


def cmd_keys_list(settings: Settings, args: argparse.Namespace) -> int:
    from storage import accounts

    keys = _open_store(settings).transaction(accounts.list_keys, args.tenant)
    rows: list[dict[str, Any]] = [
        {
            "id": k.id,
            "tenant": k.tenant_name,
            "tier": k.tier,
            "scopes": list(k.scopes),
            "prefix": k.prefix,
            "created_at": k.created_at,
            "revoked_at": k.revoked_at,
        }
        for k in keys
    ]
    if args.json:
        print(json.dumps(rows))
        return 0
    for row in rows:
        state = "revoked" if row["revoked_at"] else "active"
        print(
            f"{row['id']}  {row['tenant']:<20} {row['tier']:<9} {','.join(row['scopes']):<12} {row['prefix']}…  {state}"
        )
    return 0


def cmd_keys_revoke(settings: Settings, args: argparse.Namespace) -> int:
    from storage import accounts

    if not _open_store(settings).transaction(accounts.revoke_key, args.key_id):
        raise CliError(f"no active key with id {args.key_id}")
    print(f"revoked {args.key_id}")
    return 0


def cmd_credits_grant(settings: Settings, args: argparse.Namespace) -> int:
    from storage import accounts

    db = _open_store(settings)

    def grant(conn: Any) -> int:
        tenant = accounts.get_tenant_by_name(conn, args.tenant)
        if tenant is None:
            raise CliError(f"no tenant named {args.tenant}")
        try:
            return accounts.grant_credits(conn, tenant.id, args.amount)
        except accounts.AccountError as exc:
            raise CliError(str(exc)) from None

    print(f"tenant {args.tenant} balance: {db.transaction(grant)}")
    return 0


def run(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = settings_from(args)
    if args.command == "config":
        print(json.dumps(settings.redacted(), indent=2, sort_keys=True))
        return 0
    # Every other command opens the store: one it cannot reach, or that refuses, is the operator's to fix.
    from storage import StorageError

    try:
        return _run_with_store(settings, args)
    except StorageError as exc:
        raise CliError(str(exc)) from None


def _run_with_store(settings: Settings, args: argparse.Namespace) -> int:
    if args.command == "serve":
        return cmd_serve(settings)
    if args.command == "db":
        return cmd_db_upgrade(settings)
    if args.command == "keys":
        handlers = {"create": cmd_keys_create, "list": cmd_keys_list, "revoke": cmd_keys_revoke}
        return handlers[args.keys_command](settings, args)
    return cmd_credits_grant(settings, args)


def main(argv: Sequence[str] | None = None) -> None:
    try:
        code = run(argv)
    except (CliError, ConfigError) as exc:
        print(f"intentgate: {exc}", file=sys.stderr)
        code = 2
    sys.exit(code)
