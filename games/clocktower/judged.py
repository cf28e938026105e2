"""How a character the bot has no rules for is asked at night: the form its answer takes, read from
its ability text (and its night reminders), so the Storytellers can judge the answer.

The ability decides: its first sentence in which *the player* chooses at night ("Each night, choose
2 players", "Once per game, at night*, choose a dead player", "you are woken to choose a player")
gives who or what is chosen. A choice made by day ("during the day", "publicly", at a nomination or
a vote) is no night ask. With no such sentence the reminders decide: the player nods or shakes their
head, or is asked whether they wish to use their ability (yes or no); the reminder has the player
choose or point ("The Kazali chooses which players are which Minions"); or the Storyteller is to
"do whatever needs to be done to satisfy" or "run" the ability (a free reply). Otherwise the character chooses
nothing at night: None.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .catalogue import Record

Kind = Literal["players", "character", "player_and_character", "yes_no", "free"]

_BRACKETS = re.compile(r"\s*\[[^\]]*\]")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
#: the player choosing: imperative after a comma or "&", "you (may) choose", "woken to choose",
#: "start by choosing", each maybe with an adverb ("publicly choose"); what follows, to the colon or
#: the full stop, is what is chosen
_CHOICE = re.compile(r"(?:(?:^|,\s+|&\s+)(?:you\s+(?:may\s+)?)?|\bwoken\s+to\s+|\bstart\s+by\s+)"
                     r"(?:\w+ly\s+)?(?:choose|choosing)\b\s*(?P<what>[^:.]*)", re.IGNORECASE)
_DAY = re.compile(r"\bday\b|\bpublicly\b|\bnominat|\bvot(?:e|ed|es|ing)\b|\bexecut", re.IGNORECASE)
_NIGHT = re.compile(r"\bnight|\btonight\b", re.IGNORECASE)
#: not on the first night: "Each night*", "On the 3rd night", a look back on a day ("if 1 died today")
_NOT_FIRST = re.compile(r"\bnight\*|\btoday\b|\b(?:[2-9]|1\d)(?:nd|rd|th) night\b", re.IGNORECASE)
_FIRST_ONLY = re.compile(r"\b(?:1st|first) night\b|\bstart by\b", re.IGNORECASE)
_ON_DEATH = re.compile(r"\b(?:if|when) you die\b", re.IGNORECASE)
_ONCE = re.compile(r"\bonce per game\b", re.IGNORECASE)
_MAY = re.compile(r"\byou may choose\b|\bonce per game\b", re.IGNORECASE)
_MIGHT = re.compile(r"\b(?:might|may) choose\b", re.IGNORECASE)
_TIMING = re.compile(r"^(?:each|at) night\*?,\s*|(?<=once per game, )at night\*?,\s*", re.IGNORECASE)

_PLAYERS = re.compile(r"^(?P<n>an?|one|another|[1-3])\s+(?P<quals>(?:(?:alive|living|dead|good|evil|other)\s+)*)"
                      r"players?\b(?P<tail>.*)$", re.IGNORECASE)
_AND_CHARACTER = re.compile(r"^\s*&\s+(?:an?|guess\s+(?:their|a))\s+(?:\w+\s+)?character", re.IGNORECASE)
_CHARACTER = re.compile(r"^an?\s+(?:\w+\s+)?character\b", re.IGNORECASE)
_YES_NO_CHOICE = re.compile(r"^(?:to|if|whether)\b", re.IGNORECASE)
_NOT_SELF = re.compile(r"\(not yourself|^another\b", re.IGNORECASE)

#: the Storyteller runs the ability, whatever it is: "Do whatever needs to be done to satisfy the
#: Amnesiac's ability", "Run the Amnesiac's ability, if applicable" (a world championship script's)
_SATISFY = re.compile(r"\bdo whatever needs to be done to satisfy\b|\brun the\b[^.]*\babilit", re.IGNORECASE)
_YES_NO_REMINDER = re.compile(r"\bask\b[^.]*\byes/no\b|\b(?:nods?|shakes?)\s+(?:their|his|her)\s+head\b"
                              r"|\bwish(?:es)?\s+to\s+use\b", re.IGNORECASE)
_REMINDER_CHOICE = re.compile(r"\b[Tt]he\s+[A-Z][\w'’ -]*?\s+(?:might\s+|may\s+)?(?:chooses|points\s+to)\b"
                              r"\s*(?P<what>[^.:]*)")

FREE_TEXT = "The Storytellers may ask you to act on your ability tonight: tell them what you do."
WISH_TEXT = "Do you use your ability tonight?"
_NUMBERS = {"a": 1, "an": 1, "one": 1, "another": 1}


class JudgedAsk(BaseModel):
    """What a player whose character the bot has no rules for is asked at night."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Kind
    #: players to choose (1, 2 or 3) for "players" and "player_and_character"
    count: int = 0
    #: "choose a player (not yourself)", "another player"
    not_self: bool = False
    #: "choose an alive/living player"
    living_only: bool = False
    #: "choose a dead player"
    dead_only: bool = False
    #: "you may choose", and every once-per-game choice (it may be kept for a later night)
    may_choose_no_one: bool = False
    #: "Once per game": the ask stops once the player has chosen
    once_per_game: bool = False
    #: asked only on the night the player dies ("If you die at night, you are woken to choose")
    when_killed: bool = False
    #: the question in the ability's own words, e.g. "Choose 2 players: you learn if either is a Demon."
    text: str


def judged_ask(ability: str, reminder: str = "", *, first_night: bool | None = None) -> JudgedAsk | None:
    """The form of a character's night answer, or None when it chooses nothing at night.

    ``reminder``: its night reminder(s), as the record has them. ``first_night``: True on the first
    night (a "night*" choice is not made then), False on the others (a "1st night" choice is not
    made then), None for any night.
    """
    sentences = _SENTENCES.split(_BRACKETS.sub("", ability).strip())
    chosen = _night_choices(sentences, first_night)
    if not chosen:
        return _from_reminder(ability, reminder)
    first, what = chosen[0]
    return _from_choice(what, sentences[first], reminder, _player_text(sentences, [i for i, _ in chosen]))


def question(name: str, ask: JudgedAsk) -> str:
    """The line the player reads in their thread: "🌙 The Snake Charmer: choose an alive player: …"."""
    the = "" if name.lower().startswith("the ") else "The "
    line = f"🌙 {the}{name}: {ask.text[:1].lower()}{ask.text[1:]}"
    if ask.kind == "yes_no":
        return f"{line} Answer yes or no."
    if ask.kind == "free":
        return f"{line} Answer in your own words."
    if ask.may_choose_no_one and not re.search(r"\bmay\b", ask.text, re.IGNORECASE):
        return f"{line} You may choose no-one tonight."
    return line


def _night_choices(sentences: list[str], first_night: bool | None) -> list[tuple[int, str]]:
    """The sentences in which the player chooses at night (on this night, when it is known), each
    with what it chooses ("2 alive players (not yourself)"). On the
    first night a choice that follows one made only after it ("Each night*, you may choose a player:
    they die. If your last choice was no-one, choose 3 players tonight.") is not made either, unless
    it is itself a first night's ("You start by choosing a player")."""
    chosen: list[tuple[int, str]] = []
    later = False
    for i, sentence in enumerate(sentences):
        clause = sentence.split(":", 1)[0]
        match = _CHOICE.search(sentence)
        if match is None or (_DAY.search(clause) and not _NIGHT.search(clause)):
            continue
        if first_night is True and (_NOT_FIRST.search(clause) or later) and not _FIRST_ONLY.search(clause):
            later = True
        elif not (first_night is False and _FIRST_ONLY.search(clause)):
            chosen.append((i, match.group("what")))
    return chosen


def _player_text(sentences: list[str], chosen: list[int]) -> str:
    """The choosing sentences as the player is asked them, each with the next sentence when it has no
    colon (that sentence says what the choice does: the Lycanthrope's "If good, they die"), without
    "Each night," / "at night*,", capitalised."""
    keep: list[int] = []
    for i in chosen:
        for j in (i, i + 1) if ":" not in sentences[i] else (i,):
            if j < len(sentences) and j not in keep:
                keep.append(j)
    words = [_TIMING.sub("", sentences[i]).strip() for i in keep]
    return " ".join(w[:1].upper() + w[1:] for w in words)


def _from_choice(what: str, sentence: str, reminder: str, text: str) -> JudgedAsk:
    clause = sentence.split(":", 1)[0]
    timing = {
        "may_choose_no_one": bool(_MAY.search(clause) or _MIGHT.search(reminder)),
        "once_per_game": bool(_ONCE.search(clause)),
        "when_killed": bool(_ON_DEATH.search(clause)),
    }
    what = what.strip()
    players = _PLAYERS.match(what)
    if players:
        quals = players.group("quals").lower()
        kind: Kind = "players"
        if _AND_CHARACTER.match(players.group("tail")) or _AND_CHARACTER.search(_reminder_choice(reminder)):
            kind = "player_and_character"
        count = _NUMBERS.get(players.group("n").lower()) or int(players.group("n"))
        return JudgedAsk(kind=kind, count=count, not_self=bool(_NOT_SELF.search(what)),
                         living_only="alive" in quals or "living" in quals, dead_only="dead" in quals,
                         text=text, **timing)
    if _CHARACTER.match(what):
        return JudgedAsk(kind="character", text=text, **timing)
    if _YES_NO_CHOICE.match(what) and not _SATISFY.search(reminder):
        return JudgedAsk(kind="yes_no", text=text, **timing)
    return JudgedAsk(kind="free", text=text, **timing)


def _reminder_choice(reminder: str) -> str:
    """What the reminder says the player chooses ("a player & a Demon character"), or ""."""
    match = _REMINDER_CHOICE.search(reminder)
    return f"& {match.group('what').split('&', 1)[1]}" if match and "&" in match.group("what") else ""


def _from_reminder(ability: str, reminder: str) -> JudgedAsk | None:
    """With no night choice in the ability: what the reminder has the player do, if anything."""
    if _SATISFY.search(reminder):
        return JudgedAsk(kind="free", text=FREE_TEXT)
    if _YES_NO_REMINDER.search(reminder):
        wish = re.search(r"\bwish(?:es)?\s+to\s+use\b", reminder, re.IGNORECASE)
        return JudgedAsk(kind="yes_no", text=WISH_TEXT if wish else _BRACKETS.sub("", ability).strip())
    match = _REMINDER_CHOICE.search(reminder)
    if match is None:
        return None
    what = match.group("what").strip()
    return _from_choice(what, "", reminder, f"Choose {what}.")


def ask_of(record: Record, first_night: bool | None = None) -> JudgedAsk | None:
    """A record's night ask: on the first night read with its first-night reminder, on the others
    with its other-night reminder, for any night (``None``) with both."""
    reminders = {True: (record.first_night_reminder,), False: (record.other_night_reminder,),
                 None: (record.first_night_reminder, record.other_night_reminder)}[first_night]
    return judged_ask(record.ability, " ".join(r for r in reminders if r), first_night=first_night)
