"""Settings from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", description="The bot's token from the Developer Portal.")
    database_path: str = Field(default="data/storyteller.db", description="The SQLite file.")
    #: when set, slash commands are synced to this guild at start-up (instant) instead of globally.
    dev_guild_id: int | None = None
    #: multiplies the theatrical pauses between reveal messages (0 turns them off).
    pause_scale: float = Field(default=1.0, ge=0, le=5)
    log_level: str = "INFO"
