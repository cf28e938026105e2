"""The game's options, declared once. ``Settings`` is the single declaration of every option the
rules read during play, as the state keeps them (the lengths in seconds); ``SetupOptions`` holds the
few read only when the table opens. ``Options``, what the Storytellers set when they open the table
(``/options`` words it), is made from the two: the setup ones, then every setting, a length in
seconds set in hours (``night_seconds`` is set as ``night_hours``, within its ``InHours`` bounds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo

from games.engine import SetupError

HOUR = 3600.0


@dataclass(frozen=True)
class InHours:
    """Marks a length the state keeps in seconds and the table sets in hours, from ``low`` to
    ``high`` hours (the bounds apply to the table's option only)."""

    low: float
    high: float


class SetupOptions(BaseModel):
    """The options read only when the table opens: the script, the pool, the Djinn (not kept in
    the state's ``Settings``)."""

    model_config = ConfigDict(extra="forbid")
    #: an imported script in the official Script Tool JSON ("" for Her Royal Highness Register)
    script: str = Field("", description="a base edition by name (Trouble Brewing, Bad Moon Rising, Sects & Violets) "
                        "or a script in the official Script Tool JSON (load one with /st script)",
                        json_schema_extra={"default_words": "the rulebook's script, Her Royal Highness Register"})
    pool: str = Field("", description="the characters the deal may use: all (the default), names separated by commas, "
                      "or only exclusions such as -baron,-po", json_schema_extra={"default_words": "all characters"})
    djinn: bool = Field(True, description="the Djinn is in play from the start (the rulebook: yes)")


class Settings(BaseModel):
    """The game's options that the rules read after the setup (lengths in seconds)."""

    model_config = ConfigDict(extra="forbid")
    marionette_neighbours: Literal["demon", "demon_or_recluse"] = Field(
        "demon", description="whom the Marionette sits beside: the Demon, or the Demon or the Recluse")
    minions_learn_marionette: bool = Field(
        False, description="whether the other Minions learn who the Marionette is (official rules: no)")
    # the cycle (the rulebook's lengths by default)
    night_seconds: Annotated[float, InHours(0.05, 168)] = Field(24 * HOUR, description="how long a night lasts")
    day_seconds: Annotated[float, InHours(0.05, 336)] = Field(48 * HOUR, description="how long a day lasts")
    nomination_seconds: Annotated[float, InHours(0.01, 336)] = Field(
        24 * HOUR, description="how long into the day new nominations may be made")
    announcement_seconds: Annotated[float, InHours(0.01, 336)] = Field(
        36 * HOUR, description="how long into the day public announcements count")
    lock_seconds: Annotated[float, InHours(0, 48)] = Field(
        2 * HOUR, description="how long before dawn night actions lock")
    reminder_seconds: Annotated[float, InHours(0, 48)] = Field(
        2 * HOUR, description="how long before the lock the acting players are reminded (0: no reminder)")
    # the readings of the voting rules (the README's Interpretations)
    dead_vote: Literal["at_close", "when_cast"] = Field(
        "at_close", description="when a dead player's vote token is spent: at_close (if their vote stands on a "
                                "nomination when voting closes) or when_cast (the moment they vote)")
    dead_no_execution_spends: bool = Field(
        False, description="whether a dead player's vote for no execution spends their token")
    one_nomination_per_day: bool = Field(
        False, description="whether a living player may nominate only once a day")
    no_execution_after_nominations: bool = Field(
        True, description="whether no execution may still be voted after nominations close")
    butler_vote: Literal["counts", "void"] = Field(
        "counts", description="a Butler's vote without its master's: counts (the wiki's advice, so the tally "
                              "never shows who the Butler is; the Storytellers are told) or void (counted 0 in "
                              "the public tally, which shows who the Butler is)")
    early_end: Literal["majority", "uncast"] = Field(
        "majority", description="when voting may end early: majority (every vote may still move) or uncast "
                                "(only votes not yet cast may change things)")
    exile_majority: Literal["half", "strict", "cast"] = Field(
        "half", description="the yes votes that exile a Traveller: half (at least half of all players, the "
                            "official rules), strict (more than half), or cast (more than half of the votes "
                            "cast, settled when the day ends)")
    exile_counts_travellers: bool = Field(
        True, description="whether Travellers count among the players for the exile majority")
    whisper_payer: Literal["declarer", "each"] = Field(
        "declarer", description="who pays for a whisper: the declarer only, or each player in it")
    announce_anywhere: bool = Field(
        False, description="whether whispers and announcements may also be made from the town square (the "
                           "rulebook: only in the announcement thread; the offline table has no thread to type in)")
    announcement_breaks_whisper: bool = Field(
        False, description="whether posting in the announcement thread breaks one's whispers")
    whisper_break: Literal["whole", "speaker"] = Field(
        "whole", description="what a public post breaks: the whole group whisper, or only the poster's place in it")
    neighbour_whisper: Literal["alive", "adjacent"] = Field(
        "alive", description="whom a neighbour whisper reaches: the nearest living player each side, or the "
                             "seats beside, alive or dead")
    virgin_day: Literal["quiet", "ends"] = Field(
        "quiet", description="after the Virgin's execution: quiet (no more votes; talk goes on until the "
                             "scheduled night) or ends (night falls at once)")
    goblin_claim: Literal["after_nomination", "any_time"] = Field(
        "after_nomination", description="which Goblin claims count: only after the claimant's nomination, or "
                                        "any time that day")
    alsaahir_guesses_per_day: int = Field(
        1, ge=0, le=20, description="how many Alsaahir guesses each player may announce a day (0: no limit)")
    po_silent_charges: bool = Field(
        False, description="whether a Po that submitted nothing is charged as if it chose no-one")
    soldier_safe_from_pukka: bool = Field(
        True, description="whether the Soldier is safe from the Pukka's poison (official rules: yes)")
    pukka_ravenkeeper: Literal["poisoned", "healthy"] = Field(
        "poisoned", description="how a Ravenkeeper the Pukka killed wakes: poisoned (official rules: its "
                                "information is yours to choose) or healthy")
    inform_at: Literal["dawn", "accept"] = Field(
        "dawn", description="when accepted night information reaches the player: at dawn (editable until "
                            "then) or at once")
    auto_inform: bool = Field(
        False, description="whether, at dawn, information nobody accepted is sent as proposed where nothing "
                           "is flagged (flagged information always waits for a Storyteller)")
    marionette_recluse_counts: Literal["first_night", "every_night"] = Field(
        "first_night", description="a Marionette beside the Recluse instead of the Demon counts for the "
                                   "Mathematician on the first night only, or every night")
    fiddle_seconds: Annotated[float, InHours(0.05, 168)] = Field(
        24 * HOUR, description="how long the town votes in a fiddle contest (the Fiddler), in hours")
    fiddler_tie: Literal["good", "evil"] = Field(
        "good", description="who wins a tied fiddle contest: good (the rulebook's tie rule) or evil (the "
                            "official Fiddler)")


def in_hours(info: FieldInfo) -> InHours | None:
    """The bounds in hours of a length the table sets in hours; None for any other setting."""
    return next((m for m in info.metadata if isinstance(m, InHours)), None)


def table_name(name: str, info: FieldInfo) -> str:
    """A setting's name at the table: ``night_seconds`` is set as ``night_hours``."""
    return name.removesuffix("_seconds") + "_hours" if in_hours(info) else name


def _table_fields() -> dict[str, Any]:
    """Every setting as the table sets it, in the same order; a length in hours within its bounds."""
    fields: dict[str, Any] = {}
    for name, info in Settings.model_fields.items():
        hours = in_hours(info)
        if hours:
            fields[table_name(name, info)] = (float, Field(info.default / HOUR, ge=hours.low, le=hours.high,
                                                           description=info.description))
        else:
            fields[name] = (info.annotation, info)
    return fields


#: what the Storytellers set when they open the table (lengths in hours)
Options = create_model("Options", __base__=SetupOptions, __module__=__name__,
                       __doc__="The table's options: the setup ones, then every setting (lengths in hours).",
                       **_table_fields())


def settings_of(options: SetupOptions) -> Settings:
    """The options the rules read during play, with the cycle checked to fit together."""
    hours = {name: getattr(options, name) for name in type(options).model_fields if name.endswith("_hours")}
    nomination, announcement, day = hours["nomination_hours"], hours["announcement_hours"], hours["day_hours"]
    if not nomination <= announcement <= day:
        raise SetupError(f"A day's nominations ({nomination:g} h) must close no later than its "
                         f"announcements ({announcement:g} h), and those no later than the day's "
                         f"end ({day:g} h).", code="bad_option")
    lock, reminder, night = hours["lock_hours"], hours["reminder_hours"], hours["night_hours"]
    if lock + reminder >= night:
        raise SetupError(f"The lock ({lock:g} h before dawn) and the reminder ({reminder:g} h "
                         f"before it) must fit inside the night ({night:g} h).", code="bad_option")
    values = {}
    for name, info in Settings.model_fields.items():
        value = getattr(options, table_name(name, info))
        values[name] = value * HOUR if in_hours(info) else value
    return Settings(**values)
