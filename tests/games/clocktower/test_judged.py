"""The night ask of a character the Storytellers judge: its form read from the ability text, checked
over all 181 official records against the forms written here from their ability texts."""

import re

import pytest

from games.clocktower.asks import asks
from games.clocktower.catalogue import load
from games.clocktower.judged import FREE_TEXT, JudgedAsk, ask_of, judged_ask, question

FLAGS = {"not_self": "not_self", "living": "living_only", "dead": "dead_only", "may": "may_choose_no_one",
         "once": "once_per_game", "killed": "when_killed"}


def form(kind, count=0, *flags):
    return (kind, count, frozenset(FLAGS[f] for f in flags))


def players(count, *flags):
    return form("players", count, *flags)


def shape(ask: JudgedAsk | None):
    if ask is None:
        return None
    return (ask.kind, ask.count, frozenset(f for f in FLAGS.values() if getattr(ask, f)))


#: every official character asked at night, as its ability text reads (any night, both reminders);
#: every other record is asked nothing at night
EXPECTED = {
    # Trouble Brewing
    "fortuneteller": players(2),
    "monk": players(1, "not_self"),
    "ravenkeeper": players(1, "killed"),
    "butler": players(1, "not_self"),
    "poisoner": players(1),
    "imp": players(1),
    "thief": players(1, "not_self"),
    "bureaucrat": players(1, "not_self"),
    # Bad Moon Rising
    "sailor": players(1, "living"),
    "chambermaid": players(2, "not_self", "living"),
    "innkeeper": players(2),
    "gambler": form("player_and_character", 1),
    "exorcist": players(1),  # "(different to last night)" stays in the question's words
    "courtier": form("character", 0, "may", "once"),
    "professor": players(1, "dead", "may", "once"),
    "godfather": players(1),
    "devilsadvocate": players(1, "living"),
    "assassin": players(1, "may", "once"),
    "pukka": players(1),
    "po": players(1, "may"),
    "shabaloth": players(2),
    "zombuul": players(1),
    "bonecollector": players(1, "dead", "may", "once"),
    # Sects & Violets
    "dreamer": players(1, "not_self"),  # "(not yourself or Travellers)": no "good player" in the text
    "snakecharmer": players(1, "living"),
    "philosopher": form("character", 0, "may", "once"),
    "seamstress": players(2, "not_self", "may", "once"),
    "witch": players(1),
    "cerenovus": form("player_and_character", 1),
    "pithag": form("player_and_character", 1),
    "fanggu": players(1),
    "nodashii": players(1),
    "vigormortis": players(1),
    "vortox": players(1),
    "harlot": players(1, "living"),  # the official text has no "(not yourself)"
    # the Carousel
    "preacher": players(1),
    "villageidiot": players(1),
    "acrobat": players(1),
    "lycanthrope": players(1, "living"),
    "engineer": form("free", 0, "may", "once"),  # "choose which Minions or which Demon is in play"
    "nightwatchman": players(1, "may", "once"),
    "huntsman": players(1, "living", "may", "once"),
    "amnesiac": form("free"),  # "Do whatever needs to be done to satisfy the Amnesiac's ability."
    "ogre": players(1, "not_self"),
    "harpy": players(2),
    "fearmonger": players(1),
    "wizard": form("free", 0, "may", "once"),  # a wish, said in words
    "widow": players(1),
    "wraith": form("yes_no", 0, "may"),  # "You may choose to open your eyes at night."
    "summoner": form("player_and_character", 1),  # its reminder: "chooses a player & a Demon character"
    "organgrinder": form("yes_no"),  # "choose if you are drunk until dusk"
    "ojo": form("character"),
    "kazali": players(1),
    "lordoftyphon": players(1),
    "lleech": players(1),
    "alhadikhia": players(3, "may"),
}

#: characters the brief names as asked nothing at night, with why (their texts agree)
NOT_ASKED = {
    "empath": "learns", "chef": "learns", "washerwoman": "learns", "undertaker": "learns",
    "slayer": "during the day, publicly", "gossip": "each day", "juggler": "on your 1st day",
    "artist": "during the day", "psychopath": "each day, publicly", "moonchild": "publicly choose",
    "klutz": "publicly choose", "gunslinger": "each day", "cacklejack": "each day", "gnome": "nominates",
    "judge": "nominated", "vizier": "if good voted", "matron": "each day", "gangster": "once per day",
    "cultleader": "good players choose", "goon": "the 1st player to choose you",
    "barber": "the Demon may choose", "hatter": "the Minion & Demon players may choose",
    "lunatic": "who you choose: asked by its card", "lilmonsta": "Minions choose", "spy": "sees the Grimoire",
    "barista": "the Storyteller chooses", "fiddler": "the Demon chooses", "doomsayer": "publicly choose",
    "bigwig": "each nominee chooses", "duchess": "3 players may choose to visit",
}


def test_every_official_record_is_read_as_written_here():
    records = load().records
    assert len(records) == 181
    wrong = {cid: shape(ask_of(r)) for cid, r in records.items() if shape(ask_of(r)) != EXPECTED.get(cid)}
    assert wrong == {}
    assert set(EXPECTED) <= set(records)


@pytest.mark.parametrize("cid", sorted(NOT_ASKED))
def test_characters_that_choose_nothing_at_night_are_not_asked(cid):
    record = load().records[cid]
    for first_night in (None, True, False):
        assert ask_of(record, first_night) is None, NOT_ASKED[cid]


def test_the_question_is_in_the_abilitys_own_words():
    records = load().records
    for cid in EXPECTED:
        ask = ask_of(records[cid])
        assert ask is not None
        if ask.text == FREE_TEXT:
            continue
        first = re.sub(r"^once per game, ", "", ask.text.split(". ")[0].rstrip(".").lower())
        assert first in records[cid].ability.lower(), cid


def test_counts_are_one_to_three_for_players_and_none_otherwise():
    for record in load().records.values():
        ask = ask_of(record)
        if ask is not None:
            assert (1 <= ask.count <= 3) == (ask.kind in ("players", "player_and_character")), record.id


def test_the_asks_the_bot_rules_agree_with_the_reading():
    """data/night_asks.json (written from Her Royal Highness Register's rulebook) and the reading of the
    official texts agree, but for the Waitress: the rulebook's is "(not yourself)", the Harlot's
    official text is not."""
    catalogue = load()
    compared = 0
    for cid, ruled in asks().items():
        record = catalogue.resolve(cid)
        assert record is not None
        ask = ask_of(record)
        assert ask is not None and ask.kind == ruled.kind, cid
        assert (ask.count or 1, ask.may_choose_no_one, ask.living_only, ask.when_killed) == (  # a character: 1
            ruled.count, ruled.may_choose_no_one, ruled.living_only, ruled.when_killed), cid
        assert ask.not_self == ruled.not_self or cid == "waitress"
        compared += 1
    assert compared == len(asks()) >= 7  # Her Royal Highness Register's six and the Fortune Teller
    assert asks()["waitress"].not_self and not ask_of(catalogue["harlot"]).not_self


# -- night by night ---------------------------------------------------------------------------

def test_the_first_night_and_the_others_are_read_apart():
    r = load().records
    # the Lleech: "You start by choosing a player: they are poisoned", then "Each night*, ... they die"
    assert ask_of(r["lleech"], True).text == "You start by choosing a player: they are poisoned."
    assert ask_of(r["lleech"], False).text == "Choose a player: they die."
    # the Kazali's first night is its reminder's: "The Kazali chooses which players are which Minions."
    kazali = ask_of(r["kazali"], True)
    assert kazali.kind == "free" and kazali.text == "Choose which players are which Minions."
    assert shape(ask_of(r["kazali"], False)) == players(1)
    # "Each night*": nothing on the first night, the second sentence of the Po's with it
    for cid in ("po", "imp", "pithag", "zombuul", "professor", "assassin", "bonecollector"):
        assert judged_ask(r[cid].ability, first_night=True) is None, cid
    # "If 1 died today" and "On the 3rd night" are not on the first night
    assert ask_of(r["godfather"], True) is None and shape(ask_of(r["godfather"], False)) == players(1)
    assert ask_of(r["summoner"], True) is None
    assert shape(ask_of(r["summoner"], False)) == form("player_and_character", 1)
    # "On your 1st night": only then
    for cid in ("ogre", "widow"):
        assert ask_of(r[cid], True) is not None and ask_of(r[cid], False) is None, cid
    # "Each night": every night
    assert shape(ask_of(r["poisoner"], True)) == shape(ask_of(r["poisoner"], False)) == players(1)


def test_the_pos_choice_of_three_is_in_its_question():
    po = ask_of(load().records["po"], False)
    assert po.text == "You may choose a player: they die. If your last choice was no-one, choose 3 players tonight."


# -- texts the official records do not have (a homebrew character) ---------------------------

@pytest.mark.parametrize(("ability", "reminder", "expected"), [
    ("Each night, choose an alive good player: they are safe.", "", players(1, "living")),
    ("Each night, choose another player: you learn their alignment.", "", players(1, "not_self")),
    ("Each night*, choose 3 players: one of them dies.", "", players(3)),
    ("Each night, choose a dead player: they may vote today.", "", players(1, "dead")),
    ("Each night, you may choose a living player (not yourself): they are drunk.", "",
     players(1, "not_self", "living", "may")),
    ("Once per game, at night, choose a player & a character: they become it.", "",
     form("player_and_character", 1, "may", "once")),
    ("Each night, choose an evil character: if in play, you learn who.", "", form("character")),
    ("Once per game, during the day, publicly choose a player: they die.", "", None),
    ("Each day, choose a player: they are drunk tonight.", "", None),
    ("When you learn that you died, publicly choose 1 alive player.", "", None),
    ("Each night, secretly choose a player: they are drunk.", "", players(1)),
    ("You start knowing 1 evil player.", "Point to the player marked *KNOW*.", None),
    ("Once per game, at night, you might be lucky.", "Does the Gambit wish to use their ability?",
     form("yes_no")),
    ("You might be lucky.", "Ask the Gambit a yes/no question.", form("yes_no")),
    ("You might be lucky.", "The Gambit nods their head yes or shakes their head no.", form("yes_no")),
    ("You bake.", "The Baker chooses a phrase. Write it down.", form("free")),
    ("You bake.", "The Baker points to a player. :reminder:", players(1)),
    ("You bake.", "Do whatever needs to be done to satisfy the Baker's ability.", form("free")),
    # wc25's beautifulhouse script's own Amnesiac
    ("You do not know what your ability is. Each day, privately guess what it is: you learn how accurate you are.",
     "Run the Amnesiac's ability, if applicable.", form("free")),
    ("Each night, choose up to 2 sets of players to swap.", "", form("free")),
])
def test_a_homebrew_text_is_read_the_same_way(ability, reminder, expected):
    assert shape(judged_ask(ability, reminder)) == expected


def test_a_yes_no_reminder_does_not_override_a_choice_the_ability_gives():
    # the Fortune Teller's reminder has the Storyteller nod; the Harlot's has its target nod
    r = load().records
    assert ask_of(r["fortuneteller"]).kind == "players" and ask_of(r["harlot"]).kind == "players"


def test_the_wish_reminder_asks_in_the_players_words():
    ask = judged_ask("Once per game, at night, you might be lucky.", "Does the Gambit wish to use their ability?")
    assert question("Gambit", ask) == "🌙 The Gambit: do you use your ability tonight? Answer yes or no."


# -- the line the player reads ----------------------------------------------------------------

def test_the_question_the_player_reads():
    r = load().records
    assert question("Snake Charmer", ask_of(r["snakecharmer"])) == (
        "🌙 The Snake Charmer: choose an alive player: a chosen Demon swaps characters & alignments with "
        "you & is then poisoned.")
    assert question("Fortune Teller", ask_of(r["fortuneteller"])) == (
        "🌙 The Fortune Teller: choose 2 players: you learn if either is a Demon.")
    assert question("Organ Grinder", ask_of(r["organgrinder"])) == (
        "🌙 The Organ Grinder: choose if you are drunk until dusk. Answer yes or no.")
    assert question("Professor", ask_of(r["professor"])) == (
        "🌙 The Professor: once per game, choose a dead player: if they are a Townsfolk, they are resurrected. "
        "You may choose no-one tonight.")
    assert question("Ravenkeeper", ask_of(r["ravenkeeper"])) == (
        "🌙 The Ravenkeeper: if you die at night, you are woken to choose a player: you learn their character.")
    assert question("Lycanthrope", ask_of(r["lycanthrope"])) == (
        "🌙 The Lycanthrope: choose an alive player. If good, they die & the Demon doesn’t kill tonight.")
    assert question("Amnesiac", ask_of(r["amnesiac"])).endswith("Answer in your own words.")


def test_a_name_with_its_own_article_is_not_given_another():
    ask = judged_ask("Each night, choose a player: they are drunk.")
    assert question("The Brewer", ask) == "🌙 The Brewer: choose a player: they are drunk."


def test_a_may_in_the_ability_is_not_said_twice():
    line = question("Po", ask_of(load().records["po"], False))
    assert "You may choose no-one tonight" not in line and line.startswith("🌙 The Po: you may choose a player")
