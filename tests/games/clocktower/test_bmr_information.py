"""Bad Moon Rising's information, ruled by the copilot: the Grandmother (and her grandchild token),
the Chambermaid, the Godfather's first night, the Exorcist's effect on the Demon and the Gambler's
guess; each test named after the rule point the official wiki settles; every illegal answer refused
in words, and nothing of the grimoire told to the town or another player."""

import random

import pytest
from support.clocktower_pure import (
    GAME,
    act,
    allows,
    by_player,
    choose,
    events_of,
    lock,
    new_game,
    next_night,
    refuses,
    through_night,
)

from games.clocktower.asks import ask_for
from games.clocktower.bmr_information import GRANDCHILD, grandchild, place_grandchild
from games.clocktower.copilot import read_answer, told
from games.clocktower.night import night_prompts
from games.engine import IllegalAction

BMR = {"script": "Bad Moon Rising"}


def begun(characters, shown=None, options=None):
    return act(new_game({**BMR, **(options or {})}, characters, shown), type="begin").state


def night2(characters, shown=None, options=None):
    return next_night(through_night(begun(characters, shown, options)).state)


def token(state, player, name, source):
    return act(state, type="add_reminder", target=player, token=name, source=source).state


def poison(state, player):
    return token(state, player, "Poisoned", "pukka")


def to_player(out, player):
    return [e for e in out.events if e.audience.kind == "player" and e.audience.id == player]


def public(out):
    return events_of(out, "public")


def guess(state, player, target, character):
    state = choose(state, player, target)
    return act(state, player=player, type="night_choice", targets=[], character=character).state


def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


# ----- the Grandmother -----

GRANDMOTHER = ["zombuul", "grandmother", "professor", "chambermaid", "goon", "godfather", "tealady"]


def with_grandchild(characters=GRANDMOTHER, player="p3", shown=None, options=None):
    state = new_game({**BMR, **(options or {})}, characters, shown)
    return act(token(state, player, GRANDCHILD, "grandmother"), type="begin").state


def test_the_grandmother_learns_a_good_player_and_their_character():
    found = by_player(with_grandchild())["p2"]
    assert found.answer == "Name3 (seat 3) is the Professor" and found.ready
    assert allows(found, "4 is the Chambermaid") and allows(found, "Name5 is the Goon")
    refuses(found,
            "3 is the Chambermaid",  # not their character
            "1 is the Professor",  # the Zombuul is evil
            "6 is the Goon",  # the Godfather is evil
            "2 is the Grandmother",  # herself
            "3",  # no character
            "3 and 4 is the Professor",  # two players
            "banana")
    assert told(found, read_answer(found, "3 is the Professor")) == \
        "Your grandchild: Name3 (seat 3) is the Professor."


def test_the_grandchild_is_a_good_townsfolk_or_outsider_marked_at_set_up():
    landed = set()
    for seed in range(60):
        state = new_game(BMR, GRANDMOTHER)
        placed = place_grandchild(state, GAME.chars_of(state), random.Random(seed))
        assert grandchild(state) == placed and placed != "p2"
        assert state.seat_of(placed).alignment == "good"
        assert place_grandchild(state, GAME.chars_of(state), random.Random(seed)) == placed  # placed once
        assert len([r for r in state.reminders if r.token == GRANDCHILD]) == 1
        landed.add(placed)
    assert landed == {"p3", "p4", "p5", "p7"}
    none = new_game(BMR, ["zombuul", "exorcist", "professor", "chambermaid", "goon", "godfather", "tealady"])
    assert place_grandchild(none, GAME.chars_of(none), random.Random(1)) is None and not none.reminders


def test_the_grandchild_is_placed_for_a_drunk_who_thinks_they_are_the_grandmother():
    state = new_game(BMR, ["zombuul", "drunk", "professor", "chambermaid", "goon", "godfather", "tealady"],
                     shown={"p2": "grandmother"})
    assert place_grandchild(state, GAME.chars_of(state), random.Random(1)) not in (None, "p2")


def test_the_grandmother_learns_the_drunks_true_character_not_its_card():
    state = with_grandchild(["zombuul", "grandmother", "drunk", "chambermaid", "goon", "godfather", "tealady"],
                            shown={"p3": "professor"})
    found = by_player(state)["p2"]
    assert found.answer == "Name3 (seat 3) is the Drunk"
    refuses(found, "3 is the Professor")


def test_the_grandmother_wakes_for_her_grandchild_on_the_first_night_only():
    state = with_grandchild()
    assert "p2" in by_player(state)
    later = next_night(through_night(state).state)
    assert later.seat_of("p2").alive and "p2" not in by_player(later)


def test_the_grandchild_token_follows_the_storytellers_answer():
    state = with_grandchild(options={"inform_at": "accept"})
    state = lock(state).state
    out = act(state, type="inform", target="p2", answer="Name7 is the Tea Lady")
    assert out.reply.endswith("Your grandchild: Name7 (seat 7) is the Tea Lady.")
    assert grandchild(out.state) == "p7"
    assert len([r for r in out.state.reminders if r.token == GRANDCHILD]) == 1
    assert not public(out) and not to_player(out, "p7")  # the grandchild does not learn it


def test_a_missing_grandchild_token_is_flagged_and_an_answer_places_it():
    state = begun(GRANDMOTHER, options={"inform_at": "accept"})
    found = by_player(state)["p2"]
    assert not found.ready and any("no 'Grandchild' token" in f for f in found.flags)
    out = act(lock(state).state, type="inform", target="p2", answer="4 is the Chambermaid")
    assert grandchild(out.state) == "p4"


def test_a_poisoned_grandmother_may_be_shown_any_player_and_character():
    state = poison(with_grandchild(), "p2")
    found = by_player(state)["p2"]
    assert found.flags[0].startswith("drunk or poisoned")
    assert allows(found, "1 is the Tinker")  # any player, any Townsfolk or Outsider of the script
    refuses(found, "2 is the Tinker", "3")  # still another player and a character


# ----- the Chambermaid -----

CHAMBERMAID = ["zombuul", "chambermaid", "gambler", "goon", "grandmother", "assassin", "exorcist"]


def test_the_chambermaid_chooses_2_alive_players_not_herself():
    state = begun(CHAMBERMAID)
    assert ask_for(state, state.seat_of("p2"), GAME.chars_of(state))[2] == 2
    for targets, why in ((["p2", "p3"], "yourself"), (["p3"], "Choose 2"), (["p3", "p3"], "Choose 2")):
        with pytest.raises(IllegalAction, match=why):
            act(state, player="p2", type="night_choice", targets=targets)
    dead = act(state, type="kill", target="p4").state
    with pytest.raises(IllegalAction, match="is dead"):
        act(dead, player="p2", type="night_choice", targets=["p3", "p4"])


def test_the_chambermaid_learns_how_many_of_the_2_woke_tonight_due_to_their_ability():
    # night 1: the Grandmother wakes for her grandchild; the Assassin only for the Minion info, which is not
    # its ability; night 2 the Gambler wakes to guess, the Goon never wakes
    state = choose(token(begun(CHAMBERMAID), "p3", GRANDCHILD, "grandmother"), "p2", "p5", "p6")
    found = by_player(state)["p2"]
    assert found.answer == "1" and found.allowed == ["1"]
    refuses(found, "0", "2", "3")
    assert told(found, read_answer(found, "1")) == "1 of the 2 players you chose woke tonight due to their ability."
    later = choose(night2(CHAMBERMAID), "p2", "p3", "p4")
    assert by_player(later)["p2"].answer == "1"


def test_a_player_who_woke_on_a_previous_night_but_not_tonight_is_not_counted():
    later = choose(night2(CHAMBERMAID), "p2", "p5", "p4")  # the Grandmother woke on night 1 only
    assert by_player(later)["p2"].answer == "0"


def test_a_drunk_or_poisoned_player_who_woke_tonight_still_counts():
    later = choose(poison(night2(CHAMBERMAID), "p3"), "p2", "p3", "p7")  # the Gambler and the Exorcist
    assert by_player(later)["p2"].answer == "2"


def test_the_chambermaid_waits_for_her_choice():
    found = by_player(begun(CHAMBERMAID))["p2"]
    assert not found.ready and found.rule == "waits for their choice"
    refuses(found, "1")


def test_a_demon_the_exorcist_chose_did_not_wake_for_the_chambermaid():
    state = choose(choose(night2(CHAMBERMAID), "p7", "p1"), "p2", "p1", "p3")
    assert by_player(state)["p2"].answer == "1"  # the Gambler only


# ----- the Godfather -----

GODFATHER = ["zombuul", "godfather", "goon", "tinker", "chambermaid", "exorcist", "tealady"]


def test_the_godfather_starts_knowing_which_outsiders_are_in_play():
    found = by_player(begun(GODFATHER))["p2"]
    assert found.answer == "the Goon and the Tinker" and found.ready
    assert allows(found, "the Tinker and the Goon") and allows(found, "Goon, Tinker")
    refuses(found,
            "the Goon",  # every Outsider in play
            "the Goon, the Tinker and the Moonchild",  # the Moonchild is not in play
            "none",
            "3 is the Goon",  # characters, not players
            "the Goon and the Chambermaid")  # not an Outsider
    assert told(found, read_answer(found, "the Tinker and the Goon")) == \
        "The Outsiders in play: the Tinker and the Goon."


def test_the_godfather_learns_that_no_outsiders_are_in_play():
    found = by_player(begun(["zombuul", "godfather", "professor", "chambermaid", "exorcist", "tealady", "sailor"]))
    assert found["p2"].answer == "no Outsiders are in play"
    assert allows(found["p2"], "none") and allows(found["p2"], "0")
    refuses(found["p2"], "the Goon")


def test_the_godfather_is_shown_the_drunk_not_its_card():
    found = by_player(begun(["zombuul", "godfather", "drunk", "tinker", "chambermaid", "exorcist", "tealady"],
                            shown={"p3": "sailor"}))["p2"]
    assert found.answer == "the Drunk and the Tinker"
    refuses(found, "the Tinker")


def test_the_godfather_learns_the_outsiders_on_the_first_night_only():
    later = night2(GODFATHER)
    assert "p2" not in by_player(later)


# ----- the Exorcist -----

EXORCIST = ["zombuul", "exorcist", "gambler", "goon", "chambermaid", "godfather", "tealady"]


def test_the_demon_the_exorcist_chose_learns_who_and_does_not_wake_tonight():
    state = night2(EXORCIST)
    state = choose(state, "p1", "p4")  # the Zombuul chose before the Exorcist
    out = act(state, player="p2", type="night_choice", targets=["p1"])
    told_demon = [e for e in to_player(out, "p1") if e.type == "exorcist"]
    assert len(told_demon) == 1 and "The Exorcist, Name2 (seat 2), chose you" in told_demon[0].text
    assert not public(out) and not [e for p in ("p3", "p4", "p5", "p6", "p7") for e in to_player(out, p)]
    state = out.state
    assert ask_for(state, state.seat_of("p1"), GAME.chars_of(state)) is None
    assert "p1" not in state.night_choices  # its choice is void
    assert not night_prompts(state, "p1")
    with pytest.raises(IllegalAction, match="chooses nothing tonight"):
        act(state, player="p1", type="night_choice", targets=["p5"])


def test_the_exorcist_choosing_another_player_tells_nobody():
    out = act(night2(EXORCIST), player="p2", type="night_choice", targets=["p6"])  # the Godfather: no Demon
    assert not [e for e in out.events if e.type == "exorcist"]
    assert ask_for(out.state, out.state.seat_of("p1"), GAME.chars_of(out.state)) is not None


def test_a_poisoned_exorcist_does_not_stop_the_demon():
    out = act(poison(night2(EXORCIST), "p2"), player="p2", type="night_choice", targets=["p1"])
    assert not [e for e in out.events if e.type == "exorcist"]
    assert ask_for(out.state, out.state.seat_of("p1"), GAME.chars_of(out.state)) is not None


def test_the_drunk_who_thinks_they_are_the_exorcist_does_not_stop_the_demon():
    state = night2(["zombuul", "drunk", "gambler", "goon", "chambermaid", "godfather", "tealady"],
                   shown={"p2": "exorcist"})
    out = act(state, player="p2", type="night_choice", targets=["p1"])
    assert not [e for e in out.events if e.type == "exorcist"]


def test_the_demon_wakes_after_all_when_the_exorcist_changes_its_choice():
    state = act(night2(EXORCIST), player="p2", type="night_choice", targets=["p1"]).state
    out = act(state, player="p2", type="night_choice", targets=["p6"])
    assert any("you wake tonight after all" in e.text for e in to_player(out, "p1"))
    assert ask_for(out.state, out.state.seat_of("p1"), GAME.chars_of(out.state)) is not None


def test_the_exorcist_is_not_asked_on_the_first_night():
    state = begun(EXORCIST)
    assert ask_for(state, state.seat_of("p2"), GAME.chars_of(state)) is None


# ----- the Gambler -----

# (no Goon: the first player to choose it is drunk, and the Gambler would be)
GAMBLER = ["zombuul", "gambler", "drunk", "moonchild", "chambermaid", "godfather", "tealady"]


def test_the_gambler_is_asked_from_the_second_night_for_a_player_and_a_character():
    state = begun(GAMBLER, shown={"p3": "sailor"})
    assert ask_for(state, state.seat_of("p2"), GAME.chars_of(state)) is None
    later = night2(GAMBLER, shown={"p3": "sailor"})
    ask = ask_for(later, later.seat_of("p2"), GAME.chars_of(later))[0]
    assert ask.kind == "player_and_character" and not ask.judged
    assert len(night_prompts(later, "p2")) == 2  # the player, and the character


def test_the_gambler_who_guesses_wrong_dies():
    state = guess(night2(GAMBLER, shown={"p3": "sailor"}), "p2", "p4", "tinker")
    out = lock(state)
    assert not out.state.seat_of("p2").alive
    assert "Name2 (seat 2) dies" in plan(out) and "the Gambler dies" in plan(out)
    assert not [e for e in public(out) if "Moonchild" in e.text]  # the guess is not told to the town


def test_the_gambler_who_guesses_right_lives():
    out = lock(guess(night2(GAMBLER, shown={"p3": "sailor"}), "p2", "p4", "moonchild"))
    assert out.state.seat_of("p2").alive and "right: nothing happens" in plan(out)


def test_the_gambler_guessing_the_drunks_card_is_wrong():
    out = lock(guess(night2(GAMBLER, shown={"p3": "sailor"}), "p2", "p3", "sailor"))
    assert not out.state.seat_of("p2").alive
    out = lock(guess(night2(GAMBLER, shown={"p3": "sailor"}), "p2", "p3", "drunk"))
    assert out.state.seat_of("p2").alive


def test_a_drunk_or_poisoned_gambler_who_guesses_wrong_does_not_die():
    out = lock(guess(poison(night2(GAMBLER, shown={"p3": "sailor"}), "p2"), "p2", "p4", "tinker"))
    assert out.state.seat_of("p2").alive and "a wrong guess does not kill them" in plan(out)


def test_the_gambler_without_a_guessed_character_does_not_die():
    out = lock(choose(night2(GAMBLER, shown={"p3": "sailor"}), "p2", "p4"))
    assert out.state.seat_of("p2").alive and "no character guessed" in plan(out)


def test_the_grandchild_is_marked_at_the_random_deal_on_the_storytellers_grimoire_only():
    from games.clocktower.info import grimoire_text
    from games.engine import Player
    from games.engine.run import start

    players = [Player(id=f"p{i}", name=f"Name{i}", seat=i) for i in range(1, 8)]
    for seed in range(200):
        state = start(GAME, players, BMR, seed=seed).state
        if any("grandmother" in (s.character, s.shown) for s in state.seats):
            break
    else:
        raise AssertionError("no deal with a Grandmother")
    child = grandchild(state)
    assert child is not None and state.seat_of(child).alignment == "good"
    assert "Grandchild (Grandmother)" in grimoire_text(state, GAME.chars_of(state))
    out = act(state, type="begin")
    for event in out.events:
        if event.audience.kind != "storyteller":
            assert GRANDCHILD not in event.text, event.type


def test_the_storytellers_choices_at_the_lock_name_the_demon_the_exorcist_stopped():
    state = act(night2(EXORCIST), player="p2", type="night_choice", targets=["p1"]).state
    out = lock(state)
    summary = next(e for e in events_of(out, "storyteller") if e.type == "night_choices").text
    assert "does not wake tonight: the Exorcist, Name2 (seat 2), chose them" in summary


# ----- misregistration, on a script with the Spy and the Recluse -----

MIXED = {"script": '[{"id": "_meta", "name": "Mixed"}, "gambler", "grandmother", "chef", "empath", "monk", '
                   '"professor", "recluse", "goon", "spy", "godfather", "imp"]'}


def test_the_gamblers_guess_the_recluse_may_register_as_is_the_storytellers_call():
    characters = ["imp", "gambler", "recluse", "chef", "empath", "spy", "monk"]
    state = next_night(through_night(act(new_game(MIXED, characters), type="begin").state).state)
    out = lock(guess(state, "p2", "p3", "godfather"))
    assert not out.state.seat_of("p2").alive  # proposed wrong
    assert "may register as the Godfather: your call" in plan(out) and "`/st revive`" in plan(out)


def test_the_spy_may_be_shown_to_the_grandmother_as_a_good_townsfolk_or_outsider():
    characters = ["imp", "grandmother", "professor", "chef", "empath", "spy", "monk"]
    state = act(token(new_game(MIXED, characters), "p3", GRANDCHILD, "grandmother"), type="begin").state
    found = by_player(state)["p2"]
    assert allows(found, "6 is the Goon") and allows(found, "6 is the Monk")
    assert any("the Spy may register as a good Townsfolk or Outsider" in f for f in found.flags)
    refuses(found, "6 is the Spy", "1 is the Chef")  # the Spy as itself is evil; the Imp never good
    refuses(by_player(poison(state, "p6"))["p2"], "6 is the Goon")  # a poisoned Spy registers as itself


def test_the_spy_may_add_an_outsider_and_the_recluse_be_left_out_for_the_godfather():
    characters = ["imp", "godfather", "recluse", "chef", "empath", "spy", "monk"]
    found = by_player(act(new_game(MIXED, characters), type="begin").state)["p2"]
    assert found.answer == "the Recluse"
    assert allows(found, "the Recluse and the Goon") and allows(found, "none")
    assert allows(found, "the Goon")  # the Recluse left out, the Spy shown as the Goon
    assert any("the Spy may register as an Outsider" in f for f in found.flags)
    refuses(found, "the Chef", "3 is the Recluse")
    refuses(by_player(poison(poison(act(new_game(MIXED, characters), type="begin").state, "p3"), "p6"))["p2"],
            "none", "the Goon")  # poisoned, both register as themselves


def test_a_poisoned_chambermaids_false_count_is_recorded_as_false_information():
    state = poison(choose(night2(CHAMBERMAID, options={"inform_at": "accept"}), "p2", "p3", "p4"), "p2")
    state = lock(state).state
    out = act(state, type="inform", target="p2", answer="2")
    assert out.state.accepted["p2"].false is True and out.state.accepted["p2"].proposed == "1"
    out = act(state, type="inform", target="p2", answer="1")
    assert out.state.accepted["p2"].false is False
