"""The game's options, declared once: ``Options`` is what the Storytellers set when they open the
table (in hours, with the words ``/options`` shows); ``Settings`` is made from it and kept in the
state: every option the rules read during play, the lengths in seconds.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from games.engine import SetupError

HOUR = 3600.0


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: an imported script in the official Script Tool JSON ("" for Her Royal Highness Register)
    script: str = Field("", description="a script in the official Script Tool JSON (load one with /st script)",
                        json_schema_extra={"default_words": "the rulebook's script, Her Royal Highness Register"})
    pool: str = Field("", description="the characters the deal may use: all (the default), names separated by commas, "
                      "or only exclusions such as -baron,-po", json_schema_extra={"default_words": "all characters"})
    marionette_neighbours: Literal["demon", "demon_or_recluse"] = Field(
        "demon", description="whom the Marionette sits beside: the Demon, or the Demon or the Recluse")
    minions_learn_marionette: bool = Field(
        False, description="whether the other Minions learn who the Marionette is (official rules: no)")
    djinn: bool = Field(True, description="the Djinn is in play from the start (the rulebook: yes)")
    # the cycle, in hours (the rulebook's lengths by default)
    night_hours: float = Field(24, ge=0.05, le=168, description="how long a night lasts")
    day_hours: float = Field(48, ge=0.05, le=336, description="how long a day lasts")
    nomination_hours: float = Field(24, ge=0.01, le=336,
                                    description="how long into the day new nominations may be made")
    announcement_hours: float = Field(36, ge=0.01, le=336,
                                      description="how long into the day public announcements count")
    lock_hours: float = Field(2, ge=0, le=48, description="how long before dawn night actions lock")
    reminder_hours: float = Field(2, ge=0, le=48,
                                  description="how long before the lock the acting players are reminded (0: no reminder)")
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
    fiddle_hours: float = Field(
        24, ge=0.05, le=168, description="how long the town votes in a fiddle contest (the Fiddler), in hours")
    fiddler_tie: Literal["good", "evil"] = Field(
        "good", description="who wins a tied fiddle contest: good (the rulebook's tie rule) or evil (the "
                            "official Fiddler)")


#: the options read only when the table opens (the script, the pool, the Djinn): not kept in ``Settings``
SETUP_ONLY = ("script", "pool", "djinn")


def _settings_fields() -> dict[str, Any]:
    """Every option but the setup-only ones, in the same order; ``X_hours`` becomes ``X_seconds``."""
    fields: dict[str, Any] = {}
    for name, info in Options.model_fields.items():
        if name in SETUP_ONLY:
            continue
        if name.endswith("_hours"):
            fields[name.removesuffix("_hours") + "_seconds"] = (float, info.default * HOUR)
        else:
            fields[name] = (info.annotation, info.default)
    return fields


#: the options the rules read after the setup (lengths in seconds), as the state stores them
Settings = create_model("Settings", __config__=ConfigDict(extra="forbid"), __module__=__name__,
                        __doc__="The game's options that the rules read after the setup (lengths in seconds).",
                        **_settings_fields())


def settings_of(options: Options) -> Any:
    """The options the rules read during play, with the cycle checked to fit together."""
    o = options
    if not o.nomination_hours <= o.announcement_hours <= o.day_hours:
        raise SetupError(f"A day's nominations ({o.nomination_hours:g} h) must close no later than its "
                         f"announcements ({o.announcement_hours:g} h), and those no later than the day's "
                         f"end ({o.day_hours:g} h).", code="bad_option")
    if o.lock_hours + o.reminder_hours >= o.night_hours:
        raise SetupError(f"The lock ({o.lock_hours:g} h before dawn) and the reminder ({o.reminder_hours:g} h "
                         f"before it) must fit inside the night ({o.night_hours:g} h).", code="bad_option")
    values = {}
    for name in Options.model_fields:
        if name in SETUP_ONLY:
            continue
        if name.endswith("_hours"):
            values[name.removesuffix("_hours") + "_seconds"] = getattr(o, name) * HOUR
        else:
            values[name] = getattr(o, name)
    return Settings(**values)
