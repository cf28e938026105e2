"""The Storyteller's answers, pure: each informant's answer is read in its ability's form (players by
seat number, name or label; a character on the script; a number in range; a direction) and accepted
only inside what the rules allow. A drunk, poisoned or false-carded informant may be told anything
of that form, and nothing outside it; the player reads the answer in its usual words."""

import pytest
from support.clocktower_pure import GAME, act, events_of, new_game, timeout

from games.clocktower.copilot import proposals
from games.engine import IllegalAction

REFUSED = "is not an answer the rules allow here"
# seat 1 the Po, 2 the informant, 3 the Recluse, 4 the Knight, 5 the Soldier, 6 the Empath, 7 the Virgin, 8 the Spy
TOWN = ["po", "{}", "recluse", "knight", "soldier", "empath", "virgin", "spy"]


def table(informant, options=None, shown=None):
    characters = [c.format(informant) for c in TOWN]
    if informant in ("knight", "drunk"):
        characters[3] = "washerwoman"
    if informant == "shugenja":  # nothing that may register evil beside it clockwise
        characters[2] = "washerwoman"
    return act(new_game(options, characters, shown), type="begin").state


def locked(state):
    """On to the next lock of a night, when tonight's information is proposed."""
    state = timeout(state).state
    while not (state.phase == "night" and state.stage == "locked"):
        state = timeout(state).state
    return state


def poisoned(state, player="p2"):
    return act(state, type="add_reminder", target=player, token="Poisoned", source="pukka").state


def told(state, answer, target="p2"):
    """The player's words for ``answer``, accepted at once."""
    out = act(state, type="inform", target=target, answer=answer)
    return next(e.text for e in events_of(out, "player") if e.type == "information")


def refused(state, answer, why, target="p2"):
    with pytest.raises(IllegalAction, match=why) as caught:
        act(state, type="inform", target=target, answer=answer)
    assert REFUSED in str(caught.value)
    assert target not in state.accepted  # nothing changed


SENT = {"inform_at": "accept"}


def test_the_washerwoman_sees_two_other_players_one_of_whom_is_the_named_townsfolk():
    state = locked(table("washerwoman", SENT))
    assert told(state, "4 or Name1 is the knight") == "🌙 You learn: Name1 (seat 1) or Name4 (seat 4) is the Knight."
    # the Spy may register as any Townsfolk
    assert told(state, "seat 8 or Name5 (seat 5) is the Juggler").endswith("Name5 (seat 5) or Name8 (seat 8) is "
                                                                            "the Juggler.")
    refused(state, "1 or 3 is the Knight", r"Name1 \(seat 1\) and Name3 \(seat 3\) are both not the Knight, and at "
                                           "least one of the two must be")
    impaired = poisoned(state)
    assert told(impaired, "1 or 3 is the Knight").endswith("Name1 (seat 1) or Name3 (seat 3) is the Knight.")
    refused(impaired, "4 is the Knight", "is shown 2 other players, and this names 1")
    refused(impaired, "2 or 4 is the Knight", r"not Name2 \(seat 2\) themselves")
    refused(impaired, "1 or 4 is the Po", "the Washerwoman is shown a Townsfolk, and the Po is not one")
    refused(impaired, "1 or 4 is the Knightess", "'Knightess' is not a seated player or a character")


def test_the_knight_sees_two_players_who_are_not_the_demon_and_may_see_the_recluse():
    state = locked(table("knight", SENT))
    # the Recluse is not the Demon: it may be shown
    assert told(state, "3 and 5") == "🌙 Name3 (seat 3) and Name5 (seat 5) are not the Demon."
    refused(state, "Name5 and Name1", r"Name1 \(seat 1\) is the Demon, and the Knight learns 2 players who are not "
                                      "the Demon")
    impaired = poisoned(state)
    assert told(impaired, "1 and 5").endswith("Name1 (seat 1) and Name5 (seat 5) are not the Demon.")
    refused(impaired, "1", "the Knight is shown 2 other players, and this names 1")
    refused(impaired, "5 and Name5", "must be different")
    refused(impaired, "1 and 12", "nobody sits in seat 12")


def test_a_drunk_knight_holds_a_false_card_and_may_be_told_any_two_players():
    state = locked(table("drunk", SENT, shown={"p2": "knight"}))
    assert told(state, "1 and 3").endswith("Name1 (seat 1) and Name3 (seat 3) are not the Demon.")
    refused(state, "1 and 3 and 4", "2 other players, and this names 3")


def test_the_shugenja_learns_a_direction():
    # the Po (seat 1) is one step anticlockwise of the Shugenja; the Spy (8), who may register good,
    # is further anticlockwise still
    state = locked(table("shugenja", SENT))
    assert told(state, "Anti-clockwise") == "🌙 Your closest evil player is anticlockwise."
    refused(state, "clockwise", "anticlockwise")
    impaired = poisoned(state)
    assert told(impaired, "clockwise") == "🌙 Your closest evil player is clockwise."
    refused(impaired, "north", "the Shugenja's answer is clockwise or anticlockwise")


def test_the_empath_learns_0_1_or_2_and_never_3():
    state = locked(table("empath", SENT))  # beside the Po and the Recluse: 1, or 2 if the Recluse registers evil
    assert told(state, "2") == "🌙 2 of your living neighbours are evil."
    refused(state, "0", "1, 2")
    impaired = poisoned(state)
    assert told(impaired, "0") == "🌙 0 of your living neighbours are evil."
    refused(impaired, "3", "the Empath's answer is a number from 0 to 2")
    refused(impaired, "two", "the Empath's answer is a number from 0 to 2")


def executed(informant, target):
    """Day 1 executes ``target``; then night 2, locked."""
    state = table(informant, SENT)
    while state.phase != "day":
        state = timeout(state).state
    for voter in ("p2", "p4", "p5", "p6", "p7"):
        state = act(state, player=voter, type="vote", target=target).state
    return locked(state)


def test_the_undertaker_learns_the_character_that_died_by_execution():
    state = executed("undertaker", "p8")  # the Spy, who may register as a Townsfolk or Outsider
    assert told(state, "spy") == "🌙 The player who died by execution on day 1 was the Spy."
    assert told(state, "Empath").endswith("was the Empath.")
    refused(state, "Po", "is not an answer the rules allow here")
    refused(state, "nothing", "is not an answer the rules allow here")
    impaired = poisoned(state)
    assert told(impaired, "Po").endswith("was the Po.")
    assert told(impaired, "nothing") == "🌙 Nobody died by execution on day 1."
    refused(impaired, "Djinn", "a character on the script, or 'nothing'")  # a Fabled
    refused(impaired, "Chef", "a character on the script, or 'nothing'")  # not on this script


def test_the_undertaker_learns_nothing_when_the_executed_lleech_lives():
    state = table_with_lleech()
    assert state.executed == "p1" and state.seat_of("p1").alive  # its host lives, so it lives
    found = next(p for p in proposals(state, GAME.chars_of(state)) if p.player == "p2")
    assert found.answer == "nothing" and found.allowed == ["nothing"]
    assert "was executed but did not die" in found.about
    assert told(state, "nothing") == "🌙 Nobody died by execution on day 1."
    refused(state, "Lleech", "nothing")


def table_with_lleech():
    """Night 1: the Lleech (seat 1) takes the Soldier as its host; day 1 executes the Lleech; night 2, locked."""
    state = act(new_game(SENT, ["lleech", "undertaker", "recluse", "knight", "soldier", "empath", "virgin", "spy"]),
                type="begin").state
    state = act(state, player="p1", type="night_choice", targets=["p5"]).state
    while state.phase != "day":
        state = timeout(state).state
    for voter in ("p2", "p4", "p5", "p6", "p7"):
        state = act(state, player=voter, type="vote", target="p1").state
    return locked(state)


def ravenkeeper_woken(target, poison=False):
    """Night 2: the Ravenkeeper is killed after the lock, is woken and chooses ``target``."""
    state = table("ravenkeeper", SENT)
    while not (state.phase == "night" and state.night == 2):
        state = timeout(state).state
    state = locked(state)
    if poison:
        state = poisoned(state)
    state = act(state, type="kill", target="p2").state
    return act(state, player="p2", type="night_choice", targets=[target]).state


def test_the_ravenkeeper_learns_its_choices_character():
    state = ravenkeeper_woken("p8")  # the Spy
    assert told(state, "Spy") == "🌙 Name8 (seat 8) is the Spy."
    assert told(state, "Ravenkeeper").endswith("is the Ravenkeeper.")  # the Spy registers as a Townsfolk
    refused(state, "Po", "is not an answer the rules allow here")
    impaired = ravenkeeper_woken("p8", poison=True)
    assert told(impaired, "Po") == "🌙 Name8 (seat 8) is the Po."
    refused(impaired, "Name1", "the Ravenkeeper's answer is a character on the script")


def waitress_visit(poison=False):
    """Night 2: a Waitress (seat 9) visits the Empath (seat 6), who agrees."""
    state = table("washerwoman", SENT)
    while state.phase != "day":
        state = timeout(state).state
    state = act(state, type="add_traveller", target="w1", name="Wai", seat=9, character="waitress",
                alignment="good").state
    while state.phase != "night":
        state = timeout(state).state
    state = act(state, player="w1", type="night_choice", targets=["p6"]).state
    state = act(state, player="p6", type="waitress_answer", agree=True).state
    state = locked(state) if state.stage != "locked" else state
    return poisoned(state, "w1") if poison else state


def test_the_waitress_learns_the_character_of_the_player_who_agreed():
    state = waitress_visit()
    assert told(state, "Empath", "w1") == "🌙 Name6 (seat 6) is the Empath."
    refused(state, "Knight", "Empath", "w1")
    impaired = waitress_visit(poison=True)
    assert told(impaired, "Knight", "w1") == "🌙 Name6 (seat 6) is the Knight."
    refused(impaired, "7", "the Waitress's answer is a character on the script", "w1")


def test_the_juggler_learns_how_many_guesses_were_right_from_0_to_the_number_of_guesses():
    state = table("juggler", SENT)
    while state.phase != "day":
        state = timeout(state).state
    # right: the Po; the Spy may register as the Empath, the Recluse as the Pukka
    state = act(state, player="p2", type="juggler_guess", place="announcements",
                guesses={"p1": "po", "p8": "empath", "p3": "pukka"}).state
    state = locked(state)
    assert told(state, "1") == "🌙 1 of your guesses was correct."
    assert told(state, "3") == "🌙 3 of your guesses were correct."
    refused(state, "0", "1, 2, 3")
    impaired = poisoned(state)
    assert told(impaired, "0") == "🌙 0 of your guesses were correct."
    refused(impaired, "4", "the Juggler's answer is a number from 0 to 3")


def test_the_high_priestess_is_shown_one_other_player_of_the_storytellers_choice():
    state = locked(table("highpriestess", SENT))
    assert told(state, "4") == "🌙 The player you should talk to most: Name4 (seat 4)."
    assert told(state, "name7").endswith("Name7 (seat 7).")
    refused(state, "Name2", r"not Name2 \(seat 2\) themselves")
    impaired = poisoned(state)
    assert told(impaired, "Name3 (seat 3)").endswith("Name3 (seat 3).")
    refused(impaired, "3 and 4", "the High Priestess is shown one other player, and this names 2")


def test_the_mathematician_learns_a_number_up_to_the_number_of_players():
    state = locked(table("mathematician", SENT))
    assert told(state, "1") == "🌙 1 player's ability worked abnormally since dawn."
    assert told(state, "7") == "🌙 7 players' abilities worked abnormally since dawn."
    refused(state, "8", "0, 1, 2, 3, 4, 5, 6, 7")  # it does not count itself
    impaired = poisoned(state)
    assert told(impaired, "8") == "🌙 8 players' abilities worked abnormally since dawn."
    refused(impaired, "9", "the Mathematician's answer is a number from 0 to 8")
    refused(impaired, "-1", "the Mathematician's answer is a number from 0 to 8")


def test_the_spy_sees_the_grimoire_and_only_an_impaired_spy_sees_other_words():
    state = locked(table("washerwoman", SENT))
    assert told(state, "the Grimoire", "p8").startswith("🌙 The Grimoire:\n1 · Name1: Po")
    refused(state, "Name1 is the Soldier", "the grimoire", "p8")
    impaired = poisoned(state, "p8")
    assert told(impaired, "Name1 is the Soldier", "p8") == "🌙 Name1 is the Soldier"


def test_false_information_to_the_washerwoman_and_the_knight_counts_for_the_mathematician():
    characters = ["po", "washerwoman", "knight", "mathematician", "soldier", "empath", "virgin", "spy"]
    state = locked(act(new_game(None, characters), type="begin").state)
    state = act(state, type="inform", target="p2", answer="8 or 5 is the Virgin").state  # the Spy, as the Virgin
    state = act(poisoned(state, "p3"), type="inform", target="p3", answer="1 and 5").state  # the Po, poisoned Knight
    math = next(p for p in proposals(state, GAME.chars_of(state)) if p.player == "p4")
    assert math.answer == "2"
    assert "the Washerwoman was told Name5 (seat 5) or Name8 (seat 8) is the Virgin, false on the grimoire" \
        in math.flags[0]
    assert "the Knight was told Name1 (seat 1) and Name5 (seat 5), false on the grimoire" in math.flags[0]
    true = act(locked(act(new_game(None, characters), type="begin").state), type="inform", target="p2",
               answer="7 or 5 is the Virgin").state
    assert next(p for p in proposals(true, GAME.chars_of(true)) if p.player == "p4").answer == "0"


def test_a_woken_ravenkeeper_that_has_not_chosen_has_nothing_to_learn_yet():
    state = table("ravenkeeper", SENT)
    while not (state.phase == "night" and state.night == 2):
        state = timeout(state).state
    state = act(locked(state), type="kill", target="p2").state  # woken after the lock
    refused(state, "Spy", "the Ravenkeeper has not chosen a player yet")
    refused(poisoned(state), "Spy", "the Ravenkeeper has not chosen a player yet")


def test_a_count_refuses_digits_it_cannot_read_in_words():
    impaired = poisoned(locked(table("empath", SENT)))
    refused(impaired, "²", "the Empath's answer is a number from 0 to 2")
    refused(impaired, "١", "the Empath's answer is a number from 0 to 2")  # an Arabic-Indic one


def test_a_player_named_by_a_bare_number_is_not_taken_for_that_seat():
    state = locked(table("knight", SENT))
    next(p for p in state.players if p.id == "p5").name = "7"  # sits in seat 5; seat 7 is Name7
    refused(state, "7 and 6", "'7' is a seat number and a player's name")
    assert told(state, "7 (seat 5) and 6") == "🌙 7 (seat 5) and Name6 (seat 6) are not the Demon."
