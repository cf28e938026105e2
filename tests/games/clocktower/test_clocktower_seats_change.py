"""Seats that change hands or empty mid-game, and the edge cases the review found, pure: a
substitute inherits every choice, vote and execution naming the seat; a Traveller who leaves takes
the choices naming them along; the executed Lleech whose host lives; a Scapegoat for a player who
was already dead; the Juggler's first day; a Waitress the visit killed still learns; the fiddle
contest counts only the seated."""

from support.clocktower_pure import GAME, act, events_of, new_game, timeout, vote

from games.clocktower.copilot import proposals

CHARACTERS = ["po", "empath", "knight", "soldier", "washerwoman", "virgin", "mathematician", "spy"]


def day_one(characters=CHARACTERS, options=None):
    state = act(new_game(options, characters), type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    return state


def until(state, phase, stage=None):
    while not (state.phase == phase and (stage is None or state.stage == stage)):
        state = timeout(state).state
    return state


def test_a_substitute_inherits_the_choices_naming_the_seat_and_the_night_still_locks():
    state = until(day_one(), "night")  # night 2
    state = act(state, player="p1", type="night_choice", targets=["p3"]).state  # the Po attacks the Knight
    state = act(state, type="substitute", target="p3", new_player="s3", name="Sub").state
    assert state.night_choices["p1"] == ["s3"]
    locked = until(state, "night", "locked")  # the lock resolves the night without looking for p3
    assert not locked.seat_of("s3").alive and "s3" in locked.dawn_deaths


def test_a_substitute_for_the_executed_player_keeps_the_day_going():
    state = day_one()
    state = vote(state, "p2", "p6").state  # the Empath nominates the Virgin: executed at once
    assert state.executed == "p2"
    state = act(state, type="substitute", target="p2", new_player="s2", name="Sub").state
    assert state.executed == "s2"
    night = until(state, "night", "locked")
    assert night.night == 2


def test_a_traveller_who_leaves_takes_the_choices_naming_them_along():
    state = act(day_one(), type="add_traveller", target="t9", name="Trav", seat=9, character="thief",
                alignment="good").state
    state = until(state, "night")
    state = act(state, player="p1", type="night_choice", targets=["t9"]).state
    state = act(state, player="t9", type="night_choice", targets=["p2"]).state
    state = act(state, type="traveller_leaves", target="t9").state
    assert "p1" not in state.night_choices and "t9" not in state.night_choices
    locked = until(state, "night", "locked")  # the Po's choice went with the Traveller: nobody dies
    assert not locked.dawn_deaths


def test_an_executed_lleech_whose_host_lives_does_not_die():
    characters = ["lleech", "empath", "knight", "soldier", "washerwoman", "virgin", "mathematician", "spy"]
    state = act(new_game(None, characters), type="begin").state
    state = act(state, player="p1", type="night_choice", targets=["p3"]).state  # the host: the Knight
    state = until(state, "day")
    for voter in ("p2", "p3", "p4", "p5", "p6"):
        state = vote(state, voter, "p1").state
    out = timeout(state)
    while out.state.phase == "day":
        out = timeout(out.state)
    said = next(e.text for e in events_of(out, "public") if e.type == "execution")
    assert "**Name1 (seat 1)** is executed." in said and "dies" not in said
    assert out.state.seat_of("p1").alive and out.state.phase == "night"  # no good win
    assert any(e.type == "lleech" for e in events_of(out, "storyteller"))


def test_a_scapegoat_for_a_player_already_dead_leaves_them_dead():
    state = act(day_one(), type="add_traveller", target="t9", name="Goat", seat=9, character="scapegoat",
                alignment="good").state
    state = act(state, type="kill", target="p3").state  # the Knight dies by day
    for voter in ("p2", "p4", "p5", "p6", "p7"):
        state = vote(state, voter, "p3").state
    state = until(state, "night")
    out = act(state, type="scapegoat")
    assert not out.state.seat_of("p3").alive and not out.state.seat_of("t9").alive
    assert events_of(out, "public")[0].text.endswith("instead of Name3 (seat 3).")


def test_the_juggler_learns_only_after_its_first_day():
    characters = ["po", "juggler", "knight", "soldier", "washerwoman", "virgin", "mathematician", "spy"]
    state = until(until(day_one(characters), "night"), "day")  # day 2
    state = act(state, player="p2", type="juggler_guess", place="announcements", guesses={"p1": "po"}).state
    night = until(state, "night")
    assert "p2" not in {p.player for p in proposals(night, GAME.chars_of(night))}


def test_a_waitress_killed_by_her_visit_still_learns_the_character():
    state = act(day_one(), type="add_traveller", target="w9", name="Wai", seat=9, character="waitress",
                alignment="good").state
    state = until(state, "night")
    state = act(state, player="w9", type="night_choice", targets=["p3"]).state
    state = act(state, player="p3", type="waitress_answer", agree=True).state
    state = until(state, "night", "locked")
    state = act(state, type="kill", target="w9").state  # "you both might die"
    found = {p.player: p for p in proposals(state, GAME.chars_of(state))}
    assert found["w9"].answer == "Knight"


def test_the_fiddle_contest_counts_only_the_players_still_seated():
    state = act(day_one(), type="add_traveller", target="t9", name="Trav", seat=9, character="thief",
                alignment="good").state
    state = act(state, type="add_fabled", fabled="fiddler").state
    state = act(act(state, type="fiddle").state, player="p1", type="fiddle_challenge", target="p3").state
    state = act(state, player="t9", type="fiddle_vote", target="p1").state
    state = act(state, type="traveller_leaves", target="t9").state
    assert "t9" not in state.fiddle.votes
    for voter in ("p2", "p3", "p4", "p5", "p6", "p7", "p8"):
        state = act(state, player=voter, type="fiddle_vote", target="p3").state
    assert not state.finished  # p1 has not voted: not everyone has
    over = act(state, player="p1", type="fiddle_vote", target="p1")
    assert over.state.finished and "(7 votes to 1)" in next(e.text for e in over.events if e.type == "game_over")
