"""The day's talk, pure: whispers (the count, the cost, Travellers, breaking, neighbour whispers,
the ledger), public announcements (where, when, the same answer for everyone, the Alsaahir and
the Goblin's ends), the Virgin, exiles and the Travellers' three cycles."""

import pytest
from support.clocktower_pure import GAME, act, events_of, timeout, to_day, vote

from games.clocktower.talk import whisper_ledger
from games.engine import Event, IllegalAction

THREAD = "announcements"


def say(state, player, **action):
    action["player"] = player
    return act(state, **action)


def whisper(state, player, *others, place=THREAD):
    return say(state, player, type="whisper", players=list(others), place=place)


def with_traveller(state, character="thief", alignment="evil", seat=12, target="t1"):
    return act(state, type="add_traveller", target=target, name=f"Tra{seat}", seat=seat, character=character,
               alignment=alignment).state


def until_night(state):
    while state.phase == "day":
        state = timeout(state).state
    return state


# ----- whispers -----

def test_a_whisper_is_declared_in_the_thread_costs_one_per_other_player_and_opens_a_group():
    state = to_day()
    out = whisper(state, "p3", "p4", "p5")
    announced = next(e for e in out.events if e.type == "whisper")
    assert announced.audience.kind == "thread" and announced.audience.id == THREAD
    assert "Name3 (seat 3) whispers with Name4 (seat 4), Name5 (seat 5)" in announced.text
    assert "used 2 of 3" in announced.text  # 8 players: 2 + 1 base Minion
    group = next(e for e in out.events if e.type == "whisper_open")
    assert group.audience.kind == "group" and group.audience.id == "whisper:1"
    assert set(group.audience.members) == {"p3", "p4", "p5"}
    assert out.state.whispers_used == {"p3": 2}  # the declarer pays (the default)
    with pytest.raises(IllegalAction, match="costs 2 and you have 1 of 3 left today"):
        whisper(out.state, "p3", "p6", "p7")
    state = whisper(out.state, "p3", "p6").state
    with pytest.raises(IllegalAction, match="costs 1 and you have 0 of 3 left"):
        whisper(state, "p3", "p8")
    # the next day the count starts again; an unbroken whisper stays open
    day = until_night(state)
    while day.phase == "night":
        day = timeout(day).state
    assert day.whispers_used == {} and [w.id for w in day.whispers] == [1, 2]
    assert whisper(day, "p3", "p8").state.whispers_used == {"p3": 1}


def test_whispers_are_refused_in_words_at_night_out_of_the_thread_alone_or_with_strangers():
    state = to_day()
    with pytest.raises(IllegalAction, match="in the announcement thread"):
        whisper(state, "p3", "p4", place="town_square")
    with pytest.raises(IllegalAction, match="cannot whisper yourself"):
        whisper(state, "p3", "p3")
    with pytest.raises(IllegalAction, match="not seated"):
        whisper(state, "p3", "stranger")
    with pytest.raises(IllegalAction, match="talk is closed at night"):
        whisper(until_night(state), "p3", "p4")
    state = whisper(state, "p3", "p4").state
    with pytest.raises(IllegalAction, match="already have an open whisper with exactly these players"):
        whisper(state, "p4", "p3")
    # the dead still talk: a dead player may whisper and be whispered
    dead = act(state, type="kill", target="p6").state
    assert whisper(dead, "p6", "p7").state.whispers_used == {"p3": 1, "p6": 1}


def test_travellers_are_free_to_whisper_but_a_traveller_always_pays():
    state = with_traveller(to_day())
    state = whisper(state, "p3", "t1").state
    assert state.whispers_used == {}
    state = whisper(state, "t1", "p4", "p5").state
    assert state.whispers_used == {"t1": 2}
    each = with_traveller(to_day(options={"whisper_payer": "each"}))
    each = whisper(each, "p3", "p4", "t1").state
    assert each.whispers_used == {"p3": 1, "p4": 1, "t1": 2}


def test_speaking_in_the_town_square_breaks_a_whisper_whole_or_only_for_the_speaker():
    state = whisper(whisper(to_day(), "p3", "p4", "p5").state, "p6", "p7").state
    assert GAME.breaks_whisper(state, "p4", "town_square")
    assert not GAME.breaks_whisper(state, "p8", "town_square")  # no whisper: no action sent
    assert not GAME.breaks_whisper(state, "p4", THREAD)  # the announcement thread: not by default
    out = say(state, "p4", type="spoke", place="town_square")
    broken = next(e for e in out.events if e.type == "whisper_broken")
    assert broken.audience.id == "whisper:1" and broken.data == {"close": True}
    assert "Name4 spoke in the town square" in broken.text
    assert [w.broken_by for w in out.state.whispers] == ["p4", ""]
    with pytest.raises(IllegalAction, match="No whisper of yours breaks"):
        say(out.state, "p4", type="spoke", place="town_square")
    # the speaker reading: the others go on
    state = whisper(to_day(options={"whisper_break": "speaker"}), "p3", "p4", "p5").state
    out = say(state, "p4", type="spoke", place="town_square")
    assert out.state.whispers[0].members == ["p3", "p5"] and not out.state.whispers[0].broken_by
    assert next(e for e in out.events if e.type == "whisper_left").audience.members == ("p3", "p5")
    # the announcement thread breaks whispers when the option says so
    state = whisper(to_day(options={"announcement_breaks_whisper": "true"}), "p3", "p4").state
    assert GAME.breaks_whisper(state, "p3", THREAD)


def test_neighbour_whispers_are_fifteen_words_once_a_day_to_each_living_neighbour():
    state = to_day()
    out = say(state, "p3", type="neighbour_whisper", target="p4", text="the spy is seat two, trust me")
    to_p4, own = events_of(out, "player")
    assert to_p4.audience.id == "p4" and "“the spy is seat two, trust me”" in to_p4.text
    assert own.audience.id == "p3"
    assert not events_of(out, "public") and not events_of(out, "thread")  # undeclared
    assert out.reply == "Whispered to Name4 (seat 4) (7 words)."
    with pytest.raises(IllegalAction, match="already whispered Name4"):
        say(out.state, "p3", type="neighbour_whisper", target="p4", text="again")
    with pytest.raises(IllegalAction, match="That is 16 words; a neighbour whisper is at most 15"):
        say(state, "p3", type="neighbour_whisper", target="p2", text=" ".join(["word"] * 16))
    with pytest.raises(IllegalAction, match="not your neighbour: you may whisper Name2 .* or Name4"):
        say(state, "p3", type="neighbour_whisper", target="p6", text="hello")
    # a dead neighbour is skipped (the default), or whispered (the "adjacent" reading)
    dead = act(state, type="kill", target="p4").state
    assert say(dead, "p3", type="neighbour_whisper", target="p5", text="hi").state.neighbour_whispers == [["p3", "p5"]]
    adjacent = act(to_day(options={"neighbour_whisper": "adjacent"}), type="kill", target="p4").state
    with pytest.raises(IllegalAction, match="not your neighbour"):
        say(adjacent, "p3", type="neighbour_whisper", target="p5", text="hi")
    say(adjacent, "p3", type="neighbour_whisper", target="p4", text="hi")
    # the circle wraps: seat 1's neighbours are seats 8 and 2
    say(state, "p1", type="neighbour_whisper", target="p8", text="hi")


def test_the_ledger_and_the_end_count_every_whisper():
    state = to_day()
    records: list[Event] = []

    def keep(out):
        records.extend(e for e in out.events if e.audience.kind == "record")
        return out.state

    state = keep(whisper(state, "p3", "p4", "p5"))
    state = keep(say(state, "p5", type="spoke", place="town_square"))
    state = keep(say(state, "p1", type="neighbour_whisper", target="p2", text="psst"))
    ledger = whisper_ledger(state, records, 1)
    assert "#1: Name3 with Name4, Name5 · cost: Name3 2 · broken by Name5 (day 1)" in ledger
    assert "Name1 → Name2: “psst”" in ledger and "Used today: Name3 2" in ledger
    recap = GAME.recap(state, records)
    text = next(e for e in recap if e.type == "whisper_recap").text
    assert text == "**Day 1**: Name3 1, Name4 1, Name5 1 · 1 neighbour whisper"


# ----- public announcements -----

def test_announcements_are_acknowledged_the_same_way_whoever_makes_them_and_refused_late_or_elsewhere():
    state = to_day(characters=["pukka", "goblin", "washerwoman", "empath", "knight", "soldier", "alsaahir",
                               "juggler"])
    state = vote(state, "p3", "p2").state  # the Goblin nominated
    state = vote(state, "p4", "p3").state  # a Townsfolk nominated
    real = say(state, "p2", type="goblin_claim", place=THREAD)
    bluff = say(state, "p3", type="goblin_claim", place=THREAD)
    for out, who in ((real, "Name2 (seat 2)"), (bluff, "Name3 (seat 3)")):
        assert [(e.type, e.audience.kind) for e in out.events if e.audience.kind != "record"] == [
            ("announcement", "thread")]
        assert out.events[0].text == f"{who} claims to be the Goblin." and out.reply == "Your announcement is noted."
    with pytest.raises(IllegalAction, match="only in the announcement thread"):
        say(state, "p2", type="goblin_claim", place="town_square")
    with pytest.raises(IllegalAction, match="already claimed the Goblin today"):
        say(real.state, "p2", type="goblin_claim", place=THREAD)
    late = timeout(timeout(state).state).state  # 36 hours in
    assert late.stage == "final"
    with pytest.raises(IllegalAction, match="only in the first 36 hours of a day"):
        say(late, "p2", type="goblin_claim", place=THREAD)
    with pytest.raises(IllegalAction, match="only in the first 36 hours"):
        say(until_night(state), "p2", type="goblin_claim", place=THREAD)
    juggled = say(state, "p8", type="juggler_guess", guesses={"p1": "Pukka", "p2": "spy"}, place=THREAD)
    assert juggled.events[0].text == "Name8 (seat 8) guesses, as the Juggler: Name1 (seat 1): Pukka; Name2 (seat 2): Spy."
    assert juggled.state.announcements[-1].guesses == {"p1": "pukka", "p2": "spy"}
    with pytest.raises(IllegalAction, match="'Nobody' is not a character of this script"):
        say(state, "p8", type="juggler_guess", guesses={"p1": "Nobody"}, place=THREAD)


def test_the_goblin_executed_after_claiming_when_nominated_wins_after_the_storytellers_confirm():
    chars = ["pukka", "goblin", "washerwoman", "empath", "knight", "soldier", "alsaahir", "juggler"]
    state = vote(to_day(characters=chars), "p3", "p2").state
    state = say(state, "p2", type="goblin_claim", place=THREAD).state
    for voter in ("p4", "p5", "p6"):
        state = vote(state, voter, "p2").state
    out = timeout(timeout(timeout(state).state).state)
    assert out.state.phase == "ending" and out.state.pending_end.team == "evil"
    assert "the Goblin, Name2 (seat 2), was executed after claiming" in out.state.pending_end.reason
    assert not any("Goblin" in e.text for e in events_of(out, "public"))  # the town waits
    # a claim before the nomination does not count by default, and does with the option
    for option, ends in (({}, False), ({"goblin_claim": "any_time"}, True)):
        state = say(to_day(options=option, characters=chars), "p2", type="goblin_claim", place=THREAD)
        assert ("claim again once you are nominated" in state.reply) is (not option)
        state = vote(state.state, "p3", "p2").state
        for voter in ("p4", "p5", "p6"):
            state = vote(state, voter, "p2").state
        state = until_night(state)
        assert (state.phase == "ending") is ends


def test_the_alsaahirs_correct_guess_is_told_to_the_storytellers_only():
    chars = ["pukka", "goblin", "washerwoman", "empath", "knight", "recluse", "alsaahir", "juggler"]
    state = to_day(characters=chars)
    right = say(state, "p7", type="alsaahir_guess", minions=["p2"], demons=["p1"], place=THREAD)
    told = events_of(right, "storyteller")
    assert len(told) == 1 and "It is correct by the grimoire" in told[0].text and "/st win team:good" in told[0].text
    assert right.state.phase == "day"  # nothing public: the day goes on
    assert right.events[0].text.startswith("Name7 (seat 7) guesses, as the Alsaahir: Minion Name2 (seat 2);")
    recluse = say(state, "p7", type="alsaahir_guess", minions=["p2", "p6"], demons=["p1"], place=THREAD)
    assert "only if a Recluse or Spy registers" in events_of(recluse, "storyteller")[0].text
    wrong = say(state, "p7", type="alsaahir_guess", minions=["p3"], demons=["p1"], place=THREAD)
    assert not events_of(wrong, "storyteller")
    bluff = say(state, "p3", type="alsaahir_guess", minions=["p2"], demons=["p1"], place=THREAD)
    assert not events_of(bluff, "storyteller")  # not the Alsaahir: acknowledged, nothing more
    assert bluff.events[0].text.replace("Name3 (seat 3)", "X") == right.events[0].text.replace("Name7 (seat 7)", "X")
    with pytest.raises(IllegalAction, match="1 Alsaahir guess today"):
        say(wrong.state, "p7", type="alsaahir_guess", minions=["p2"], demons=["p1"], place=THREAD)
    poisoned = act(state, type="add_reminder", target="p7", token="Poisoned", source="pukka").state
    fails = say(poisoned, "p7", type="alsaahir_guess", minions=["p2"], demons=["p1"], place=THREAD)
    assert "fails (poisoned by the Pukka): nothing happens" in events_of(fails, "storyteller")[0].text


# ----- the Virgin -----

def test_a_townsfolk_nominating_the_virgin_is_executed_at_once_and_voting_is_over():
    state = vote(to_day(), "p4", "p2").state
    out = vote(state, "p3", "p8")  # the Washerwoman nominates the Virgin
    assert out.reply == "You nominated them, and you are executed at once."
    public = [e.type for e in events_of(out, "public")]
    assert public == ["nomination", "tally", "execution"]
    assert "**Name3 (seat 3)** is executed at once and dies" in events_of(out, "public")[2].text
    assert "Virgin" not in " ".join(e.text for e in events_of(out, "public"))
    assert "a Townsfolk: they are executed at once" in events_of(out, "storyteller")[0].text
    state = out.state
    assert not state.seat_of("p3").alive and state.executed == "p3" and state.voting_closed
    assert any(r.player == "p8" and r.token == "No Ability" for r in state.reminders)
    with pytest.raises(IllegalAction, match="voting is over until tomorrow"):
        vote(state, "p5", "p2")
    assert GAME.prompts(state, "p5") == []
    # the quiet rest of the day: whispers go on, night falls on schedule with no second execution
    state = whisper(state, "p5", "p6").state
    night = until_night(state)
    assert night.phase == "night" and night.seat_of("p2").alive


def test_the_virgins_day_may_end_at_once_and_only_the_first_nomination_counts():
    out = vote(to_day(options={"virgin_day": "ends"}), "p3", "p8")
    assert out.state.phase == "night" and not out.state.seat_of("p3").alive
    # a non-Townsfolk nominator spends the ability; the next Townsfolk nominates safely
    state = vote(to_day(), "p7", "p8").state  # the Politician (an Outsider)
    assert state.seat_of("p7").alive and not state.voting_closed
    state = timeout(timeout(timeout(state).state).state).state  # the day ends
    while state.phase == "night":
        state = timeout(state).state
    assert vote(state, "p3", "p8").state.seat_of("p3").alive


def test_the_spy_and_the_lleechs_host_are_the_storytellers_call_and_st_execute_carries_it_out():
    out = vote(to_day(), "p2", "p8")  # the Spy nominates the Virgin
    assert out.state.seat_of("p2").alive
    assert "might register as a Townsfolk: if they do, `/st execute` them now" in events_of(out, "storyteller")[0].text
    done = act(out.state, type="execute", target="p2")
    assert not done.state.seat_of("p2").alive and done.state.voting_closed
    with pytest.raises(IllegalAction, match="Today's execution has happened"):
        act(done.state, type="execute", target="p3")
    chars = ["lleech", "spy", "washerwoman", "empath", "knight", "soldier", "politician", "virgin"]
    state = act(to_day(characters=chars), type="add_reminder", target="p3", token="Poisoned", source="lleech").state
    out = vote(state, "p3", "p8")
    assert out.state.seat_of("p3").alive and "the Lleech's host" in events_of(out, "storyteller")[0].text


# ----- exile -----

def test_an_exile_needs_half_of_all_players_and_the_dead_vote_freely():
    state = with_traveller(to_day())  # 9 players: 5 yes votes exile
    state = act(state, type="kill", target="p5").state
    state = act(state, type="kill", target="p6").state
    out = say(state, "p5", type="exile_vote", target="t1")
    assert [e.type for e in events_of(out, "public")] == ["exile_call", "exile_tally"]
    assert events_of(out, "public")[1].slot == "exile:1:t1"
    assert "5 yes votes of 9 players exile them" in events_of(out, "public")[1].text
    state = out.state
    for voter in ("p6", "p1", "p2"):
        state = say(state, voter, type="exile_vote", target="t1").state
    assert state.seat_of("t1").alive and state.seat_of("p5").vote_token  # no token spent
    out = say(state, "p3", type="exile_vote", target="t1")
    assert not out.state.seat_of("t1").alive and out.state.exiled == ["t1"]
    assert "Tra12 (seat 12) is exiled and dies." in next(e for e in events_of(out, "public") if e.type == "exile").text
    with pytest.raises(IllegalAction, match="already been exiled today"):
        say(out.state, "p4", type="exile_vote", target="t1")
    with pytest.raises(IllegalAction, match="not a Traveller"):
        say(state, "p4", type="exile_vote", target="p2")
    with pytest.raises(IllegalAction, match="a yes vote calls it"):
        say(with_traveller(to_day()), "p4", type="exile_vote", target="t1", vote="no")


@pytest.mark.parametrize(("options", "yes_needed"), [
    ({"exile_majority": "strict"}, 6), ({"exile_counts_travellers": "false"}, 4),
    ({"exile_majority": "strict", "exile_counts_travellers": "false"}, 5)])
def test_the_exile_majority_readings(options, yes_needed):
    state = with_traveller(with_traveller(to_day(options=options)), character="scapegoat", target="t2", seat=13)  # 10 players
    voters = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    for n, voter in enumerate(voters, start=1):
        state = say(state, voter, type="exile_vote", target="t1").state
        if n == yes_needed:
            break
        assert state.seat_of("t1").alive, n
    assert not state.seat_of("t1").alive


def test_the_cast_reading_settles_the_call_when_the_day_ends():
    state = with_traveller(to_day(options={"exile_majority": "cast"}))
    state = say(state, "p1", type="exile_vote", target="t1").state
    state = say(state, "p2", type="exile_vote", target="t1").state
    state = say(state, "p3", type="exile_vote", target="t1", vote="no").state
    assert state.seat_of("t1").alive
    night = until_night(state)
    assert not night.seat_of("t1").alive
    tie = with_traveller(to_day(options={"exile_majority": "cast"}))
    tie = say(tie, "p1", type="exile_vote", target="t1").state
    tie = say(tie, "p2", type="exile_vote", target="t1", vote="no").state
    assert until_night(tie).seat_of("t1").alive


def test_a_travellers_stay_ends_after_three_cycles():
    state = with_traveller(to_day())  # joins on day 1
    for day in (1, 2):
        state = until_night(state)
        assert any(s.player == "t1" for s in state.seats), day
        while state.phase == "night":
            state = timeout(state).state
    assert state.day == 3
    out = timeout(timeout(timeout(state).state).state)  # day 3 ends
    assert not any(s.player == "t1" for s in out.state.seats)
    assert any(e.type == "traveller_left" for e in out.events)
    assert any(e.type == "traveller_done" and e.audience.kind == "storyteller" for e in out.events)


def test_the_town_square_counts_for_announcements_only_with_the_option():
    state = to_day()
    with pytest.raises(IllegalAction, match="only in the announcement thread"):
        say(state, "p2", type="goblin_claim", place="town_square")
    anywhere = to_day(options={"announce_anywhere": "true"})
    out = say(anywhere, "p2", type="goblin_claim", place="town_square")
    assert out.events[0].audience.id == THREAD  # acknowledged in the thread all the same
    assert whisper(anywhere, "p3", "p4", place="town_square").state.whispers
    with pytest.raises(IllegalAction, match="in the announcement thread"):
        whisper(anywhere, "p3", "p4", place="thread")  # a private thread is never a public place


def test_a_day_of_talk_replays_from_the_log_with_its_record_and_the_end_count():
    from support.clocktower_pure import CHARACTERS, ST

    from games.engine.run import Replay, replay

    script = Replay(game="clocktower", seed=1, players=[f"p{i}" for i in range(1, 9)], setup={
        "characters": {f"p{i + 1}": c for i, c in enumerate(CHARACTERS)}, "bluffs": ["shugenja", "juggler", "alsaahir"]},
        actions=[{"type": "begin", "player": ST}, *[{"type": "phase_timeout"}] * 3,
                 {"type": "whisper", "player": "p3", "players": ["p4", "p5"], "place": THREAD},
                 {"type": "neighbour_whisper", "player": "p6", "target": "p7", "text": "trust seat five"},
                 {"type": "spoke", "player": "p4", "place": "town_square"},
                 {"type": "add_traveller", "player": ST, "target": "t1", "name": "t1", "seat": 9,
                  "character": "thief", "alignment": "evil"},
                 *[{"type": "exile_vote", "player": f"p{i}", "target": "t1"} for i in range(1, 6)],
                 {"type": "declare_winner", "player": ST, "team": "good", "reason": "Test."}])
    lines = list(replay(GAME, script))
    records = [line["event"] for line in lines if line.get("audience") == "record"]
    assert records == ["whisper", "neighbour_whisper", "whisper_broken", "exile"]
    said = {line.get("event") for line in lines}
    assert {"whisper", "whisper_open", "whisper_broken", "exile_call", "exile", "whisper_recap"} <= said
    recap = next(line for line in lines if line.get("event") == "whisper_recap")
    assert recap["text"] == "**Day 1**: p3 1, p4 1, p5 1 · 1 neighbour whisper"


def test_an_exiled_deviant_is_the_storytellers_call_and_the_town_reads_the_same_if_it_is_poisoned():
    said = {}
    for poisoned in (False, True):
        state = with_traveller(to_day(), character="deviant")
        if poisoned:
            state = act(state, type="add_reminder", target="t1", token="Poisoned", source="pukka").state
        for voter in ("p1", "p2", "p3", "p4"):
            state = say(state, voter, type="exile_vote", target="t1").state
        out = say(state, "p5", type="exile_vote", target="t1")
        assert out.state.seat_of("t1").alive  # the Storytellers kill it, with /st kill
        judged = [e.text for e in events_of(out, "storyteller") if e.type == "deviant"]
        assert len(judged) == 1 and ("has no ability and dies by exile" in judged[0]) is poisoned
        said[poisoned] = [e.text for e in events_of(out, "public")]
    assert said[False] == said[True]  # no poison token shows in what the town reads
