"""Settings from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from typing import Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .shards import Shards


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", description="The bot's token from the Developer Portal.")
    database_path: str = Field(default="data/storyteller.db", description="The SQLite file.")
    #: a ``postgresql://user:password@host/db`` address puts the games in PostgreSQL instead of
    #: the SQLite file, so that several bot processes (shards) share them
    database_url: str = Field(default="", description="PostgreSQL's address; empty for the SQLite file.")
    #: how many shards the bot has in all (Discord requires sharding past 2,500 servers); empty:
    #: Discord's recommendation, every shard in this one process
    shard_count: int | None = Field(default=None, ge=1, le=100_000)
    #: the shards this process runs, such as ``0,1`` (with SHARD_COUNT): several processes split the
    #: shards between them, each owning its shards' servers' games; empty: every shard
    shard_ids: str = ""
    #: when set, slash commands are synced to this guild at start-up (instant) instead of globally.
    dev_guild_id: int | None = None
    #: sync the slash commands at start (only the process running shard 0, or every shard); off:
    #: run ``python -m bot sync`` once after installing or upgrading the bot
    sync_commands: bool = False
    #: on SIGTERM or SIGINT, how long the sends under way get to finish before the bot closes
    #: (what is not sent stays in the outbox for the next start)
    stop_grace_seconds: float = Field(default=5.0, ge=0, le=120)
    #: multiplies the theatrical pauses between reveal messages (0 turns them off).
    pause_scale: float = Field(default=1.0, ge=0, le=5)
    log_level: str = "INFO"
    #: FULL keeps every acknowledged action through a power cut or an OS crash; NORMAL is faster
    #: but can lose the last moments of play on a power cut (a crash of the bot alone loses nothing)
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "FULL"
    #: the first wait before a message Discord refused for now is sent again (it doubles each time)
    delivery_retry_seconds: float = Field(default=1.0, gt=0, le=60)
    #: the longest wait between two tries of a refused message
    delivery_retry_max_seconds: float = Field(default=300.0, gt=0, le=3600)
    #: how long after a phase's timeout failed (the database refused it) it is tried again
    timeout_retry_seconds: float = Field(default=5.0, gt=0, le=300)
    #: how often the safety sweep closes overdue phases and sends what is pending
    sweep_seconds: float = Field(default=60.0, ge=5, le=3600)
    #: how long delivered messages are kept in the outbox before they are pruned
    outbox_retention_days: float = Field(default=7.0, ge=0)
    #: the most calls per second the bot makes to Discord on its own (Discord allows 50 per token)
    discord_calls_per_second: float = Field(default=50.0, ge=1, le=10000)
    #: processes sharing the token (SHARD_IDS) share those calls through the database's token
    #: bucket, taking this many at a time: fewer database asks, but a lower rate (``bot.token_budget``)
    discord_calls_block: int = Field(default=5, ge=1, le=1000)
    #: the most calls to one channel (or DM, or thread) in ``channel_window_seconds``
    channel_calls: int = Field(default=5, ge=1, le=1_000_000)
    channel_window_seconds: float = Field(default=5.0, gt=0, le=60)
    #: a commit's consecutive channel messages go out as one message shown in at most this many
    #: steps (the first a send, the rest edits), cut at the longest of the game's pauses
    theatre_beats: int = Field(default=2, ge=1, le=10)
    #: a player's private message rides on their interaction of the last this-many seconds (an
    #: ephemeral follow-up, free of the budget) instead of a DM; 0 sends every one by DM.
    #: Discord keeps an interaction open for 15 minutes.
    ride_seconds: float = Field(default=840.0, ge=0, le=870)
    #: after start-up, freeze the heap out of the garbage collector's reach and collect less often
    #: (shorter pauses of the event loop with many tables)
    gc_freeze: bool = True
    #: the phases said aloud in a game's linked voice channel (where its table asked for it, the
    #: ``narrate`` option); off: the bot never joins a voice channel (it still mutes)
    voice_narration: bool = True
    #: only a pause of at least this many seconds is worth a beat of its own (an edit)
    theatre_cut_seconds: float = Field(default=3.0, ge=0, le=60)
    #: a living line that only counts (a ready count, a vote tally, a sign-up sheet) is edited at
    #: most once in this many seconds, with the newest text at the window's end; 0: every change
    living_edit_seconds: float = Field(default=3.0, ge=0, le=60)
    #: the port of ``/healthz`` and ``/metrics`` (bot.health); empty: no endpoint. 0: any free port
    health_port: int | None = Field(default=None, ge=0, le=65535)
    #: the address the endpoint listens on: loopback unless a monitor on another machine needs it
    health_host: str = "127.0.0.1"
    #: a client of the endpoint has this long to send a whole request (and an idle kept-alive
    #: connection is closed after it): a client trickling its headers is cut
    health_timeout_seconds: float = Field(default=10.0, gt=0, le=600)
    #: the most connections the endpoint keeps open at once; one more is closed at once
    health_connections: int = Field(default=16, ge=1, le=10000)
    #: ``text`` log lines, or ``json``: one object per line with the game, server, shard and action
    log_format: Literal["text", "json"] = "text"

    @field_validator("shard_count", "dev_guild_id", "health_port", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """``DEV_GUILD_ID=`` (as in .env.example) means "not set", not "not a number"."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_log_level(cls, value: object) -> object:
        """A level logging knows, in any case: refused here in words, not by logging's traceback."""
        if isinstance(value, str):
            value = value.strip().upper()
            if not isinstance(logging.getLevelName(value), int):
                raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_log_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        self.shards  # noqa: B018 - raises on a malformed SHARD_IDS
        return self

    @property
    def shard_id_list(self) -> list[int] | None:
        """SHARD_IDS as numbers (None: every shard)."""
        text = self.shard_ids.replace(" ", "")
        if not text:
            return None
        try:
            ids = sorted({int(part) for part in text.split(",")})
        except ValueError:
            raise ValueError(f"SHARD_IDS must be shard numbers separated by commas, such as 0,1 (not "
                             f"{self.shard_ids!r})") from None
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
        if any(i < 0 or i >= self.shard_count for i in ids):
            raise ValueError(f"SHARD_IDS must be numbers from 0 to {self.shard_count - 1} (SHARD_COUNT is "
                             f"{self.shard_count})")
        return ids

    @property
    def shards(self) -> Shards | None:
        """The shards this process owns the games of; None when it runs them all."""
        ids = self.shard_id_list
        if ids is None or self.shard_count is None or len(ids) == self.shard_count:
            return None
        return Shards(self.shard_count, frozenset(ids))


def _number(value: object) -> str:
    """5.0 as 5, 0.5 as 0.5."""
    return f"{value:g}" if isinstance(value, float) else str(value)


#: what a setting should be, by pydantic's error type (its context fills the braces)
_SHOULD = {
    "float_parsing": "a number",
    "float_type": "a number",
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "bool_parsing": "true or false (also 1 or 0, yes or no, on or off)",
    "bool_type": "true or false",
    "greater_than_equal": "at least {ge}",
    "greater_than": "more than {gt}",
    "less_than_equal": "at most {le}",
    "less_than": "less than {lt}",
    "literal_error": "{expected}",
    "string_type": "text",
}


def problems(error: ValidationError) -> list[str]:
    """One sentence in words for each setting ``error`` refuses, named as in .env
    (``SWEEP_SECONDS must be at least 5 (not '1').``), without pydantic's codes and links."""
    sentences = []
    for item in error.errors():
        name = "_".join(str(part) for part in item["loc"]).upper()
        ctx = {key: _number(value) for key, value in (item.get("ctx") or {}).items()}
        should = _SHOULD.get(item["type"])
        if item["type"] == "value_error" or should is None:
            words = str(ctx.get("error") or item["msg"]).removeprefix("Value error, ")
        else:
            words = f"{name or 'it'} must be {should.format(**ctx)}"
        words = words.rstrip(".")
        given = item.get("input")
        if name and not isinstance(given, dict) and "(not " not in words:
            words += f" (not {given!r})"
        sentences.append(f"{words}.")
    return sentences
