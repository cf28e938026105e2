"""The Klutz, pure, on a forced deal of Sects & Violets: each test named after the rule point the official
wiki settles (the readings it leaves open are in the README's Interpretations, "Sects & Violets' mechanics")."""

import pytest
from support.clocktower_pure import act, bounded, choose, events_of, new_game

from games.clocktower.rules import ruled
from games.engine import IllegalAction

SNV = {"script": "Sects & Violets"}
# the No Dashii in seat 1, the Witch in seat 2, the Klutz in seat 5
TABLE = ["nodashii", "witch", "clockmaker", "dreamer", "klutz", "oracle", "sage"]



def day1(characters=TABLE):
    return bounded(act(new_game(SNV, characters), type="begin").state, lambda s: s.phase == "day", "day 1")[1]


def klutz(state, target, by="p5"):
    return act(state, player=by, type="klutz_choice", target=target, place="announcements")


def dead_klutz(characters=TABLE):
    return act(day1(characters), type="kill", target="p5").state


def public_text(out):
    return " ".join(e.text + (e.title or "") for e in out.events if e.audience.kind in ("public", "thread"))


def told(out):
    return [e.text for e in events_of(out, "storyteller") if e.type == "klutz"]


def test_the_klutz_is_ruled_on_sects_and_violets():
    assert ruled(day1(), "klutz")


def test_the_klutz_choosing_an_evil_player_loses_the_game_for_good():
    out = klutz(dead_klutz(), "p2")
    end = out.state.pending_end
    assert out.state.phase == "ending" and end is not None and end.team == "evil" and end.resume == "day"
    assert "the Klutz, Name5 (seat 5), publicly chose Name2 (seat 2), who is evil" in end.reason
    # the town reads the choice, the same words whoever makes it, and nothing of the result
    assert "Name5 (seat 5) publicly chooses Name2 (seat 2), as the Klutz." in public_text(out)
    assert "evil" not in public_text(out).lower()


def test_the_klutz_choosing_a_good_player_nothing_happens_and_the_game_continues():
    out = klutz(dead_klutz(), "p3")
    assert out.state.phase == "day" and out.state.pending_end is None
    assert told(out) == ["The Klutz, Name5 (seat 5), chose Name3 (seat 3), who is good: nothing happens."]


def test_an_evil_klutz_choosing_an_evil_player_good_wins_instead():
    state = act(dead_klutz(), type="set_alignment", target="p5", alignment="evil", tell=False).state
    end = klutz(state, "p1").state.pending_end
    assert end is not None and end.team == "good"


def test_the_klutz_killed_at_night_learns_it_at_dawn_and_chooses_that_day():
    state = day1()
    night = bounded(state, lambda s: s.phase == "night", "night 2")[1]
    night = choose(night, "p1", "p5")  # the No Dashii kills the Klutz
    out, day2 = bounded(night, lambda s: s.phase == "day", "day 2")
    judged = next(e for e in out.events if e.type == "judged_today")
    assert judged.audience.kind == "storyteller"
    assert "Name5 (seat 5), the Klutz, is dead and has not chosen: they must publicly choose 1 alive player" in \
        judged.text
    assert "Klutz" not in public_text(out)
    assert klutz(day2, "p2").state.pending_end is not None


def test_the_klutz_chooses_an_alive_player_once_and_only_once_it_died():
    with pytest.raises(IllegalAction, match="You are alive"):
        klutz(day1(), "p2")
    state = act(dead_klutz(), type="kill", target="p3").state
    with pytest.raises(IllegalAction, match="is dead: choose 1 alive player"):
        klutz(state, "p3")
    state = klutz(state, "p4").state
    with pytest.raises(IllegalAction, match="made once"):
        klutz(state, "p2")


def test_a_drunk_or_poisoned_klutz_choice_has_no_effect():
    state = act(dead_klutz(), type="add_reminder", target="p5", token="Poisoned", source="").state
    out = klutz(state, "p2")
    assert out.state.phase == "day" and out.state.pending_end is None
    assert "is poisoned" in told(out)[0] and "does nothing" in told(out)[0]
    assert any("the Klutz" in a.why for a in out.state.abnormal)


def test_a_bluffed_klutz_choice_reads_the_same_and_does_nothing():
    state = act(day1(), type="kill", target="p6").state  # the Oracle, dead, bluffs the Klutz
    out = klutz(state, "p2", by="p6")
    assert "Name6 (seat 6) publicly chooses Name2 (seat 2), as the Klutz." in public_text(out)
    assert out.state.pending_end is None and not told(out)


def test_the_klutzs_choice_counts_only_in_the_announcements_hours():
    state = dead_klutz()
    with pytest.raises(IllegalAction, match="announcement thread"):
        act(state, player="p5", type="klutz_choice", target="p2", place="town_square")
    night = bounded(state, lambda s: s.phase == "night", "the night")[1]
    with pytest.raises(IllegalAction, match="Public announcements count only"):
        klutz(night, "p2")
