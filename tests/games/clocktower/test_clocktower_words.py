"""Issue 27, items 6-11, pure: the deadlines a board names, the choices that stay open through the
reminder stage, who is reminded before the lock, and the words the town and the Storytellers read."""

import pytest
from support.clocktower_pure import (
    CHARACTERS,
    GAME,
    HOUR,
    act,
    events_of,
    new_game,
    timeout,
    to_day,
    vote,
)

from games.clocktower.info import grimoire_picture, grimoire_text
from games.clocktower.tally import NO_EXECUTION, tally, tally_text
from games.engine import IllegalAction
from games.engine.run import Replay, replay

CHARS = ["po", "lunatic", "spy", "ravenkeeper", "empath", "knight", "soldier", "virgin"]
SHOWN = {"p2": "pukka"}


def night(number, characters=CHARS, shown=SHOWN):
    state = act(new_game(None, characters, shown), type="begin").state
    while not (state.phase == "night" and state.night == number):
        state = timeout(state).state
    return state


# ----- item 6: the deadlines a player cares about -----

def test_a_night_board_names_the_lock_and_dawn_and_a_day_board_the_days_deadlines():
    state = night(1)
    assert (state.stage, GAME.board_ends(state)) == ("open", [["Night actions lock", 2 * HOUR], ["Dawn comes", 4 * HOUR]])
    state = timeout(state).state
    assert (state.stage, GAME.board_ends(state)) == ("closing", [["Night actions lock", 0.0], ["Dawn comes", 2 * HOUR]])
    state = timeout(state).state
    assert (state.stage, GAME.board_ends(state)) == ("locked", [["Dawn comes", 0.0]])
    state = timeout(state).state
    assert GAME.board_ends(state) == [["Nominations close", 0.0], ["Announcements close", 12 * HOUR],
                                      ["Voting closes", 24 * HOUR]]
    state = timeout(state).state  # votes only: the same deadlines as the tally's
    tally_event = next(e for e in timeout(timeout(to_day()).state).events if e.type == "tally")
    assert GAME.board_ends(state) == [["Announcements close", 0.0], ["Voting closes", 12 * HOUR]]
    assert tally_event.data["ends"] == [["Voting closes", 0.0]]


def test_without_a_reminder_stage_the_open_stage_ends_at_the_lock():
    state = act(new_game({"reminder_hours": "0"}), type="begin").state
    assert GAME.board_ends(state) == [["Night actions lock", 0.0], ["Dawn comes", 2 * HOUR]]


def test_the_lock_is_told_to_the_town_with_dawns_time():
    state = timeout(night(1)).state
    out = timeout(state)
    board = events_of(out, "public")
    assert [e.type for e in board] == ["actions_locked"] and board[0].opens_phase
    assert "dawn comes in 2 hours" in board[0].text
    assert "night actions are locked" in GAME.view(out.state, None).text


# ----- item 8: the choices stay open until the lock -----

def test_the_nights_choices_stand_from_dusk_through_the_reminder_stage_until_the_lock():
    state = night(2)
    dusk = state.phase_seq
    assert GAME.choices_since(state) == dusk
    closing = timeout(state).state
    assert closing.phase_seq == dusk + 1 and GAME.choices_since(closing) == dusk
    assert [p.action for p in GAME.prompts(closing, "p1")] == ["night_choice"]
    locked = timeout(closing).state
    assert GAME.choices_since(locked) == locked.phase_seq  # the lock closes them
    with pytest.raises(IllegalAction, match="Night actions locked"):
        act(locked, player="p1", type="night_choice", targets=["p5"])
    day = timeout(timeout(to_day()).state).state
    assert GAME.choices_since(day) == day.phase_seq  # a day's stages close their prompts as before


# ----- item 9: only those with a choice to make are reminded -----

def test_only_players_with_a_choice_to_make_are_reminded_before_the_lock():
    state = night(2)
    state = act(state, type="kill", target="p4").state  # the Ravenkeeper dies: woken
    out = timeout(state)
    reminded = {e.audience.id for e in events_of(out, "player") if e.type == "reminder"}
    # the Po, the Lunatic (as its Pukka) and the woken Ravenkeeper; not the Spy, Empath or Knight
    assert reminded == {"p1", "p2", "p4"}
    assert all("Make my choice" in e.text for e in events_of(out, "player") if e.type == "reminder")
    first = timeout(night(1))
    assert {e.audience.id for e in events_of(first, "player")} == {"p2"}  # the Po and Ravenkeeper wait


def test_the_waitress_is_reminded_from_night_2_and_her_host_while_unanswered():
    state = act(new_game(None, CHARS, SHOWN), type="begin").state
    state = timeout(timeout(timeout(state).state).state).state  # day 1
    state = act(state, type="add_traveller", target="w1", name="Wai", seat=9, character="waitress",
                alignment="good").state
    while state.phase != "night":
        state = timeout(state).state
    state = act(state, player="w1", type="night_choice", targets=["p5"]).state
    out = timeout(state)
    reminded = {e.audience.id for e in events_of(out, "player") if e.type == "reminder"}
    assert {"w1", "p5"} <= reminded and "p3" not in reminded
    assert "Waitress" in next(e.text for e in events_of(out, "player") if e.audience.id == "p5")
    answered = act(state, player="p5", type="waitress_answer", agree=False).state
    assert "p5" not in {e.audience.id for e in events_of(timeout(answered), "player") if e.type == "reminder"}


# ----- item 11: words -----

def test_a_dead_players_nomination_is_refused_with_the_reason():
    state = act(to_day(), type="kill", target="p5").state
    with pytest.raises(IllegalAction, match="You are dead: the dead cannot nominate, but your vote token still "
                                            "lets you vote once on an existing nomination"):
        vote(state, "p5", "p4")
    assert "The dead cannot nominate" in GAME.prompts(state, "p5")[0].text


def test_after_nominations_close_the_tally_no_longer_invites_nominations():
    state = timeout(to_day()).state
    text = tally_text(state, tally(state))
    assert "nominates them" not in text and "Nobody was nominated today." in text
    assert "the first vote on a player nominates them" in tally_text(to_day(), tally(to_day()))


def test_the_storytellers_are_told_when_an_early_end_stops_being_possible():
    state = vote(to_day(), "p3", "p2").state
    for voter in ("p4", "p5", "p6", "p7"):
        state = vote(state, voter, "p2").state
    out = vote(state, "p4", "p3")  # a vote moves: 4 on Name2, 1 on Name3, 3 not cast
    told = [e for e in out.events if e.type == "early_end_over"]
    assert len(told) == 1 and told[0].audience.kind == "storyteller"
    assert "may no longer end early" in told[0].title
    assert not [e for e in vote(out.state, "p8", NO_EXECUTION).events if e.type == "early_end_over"]


def test_counts_agree_with_their_nouns():
    state = vote(to_day(), "p3", "p2").state
    prompt = GAME.prompts(state, "p4")[0]
    descriptions = [c.description for c in prompt.fields[0].choices]
    assert "1 vote, nominated by Name3" in descriptions and "0 votes" in descriptions
    assert not any("(s)" in d for d in descriptions)


def test_two_revived_at_night_live_again_at_dawn():
    state = to_day()
    state = act(act(state, type="kill", target="p4").state, type="kill", target="p5").state
    while state.phase != "night":
        state = timeout(state).state
    state = act(act(state, type="revive", target="p4").state, type="revive", target="p5").state
    while state.stage != "locked":
        state = timeout(state).state
    dawn = next(e for e in timeout(state).events if e.type == "dawn")
    assert "Name4 (seat 4), Name5 (seat 5) live again." in dawn.text


def test_the_end_of_the_game_is_named_as_such_not_over_3():
    state = act(to_day(), type="declare_winner", team="good", reason="test").state
    assert state.phase == "over"
    title = grimoire_picture(state, GAME.chars_of(state))["title"]
    assert "Over" not in title and title == "Game over (day 1)"
    assert "Game over (day 1)" in grimoire_text(state, GAME.chars_of(state))
    assert GAME.view(state, None).text.startswith("**The game is over**")


def test_the_chronicle_counts_one_vote_as_one_vote():
    script = Replay(game="clocktower", seed=1, players=[f"p{i}" for i in range(1, 9)], setup={
        "characters": {f"p{i + 1}": c for i, c in enumerate(CHARACTERS)}, "bluffs": ["shugenja", "juggler", "alsaahir"]},
        actions=[{"type": "begin", "player": "st1"}, *[{"type": "phase_timeout"}] * 3,
                 {"type": "vote", "player": "p3", "target": "p4"}, *[{"type": "phase_timeout"}] * 3,
                 {"type": "declare_winner", "player": "st1", "team": "evil", "reason": "Test."}])
    chronicle = next(line for line in replay(GAME, script) if line.get("event") == "chronicle")
    assert "• 1 vote cast or moved that day" in chronicle["text"]
