"""Effective configuration: defaults < TOML file < INTENTGATE_* environment < command-line flags."""

from __future__ import annotations

import math
import os
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from engine.numbers import check_int, parse_decimal

ENV_PREFIX = "INTENTGATE_"
CONFIG_FILENAME = "intentgate.toml"
# Fields whose values never leave the process: `intentgate config` and logs print them redacted.
SECRET_FIELDS = frozenset({"master_key", "llm_api_key", "price_api_key"})
REDACTED = "***"


class ConfigError(Exception):
    """The configuration cannot be used; the message names the setting."""


# Largest magnitude of a numeric setting: far above every timeout, size and count the service takes.
MAX_SETTING = 10**12


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535)
    data_dir: Path = Path(".intentgate")
    role: Literal["all", "api", "workers"] = "all"
    database_url: str | None = None
    devnet: bool = False
    log_format: Literal["auto", "json", "text"] = "auto"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # Request bodies above this are refused with 413 payload_too_large.
    max_body_bytes: int = Field(1_048_576, ge=1024)
    # An answer sent before its request body was read waits this long for the body to arrive (so the
    # connection can be kept alive), else it closes the connection.
    body_drain_s: float = Field(2.0, ge=0, le=60)
    # In-flight requests get this long to finish after SIGINT/SIGTERM before they are cancelled.
    graceful_timeout_s: float = Field(10.0, ge=0)
    # A key's lookup is cached this long; a revocation takes effect within it.
    auth_cache_s: float = Field(5.0, ge=0)
    # The development tenant created on the first start of an empty store: its rate tier (one of the
    # contract's) and its credits. A developer's curl exploration and the dashboard's refreshes stay far
    # inside both: 600 requests a minute, and 1,000,000 credits are 200,000 metered calls.
    dev_tenant_tier: Literal["beta", "standard", "high"] = "high"
    dev_tenant_credits: int = Field(1_000_000, ge=0)
    db_pool_size: int = Field(10, ge=1, le=200)
    # Chain access: JSON-RPC endpoints per chain slug.
    rpc_urls: dict[str, str] = Field(default_factory=dict)
    # Where rpc_urls (or across_api_url) names none, plan against the chain's public endpoint from the
    # registry (and Across's public API): keyless and rate limited, a start, not a production setup.
    public_upstreams: bool = True
    rpc_timeout_s: float = Field(10.0, gt=0)
    # Market data and yields (CoinGecko- and DefiLlama-compatible HTTP APIs); unset: not used.
    price_api_url: str | None = None
    price_api_key: str | None = None
    price_api_plan: Literal["demo", "pro"] = "demo"
    # Across's suggested-fees API (https://app.across.to in production); unset: Across bridges answer 503.
    across_api_url: str | None = None
    quote_timeout_s: float = Field(10.0, gt=0)
    yields_api_url: str | None = None
    # Optional OpenAI-compatible planner backend.
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    # Which planner answers POST /intent: the deterministic parser, or the model above.
    intent_backend: Literal["deterministic", "llm"] = "deterministic"
    # Which compiler reads plain-English POST /agents and PATCH requests: the deterministic one, or the model
    # above restating the request for it.
    agents_backend: Literal["deterministic", "llm"] = "deterministic"
    # Seconds the model endpoint may take to start answering, and between two lines of its stream.
    llm_timeout_s: float = Field(20.0, gt=0)
    # Webhooks.
    master_key: str | None = None
    delivery_tick_s: float = Field(120.0, gt=0)
    webhook_allow_networks: list[str] = Field(default_factory=list)
    webhook_ca_bundle: Path | None = None
    # Watchers: check intervals (contract Events rule 4: about every 5 minutes, portfolio hourly),
    # agent.degraded after this many failed checks in a row, leases shared by worker replicas.
    watch_market_interval_s: float = Field(300.0, gt=0)
    watch_portfolio_interval_s: float = Field(3600.0, gt=0)
    watch_degraded_after: int = Field(3, ge=1)
    watch_poll_s: float = Field(15.0, gt=0)
    watch_lease_s: float = Field(900.0, gt=0)
    watch_batch: int = Field(500, ge=1, le=10_000)
    # This replica's lease name; unset: host:pid.
    watch_worker_name: str | None = None
    yields_ttl_s: float = Field(240.0, ge=0)
    # Optional Binance-compatible ticker stream (wss:// root) and its symbol -> coingecko id map.
    ticker_stream_url: str | None = None
    ticker_symbols: dict[str, str] = Field(default_factory=dict)
    # Webhooks: a file holding the master key (else master_key, else one created in data_dir).
    master_key_file: Path | None = None
    # A leased delivery stays reserved this long; it must outlast webhook_timeout_s (the outbox checks).
    delivery_lease_s: float = Field(60.0, gt=0)
    # Per-attempt deadline; contract: "2xx within 10 s", so it can only be shortened.
    webhook_timeout_s: float = Field(10.0, gt=0, le=10.0)
    # Attempts in flight per endpoint, and in all, per worker process.
    webhook_endpoint_concurrency: int = Field(16, ge=1, le=1000)
    webhook_max_in_flight: int = Field(128, ge=1, le=10_000)
    # Fixed host -> comma-separated addresses for webhook delivery (devnet receivers); the send-time
    # address check still applies.
    webhook_static_hosts: dict[str, str] = Field(default_factory=dict)
    # Receivers on this machine (a loopback address or localhost) over http, or https with the certificate
    # unverified: for the devnet, which turns it on; never in production.
    webhook_local_receivers: bool = False
    # Streams: seconds between heartbeats on an idle event stream, and events a stream may have
    # queued before it counts as lagging (it then catches up from storage).
    stream_heartbeat_s: float = Field(15.0, gt=0)
    stream_queue_size: int = Field(256, ge=1, le=100_000)
    # Seconds a live frame waits for its event's remedy plan (0: frames never wait and carry none).
    stream_remedy_hold_s: float = Field(10.0, ge=0, le=120)

    @field_validator("*", mode="before")
    @classmethod
    def _bounded_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        # Numbers come from TOML, the environment and flags: read them bounded (engine.numbers) before
        # pydantic converts them, so no numeric setting is infinite, NaN or a thousand digits long.
        field = cls.model_fields[info.field_name] if info.field_name else None
        if field is None or field.annotation not in (int, float) or isinstance(value, bool):
            return value
        if isinstance(value, str):
            number = parse_decimal(value)  # ValueError for "inf", "nan" and anything else not a number
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError("must be a finite number")
            number = Decimal(repr(value))
        elif isinstance(value, int):
            number = Decimal(check_int(value))
        else:
            return value
        if abs(number) > MAX_SETTING:
            raise ValueError(f"must be at most {MAX_SETTING:.0e} in magnitude")
        return value

    def redacted(self) -> dict[str, Any]:
        """The settings as plain data with every secret replaced, safe to print or log."""
        data = self.model_dump(mode="json")
        for name in SECRET_FIELDS:
            if data.get(name):
                data[name] = REDACTED
        if data.get("database_url"):
            data["database_url"] = redact_url(data["database_url"])
        return data


def redact_url(url: str) -> str:
    """Hide the password of scheme://user:password@host/..."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    userinfo, _, host = rest.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return f"{scheme}://{user}:{REDACTED}@{host}" if ":" in userinfo else url


def _from_env(environ: dict[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX) or name == ENV_PREFIX + "CONFIG":
            continue
        key = name[len(ENV_PREFIX) :].lower()
        if "__" in key:  # dict settings: INTENTGATE_RPC_URLS__BASE=https://...
            field, _, sub = key.partition("__")
            values.setdefault(field, {})[sub] = raw
        elif key in Settings.model_fields:
            annotation = str(Settings.model_fields[key].annotation)
            values[key] = [p for p in raw.split(",") if p] if annotation.startswith("list") else raw
    return values


def load_settings(
    flags: dict[str, Any] | None = None,
    *,
    config_file: Path | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Merge the configuration sources; raises ConfigError naming the bad setting."""
    environ = dict(os.environ) if environ is None else environ
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    env_values = _from_env(environ)
    if config_file is None and environ.get(ENV_PREFIX + "CONFIG"):
        config_file = Path(environ[ENV_PREFIX + "CONFIG"])
    if config_file is None:
        data_dir = Path(flags.get("data_dir") or env_values.get("data_dir") or Settings().data_dir)
        candidate = data_dir / CONFIG_FILENAME
        config_file = candidate if candidate.is_file() else None
    file_values: dict[str, Any] = {}
    if config_file is not None:
        try:
            file_values = tomllib.loads(config_file.read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"config file {config_file.name}: {exc}") from exc
    merged: dict[str, Any] = {**file_values}
    for source in (env_values, flags):
        for key, value in source.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"invalid configuration: {problems}") from None
