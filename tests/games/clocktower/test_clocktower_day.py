"""The forum day, pure: the cycle's stages and lengths, nominations and moving votes, dead
players' vote tokens, the plurality and its ties, the early end, executions and the end of the
game with the Storyteller's confirmation, and every day's votes in the record and the chronicle."""

import pytest
from support.clocktower_pure import (
    CHARACTERS,
    GAME,
    HOUR,
    ST,
    act,
    events_of,
    new_game,
    shown,
    timeout,
    to_day,
    vote,
)

from games.clocktower.tally import NO_EXECUTION, early_end_refusal, tally
from games.engine import IllegalAction, SetupError
from games.engine.run import Replay, replay, step


def test_the_cycle_runs_in_stages_with_the_rulebooks_lengths():
    state = act(new_game(), type="begin").state
    seen = []
    for _ in range(7):
        seen.append((state.phase, state.stage, GAME.phase_seconds(state) / HOUR))
        state = timeout(state).state
    assert seen == [("night", "open", 20), ("night", "closing", 2), ("night", "locked", 2),
                    ("day", "nominations", 24), ("day", "voting", 12), ("day", "final", 12),
                    ("night", "open", 20)]
    assert state.night == 2 and state.day == 1


def test_each_boundary_tells_the_right_people():
    state = act(new_game(), type="begin").state
    out = timeout(state)  # the reminder, before the lock
    reminded = {e.audience.id for e in events_of(out, "player")}
    # only those with a choice to make tonight: the Pukka (the Spy, Washerwoman, Empath and Knight
    # only learn, the Soldier does nothing)
    assert reminded == {"p1"}
    assert all("lock in 2 hours" in e.text for e in events_of(out, "player"))
    assert not events_of(out, "public")
    out = timeout(out.state)  # the lock: the Storytellers are told; the town sees the lock and dawn's time
    assert [e.type for e in out.events] == ["actions_locked", "locked", "night_choices", "night_plan",
                                            "night_information"]
    assert [e.type for e in events_of(out, "public")] == ["actions_locked"]
    assert {e.audience.kind for e in out.events[1:]} == {"storyteller"}
    state = act(out.state, type="kill", target="p4").state
    out = timeout(state)  # dawn: the night's death, nothing more
    dawn = next(e for e in out.events if e.type == "dawn")
    assert "Name4 (seat 4) died in the night" in dawn.text and dawn.opens_phase
    tally_event = next(e for e in out.events if e.type == "tally")
    assert tally_event.slot == "tally:1" and tally_event.data["ends"] == [
        ["Nominations close", 0.0], ["Announcements close", 12 * HOUR], ["Voting closes", 24 * HOUR]]
    out = timeout(out.state)
    assert "Nominations are closed" in next(e for e in out.events if e.type == "nominations_closed").text
    out = timeout(out.state)
    closed = [e for e in out.events if e.type == "announcements_closed"]
    assert {e.audience.kind for e in closed} == {"thread", "public"}


def test_cycle_lengths_are_options_and_a_cycle_that_does_not_fit_is_refused_in_words():
    state = act(new_game({"night_hours": "1", "day_hours": "2", "nomination_hours": "1",
                          "announcement_hours": "2", "lock_hours": "0.25", "reminder_hours": "0"}),
                type="begin").state
    lengths = []
    for _ in range(4):
        lengths.append((state.stage, GAME.phase_seconds(state)))
        state = timeout(state).state
    # no reminder stage; no "final" stage when announcements close with the day
    assert lengths == [("open", 2700), ("locked", 900), ("nominations", 3600), ("voting", 3600)]
    assert state.phase == "night"
    with pytest.raises(SetupError, match="must close no later than its announcements"):
        GAME.parse_options({"nomination_hours": "40"})
    with pytest.raises(SetupError, match="must fit inside the night"):
        GAME.parse_options({"night_hours": "3", "lock_hours": "2", "reminder_hours": "1"})


def test_the_first_vote_nominates_votes_move_and_the_plurality_is_executed():
    state = to_day()
    out = vote(state, "p3", "p2")
    assert [e.type for e in events_of(out, "public")] == ["nomination", "tally"]
    assert "Name3 (seat 3) nominates Name2 (seat 2)" in events_of(out, "public")[0].text
    assert out.reply == "You nominated them; your vote is on Name2 (seat 2)."
    state = out.state
    for voter in ("p4", "p5"):
        state = vote(state, voter, "p2").state
    state = vote(state, "p1", "p5").state  # a second nomination
    out = vote(state, "p4", "p5")  # a vote moves: no new nomination
    assert [e.type for e in events_of(out, "public")] == ["tally"] and out.reply == "Your vote is on Name5 (seat 5)."
    state = out.state
    assert [n.nominee for n in state.nominations] == ["p2", "p5"]
    t = tally(state)
    assert t.count == {"p2": 2, "p5": 2, NO_EXECUTION: 0} and t.leader == ""  # a tie
    with pytest.raises(IllegalAction, match="already on Name5"):
        vote(state, "p4", "p5")
    state = vote(state, "p6", "p2").state
    assert tally(state).leader == "p2"
    text = events_of(vote(state, "p7", NO_EXECUTION), "public")[0].text
    assert "About to die: **Name2 (seat 2)**" in text and "Name2 (seat 2)** · 3" in text
    while state.phase == "day":
        state = timeout(state).state
    assert state.phase == "night" and not next(s for s in state.seats if s.player == "p2").alive
    assert state.executed == "p2"


@pytest.mark.parametrize(("votes", "verdict"), [
    ({"p3": "p2", "p4": "p2", "p5": NO_EXECUTION, "p6": NO_EXECUTION}, "Tied at 2"),
    ({"p3": "p2", "p4": NO_EXECUTION, "p5": NO_EXECUTION}, "No execution has the most votes"),
    ({}, "No votes"),
])
def test_a_tie_or_no_execution_winning_or_no_votes_means_nobody_dies(votes, verdict):
    state = to_day()
    for voter, target in votes.items():
        state = vote(state, voter, target).state
    for _ in range(2):
        state = timeout(state).state
    out = timeout(state)
    execution = next(e for e in out.events if e.type == "execution")
    assert verdict in execution.text and "nobody is executed" in execution.text
    assert all(s.alive for s in out.state.seats) and out.state.executed == ""


def test_no_execution_needs_no_nomination_and_nominations_close_after_24_hours():
    state = to_day()
    out = vote(state, "p3", NO_EXECUTION)
    assert out.state.nominations == [] and not any(e.type == "nomination" for e in out.events)
    state = vote(out.state, "p4", "p2").state
    state = timeout(state).state  # 24 h: votes only
    with pytest.raises(IllegalAction, match="Nominations closed 24 hours into the day"):
        vote(state, "p5", "p6")
    state = vote(state, "p5", "p2").state  # an existing nomination still takes votes
    state = vote(state, "p6", NO_EXECUTION).state  # and no execution is still a vote (the default)
    strict = timeout(to_day(options={"no_execution_after_nominations": "false"})).state
    with pytest.raises(IllegalAction, match="only while nominations are open"):
        vote(strict, "p3", NO_EXECUTION)


def test_one_nomination_a_day_is_an_option_and_travellers_are_not_nominated():
    state = to_day(options={"one_nomination_per_day": "true"})
    state = vote(state, "p3", "p2").state
    with pytest.raises(IllegalAction, match="already nominated today"):
        vote(state, "p3", "p4")
    state = vote(state, "p3", NO_EXECUTION).state  # voting on is still free
    state = act(state, type="add_traveller", target="t1", name="Tra", seat=12, character="thief",
                alignment="evil").state
    with pytest.raises(IllegalAction, match="Travellers are exiled, not executed"):
        vote(state, "p4", "t1")
    free = vote(vote(to_day(), "p3", "p2").state, "p3", "p4").state  # the default: no limit
    assert [n.nominee for n in free.nominations] == ["p2", "p4"]


def test_the_dead_vote_with_one_token_and_never_nominate():
    state = act(to_day(), type="kill", target="p5").state
    state = vote(state, "p3", "p2").state
    with pytest.raises(IllegalAction, match="the dead cannot nominate"):
        vote(state, "p5", "p4")
    state = vote(state, "p5", NO_EXECUTION).state  # a vote for no execution keeps the token...
    state = vote(state, "p5", "p2").state  # ...and the vote moves onto a nomination
    assert next(s for s in state.seats if s.player == "p5").vote_token  # spent only at the close
    state = vote(state, "p5", NO_EXECUTION).state
    state = vote(state, "p5", "p2").state
    while state.phase == "day":
        state = timeout(state).state
    dead = next(s for s in state.seats if s.player == "p5")
    assert not dead.vote_token
    while state.phase != "day":
        state = timeout(state).state
    with pytest.raises(IllegalAction, match="vote token is spent"):
        vote(state, "p5", NO_EXECUTION)
    assert not any(p.action == "vote" for p in GAME.prompts(state, "p5"))


def test_a_dead_vote_on_no_execution_at_the_close_keeps_the_token_unless_the_option_says_otherwise():
    for spends, kept in (("false", True), ("true", False)):
        state = act(to_day(options={"dead_no_execution_spends": spends}), type="kill", target="p5").state
        state = vote(state, "p5", NO_EXECUTION).state
        while state.phase == "day":
            state = timeout(state).state
        assert next(s for s in state.seats if s.player == "p5").vote_token is kept


def test_when_cast_spends_the_token_at_once_but_the_vote_still_moves_that_day():
    state = act(to_day(options={"dead_vote": "when_cast"}), type="kill", target="p5").state
    state = vote(state, "p3", "p2").state
    state = vote(state, "p4", "p6").state
    state = vote(state, "p5", "p2").state
    assert not next(s for s in state.seats if s.player == "p5").vote_token
    state = vote(state, "p5", "p6").state  # moving today is still allowed
    out = step(GAME, state, {"type": "unvote", "player": "p5"}, seed=1)
    assert "stays spent" in out.reply
    with pytest.raises(IllegalAction, match="vote token is spent"):
        vote(out.state, "p5", "p2")


def test_votes_are_refused_at_night_and_a_click_from_a_closed_stage_counts_nothing():
    state = act(new_game(), type="begin").state
    with pytest.raises(IllegalAction, match="voting opens at dawn"):
        vote(state, "p3", "p2")
    day = to_day()
    old_seq = day.phase_seq
    later = timeout(day).state
    with pytest.raises(IllegalAction, match="Too late"):
        step(GAME, later, {"type": "vote", "player": "p3", "target": "p2", "phase_seq": old_seq}, seed=1)
    with pytest.raises(IllegalAction, match="not seated"):
        vote(day, "p3", "nobody")


def test_the_early_end_only_when_no_tie_or_change_of_leader_is_possible():
    state = to_day()
    state = vote(state, "p3", "p2").state
    with pytest.raises(IllegalAction, match="Voting cannot end early yet: Name2 leads with 1"):
        act(state, type="end_voting")
    told = []
    for voter in ("p4", "p5", "p6", "p7"):
        out = vote(state, voter, "p2")
        told += [e for e in out.events if e.type == "early_end"]
        state = out.state
    # 5 of 8 votes on Name2: the other 3 cannot reach 5
    assert len(told) == 1 and told[0].audience.kind == "storyteller"
    assert early_end_refusal(state, tally(state)) == ""
    out = act(state, type="end_voting")
    assert out.state.phase == "night" and out.state.executed == "p2"
    assert "ended voting early" in next(e for e in out.events if e.type == "execution").text


def test_the_uncast_reading_takes_cast_votes_as_standing():
    state = to_day(options={"early_end": "uncast"})
    for voter, target in (("p3", "p2"), ("p4", "p2"), ("p5", "p2"), ("p6", "p3"), ("p7", NO_EXECUTION)):
        state = vote(state, voter, target).state
    # 3 to 1 with 3 uncast (p1, p2, p8): could still tie
    assert "3 votes are not yet cast" in early_end_refusal(state, tally(state))
    state = vote(state, "p8", "p2").state
    state = vote(state, "p1", "p2").state
    # 5 to 1 with 1 uncast: settled under this reading (the majority reading agrees: 5 > 2 + 1)
    assert early_end_refusal(state, tally(state)) == ""
    majority = to_day()
    for voter, target in (("p3", "p2"), ("p4", "p2"), ("p5", "p2"), ("p6", "p3"), ("p7", "p3"), ("p8", "p3"),
                          ("p1", "p2"), ("p2", "p2")):
        majority = vote(majority, voter, target).state
    assert "could still reach 3" not in early_end_refusal(majority, tally(majority))
    assert early_end_refusal(majority, tally(majority)) == ""  # 5 > 3


def test_executing_the_demon_waits_for_the_storytellers_then_good_wins():
    state = to_day()
    for voter in ("p3", "p4", "p5", "p6", "p7"):
        state = vote(state, voter, "p1").state
    out = act(state, type="end_voting")
    assert out.state.phase == "ending" and out.state.pending_end.team == "good"
    pending = next(e for e in out.events if e.type == "pending_end")
    assert pending.audience.kind == "storyteller" and "every Demon is dead" in pending.text
    # the town hears the execution, and nothing about the end or the night
    public = [e.type for e in out.events if e.audience.kind in ("public", "thread")]
    assert public == ["tally", "execution"]
    assert GAME.view(out.state, None).text.startswith("**Day 1 is over**")
    with pytest.raises(IllegalAction, match="Voting is closed"):
        vote(out.state, "p8", NO_EXECUTION)
    won = act(out.state, type="declare_winner", team="good")
    assert won.state.finished and won.state.outcome == "good"
    assert "**Good wins!** Every Demon is dead." in won.events[0].text
    assert won.events[0].image == "grimoire"


def test_the_storytellers_may_go_on_instead_and_evil_wins_at_two_alive():
    state = to_day(new_game(characters=CHARACTERS[:7]))
    for target in ("p3", "p4", "p5", "p6"):
        state = act(state, type="kill", target=target).state
    # 3 alive; executing one more leaves 2: evil wins (the Pukka lives). The 4 dead still hold
    # their tokens, so voting cannot end early: the day runs out
    for voter in ("p1", "p2", "p7"):
        state = vote(state, voter, "p7").state
    with pytest.raises(IllegalAction, match="the 4 not yet cast could still reach 4"):
        act(state, type="end_voting")
    for _ in range(2):
        state = timeout(state).state
    out = timeout(state)
    assert out.state.pending_end.team == "evil" and "only 2 players" in out.state.pending_end.reason
    politician = next(e for e in out.events if e.type == "pending_end")
    assert "The Politician (Name7 (seat 7))" in politician.text
    went_on = act(out.state, type="continue")
    assert went_on.state.phase == "night" and went_on.state.night == 2
    with pytest.raises(IllegalAction, match="no end of the game waiting"):
        act(went_on.state, type="continue")
    won = act(out.state, type="declare_winner", team="evil", politician=True)
    assert "p7" in won.state.winners and "The Politician, Name7 (seat 7)" in won.events[0].text
    with pytest.raises(IllegalAction, match="no Politician on the losing side"):
        act(out.state, type="declare_winner", team="good", politician=True)


def test_a_demon_killed_at_night_ends_the_game_at_dawn_after_the_storytellers_confirm():
    state = act(new_game(), type="begin").state
    state = act(state, type="kill", target="p1").state
    while state.phase == "night":
        state = timeout(state).state
    assert state.phase == "ending" and state.pending_end.resume == "day"
    resumed = act(state, type="continue").state
    assert resumed.phase == "day" and resumed.stage == "nominations"


def test_every_days_votes_are_in_the_record_and_the_chronicle_at_the_end():
    script = Replay(game="clocktower", seed=1, players=[f"p{i}" for i in range(1, 9)], setup={
        "characters": {f"p{i + 1}": c for i, c in enumerate(CHARACTERS)}, "bluffs": ["shugenja", "juggler", "alsaahir"]},
        actions=[{"type": "begin", "player": ST}, *[{"type": "phase_timeout"}] * 3,
                 {"type": "vote", "player": "p3", "target": "p4"},
                 {"type": "vote", "player": "p5", "target": "p4"},
                 {"type": "vote", "player": "p5", "target": NO_EXECUTION},
                 {"type": "vote", "player": "p6", "target": "p4"},
                 *[{"type": "phase_timeout"}] * 3, *[{"type": "phase_timeout"}] * 3,
                 {"type": "vote", "player": "p2", "target": "p1"},
                 {"type": "declare_winner", "player": ST, "team": "evil", "reason": "Test."}])
    lines = list(replay(GAME, script))
    records = [line for line in lines if line.get("audience") == "record"]
    assert [r["event"] for r in records] == ["vote"] * 4 + ["day", "vote"]
    chronicle = next(line for line in lines if line.get("event") == "chronicle")
    assert "**Day 1**: Name4" not in chronicle["text"]  # replay players are named by their ids
    assert "**Day 1**: p4 (seat 4) executed" in chronicle["text"]
    assert "p4 (seat 4) · 2 (nominated by p3): p3 (seat 3), p6 (seat 6)" in chronicle["text"]
    assert "No execution · 1: p5 (seat 5)" in chronicle["text"]
    assert "4 votes cast or moved that day" in chronicle["text"]


def test_the_vote_prompt_offers_what_the_voter_may_do():
    state = act(to_day(), type="kill", target="p5").state
    state = vote(state, "p3", "p2").state
    living = next(p for p in GAME.prompts(state, "p4") if p.action == "vote")
    assert [c.value for c in living.fields[0].choices] == [f"p{i}" for i in range(1, 9)] + [NO_EXECUTION]
    dead = next(p for p in GAME.prompts(state, "p5") if p.action == "vote")
    assert [c.value for c in dead.fields[0].choices] == ["p2", NO_EXECUTION]  # the dead do not nominate
    assert "uses your vote token" in dead.text
    assert [p.action for p in GAME.prompts(state, "p3")] == ["vote", "unvote"]


def test_the_thiefs_choice_counts_a_vote_negatively_the_next_day():
    state = act(new_game(), type="begin").state
    out = act(state, type="count_negatively", target="p5")
    assert "counts negatively tomorrow" in out.reply and not out.events  # nothing public at night
    state = out.state
    while state.phase == "night":
        state = timeout(state).state
    assert state.negative == ["p5"] and state.negative_tomorrow == []
    for voter in ("p3", "p4", "p5"):
        state = vote(state, voter, "p2").state
    state = vote(state, "p6", "p7").state
    t = tally(state)
    assert t.count["p2"] == 1 and t.leader == ""  # 1 + 1 - 1 ties the other nomination
    with pytest.raises(IllegalAction, match="already counts negatively today"):
        act(state, type="count_negatively", target="p5")
    while state.phase == "day":
        state = timeout(state).state
    while state.phase == "night":
        state = timeout(state).state
    assert state.negative == []  # one day only


def test_a_dawn_that_ends_the_game_tells_the_deaths_but_opens_no_day():
    state = act(act(new_game(), type="begin").state, type="kill", target="p1").state
    while state.phase == "night":
        out = timeout(state)
        state = out.state
    dawn = next(e for e in out.events if e.type == "dawn")
    assert "Name1 (seat 1) died in the night" in dawn.text and "Nominations are open" not in dawn.text
    assert not any(e.type == "tally" for e in out.events)
    resumed = act(state, type="continue")
    assert any(e.type == "tally" for e in shown(resumed))


def test_a_vote_at_15_seats_works_the_thiefs_marks_out_once_per_count(monkeypatch):
    """Counted work, not time (issue 38): the tally asked every voter's weight, and each weight
    scanned every seat for the Thief (O(seats²), ~440 ``Seat.has`` a vote at 15 seats). Now the
    marks are worked out once per count, and the count is made once a vote (it was made before the
    vote too, to know whether an early end was allowed: the state now says what was last told)."""
    from games.clocktower import tally as tally_module
    from games.clocktower.state import Seat

    characters = ["pukka", "spy", "baron", "goblin", "washerwoman", "knight", "shugenja", "empath",
                  "highpriestess", "mathematician", "undertaker", "alsaahir", "juggler", "soldier", "recluse"]
    state = to_day(characters=characters)
    players = [s.player for s in state.seats]
    for i, p in enumerate(players[:14]):
        state = vote(state, p, players[(i + 3) % 15]).state
    state.negative = [players[5]]  # a Thief's mark (the Storytellers' with no Thief seated)
    seen = {"has": 0, "tally": 0}
    has, count = Seat.has, tally_module.tally

    def counted_has(self, character):
        seen["has"] += 1
        return has(self, character)

    def counted_tally(state, *ruling):
        seen["tally"] += 1
        return count(state, *ruling)

    monkeypatch.setattr(Seat, "has", counted_has)
    monkeypatch.setattr(tally_module, "tally", counted_tally)
    out = vote(state, players[14], players[2])
    assert out.state.votes[players[14]] == players[2]
    assert seen["tally"] == 1
    assert seen["has"] <= len(players) + 2, seen  # a seat scan for the count, and the vote's own
