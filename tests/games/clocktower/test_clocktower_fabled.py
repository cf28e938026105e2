"""The Fiddler and Hell's Librarian, pure: the fiddle contest (the Demon's secret choice, the town's
vote, the tie reading, the deadline, the Storytellers choosing for an absent Demon) with no
character or alignment in a public event; the silence at night and when called by day."""

import pytest
from support.clocktower_pure import GAME, act, events_of, timeout, to_day

from games.engine import IllegalAction

# seat 1 the Pukka (the Demon), seat 2 the Spy: evil; the rest good
CHARACTERS = ["pukka", "spy", "washerwoman", "empath", "knight", "soldier", "politician", "virgin"]
PLAYERS = [f"p{i}" for i in range(1, 9)]


def with_fabled(fabled, options=None):
    state = to_day(options=options)
    return act(state, type="add_fabled", fabled=fabled).state


def public_text(out):
    return " ".join(e.title + " " + e.text for e in events_of(out, "public"))


def contest(options=None):
    state = act(with_fabled("fiddler", options), type="fiddle")
    return act(state.state, player="p1", type="fiddle_challenge", target="p5")


def test_the_demon_secretly_chooses_an_opponent_and_the_town_learns_only_two_names():
    with pytest.raises(IllegalAction, match="The Fiddler is not in play"):
        act(to_day(), type="fiddle")
    out = act(with_fabled("fiddler"), type="fiddle")
    assert out.state.phase == "fiddle" and out.state.stage == "choosing"
    asked = events_of(out, "player")
    assert [(e.audience.id, e.type) for e in asked] == [("p1", "fiddle_ask")]
    assert "Name1" not in public_text(out)  # the Demon is not named
    with pytest.raises(IllegalAction, match="no fiddle contest for you"):
        act(out.state, player="p3", type="fiddle_challenge", target="p4")
    # the Demon's pick of its own side (the Spy) is answered like any pick, so the Demon learns nothing
    # of who is on its side; only the Storytellers are told, and choose the opponent instead
    same = act(out.state, player="p1", type="fiddle_challenge", target="p2")
    assert same.reply == "You chose Name2 (seat 2)." and same.state.stage == "choosing"
    assert [(e.type, e.audience.kind) for e in same.events] == [("fiddle_same_side", "storyteller")]
    with pytest.raises(IllegalAction, match="opposing"):
        act(out.state, type="fiddle", challenger="p2")
    chosen = act(out.state, player="p1", type="fiddle_challenge", target="p5")
    assert chosen.state.stage == "voting"
    said = public_text(chosen)
    assert "**Name1 (seat 1)** and **Name5 (seat 5)** are in the fiddle contest" in said
    for secret in ("Pukka", "Knight", "Demon (", "evil team", "good team"):
        assert secret not in said.replace("on a tie, good wins", "")
    with pytest.raises(IllegalAction, match="once per game"):
        act(chosen.state, type="fiddle")


def test_everyone_votes_alive_or_dead_and_the_winners_team_wins_at_once():
    state = contest().state
    state = act(state, type="kill", target="p3").state  # a dead player votes too, no token spent
    for voter in PLAYERS[:5]:
        state = act(state, player=voter, type="fiddle_vote", target="p5").state
    state = act(state, player="p6", type="fiddle_vote", target="p1").state
    with pytest.raises(IllegalAction, match="Vote for Name1 \\(seat 1\\) or Name5 \\(seat 5\\)"):
        act(state, player="p7", type="fiddle_vote", target="p2")
    state = act(state, player="p7", type="fiddle_vote", target="p1").state
    out = act(state, player="p8", type="fiddle_vote", target="p1")  # the last vote closes it
    assert out.state.finished and out.state.outcome == "good"
    assert set(out.state.winners) == {"p3", "p4", "p5", "p6", "p7", "p8"}
    over = next(e for e in events_of(out, "public") if e.type == "game_over")
    assert "**Name5 (seat 5)** wins it (5 votes to 3)" in over.text
    assert any(e.type == "fiddle" for e in out.events if e.audience.kind == "record")


def test_a_tie_goes_to_good_by_the_rulebook_or_to_evil_with_the_official_reading():
    for options, team in ((None, "good"), ({"fiddler_tie": "evil"}, "evil")):
        state = contest(options).state
        state = act(state, player="p3", type="fiddle_vote", target="p1").state
        state = act(state, player="p4", type="fiddle_vote", target="p5").state
        out = act(state, type="end_voting")
        assert out.state.outcome == team, options
        assert f"a tie, 1 to 1: {team} wins ties" in next(e.text for e in out.events if e.type == "game_over")


def test_the_contest_closes_at_its_deadline_and_the_storytellers_choose_for_an_absent_demon():
    state = act(with_fabled("fiddler"), type="fiddle").state
    assert GAME.phase_seconds(state) is None  # the Demon's choice has no deadline
    out = act(state, type="fiddle", challenger="p4")
    assert out.state.stage == "voting" and out.state.fiddle.challenger == "p4"
    assert GAME.phase_seconds(out.state) == 24 * 3600
    state = act(out.state, player="p2", type="fiddle_vote", target="p1").state
    over = timeout(state)
    assert over.state.finished and over.state.outcome == "evil"


def test_hells_librarian_hears_who_speaks_at_night_and_in_a_silence_called_by_day():
    with pytest.raises(IllegalAction, match="Hell's Librarian is not in play"):
        act(to_day(), type="silence")
    state = with_fabled("hellslibrarian")
    assert not GAME.spoke_matters(state, "p3", "town_square")  # no silence by day until one is called
    out = act(state, type="silence")
    assert "call for **silence**" in public_text(out)
    state = out.state
    assert GAME.spoke_matters(state, "p3", "town_square")
    heard = act(state, player="p3", type="spoke", place="town_square")
    told = events_of(heard, "storyteller")
    assert "Name3 (seat 3) spoke in the town square during the silence you called" in told[0].text
    assert not events_of(heard, "public") and not events_of(heard, "player")
    state = heard.state
    assert any(r.player == "p3" and r.token == "Something Bad" for r in state.reminders)
    assert not GAME.spoke_matters(state, "p3", "town_square")  # reported once
    state = act(state, type="silence", on=False).state
    assert not GAME.spoke_matters(state, "p4", "town_square")
    while state.phase != "night":
        state = timeout(state).state
    assert GAME.spoke_matters(state, "p4", "announcements")  # the night is silent
    with pytest.raises(IllegalAction, match="The night is silent already"):
        act(state, type="silence")


def test_speaking_in_the_announcement_thread_in_a_silence_does_not_break_a_whisper_there():
    state = act(with_fabled("hellslibrarian"), player="p3", type="whisper", players=["p4"],
                place="announcements").state
    state = act(state, type="silence").state
    out = act(state, player="p3", type="spoke", place="announcements")
    assert [e.type for e in out.events] == ["silence_broken"]
    assert not out.state.whispers[0].broken_by
