"""Trouble Brewing's mechanics, pure, on a forced deal of the official script: the Imp's kill and
its star-pass, the Poisoner's poison until dusk, the Monk's protection, the Soldier, the Scarlet
Woman, the Saint, the Mayor, the Slayer, the Butler, the Baron, Virgin, Ravenkeeper, Drunk and
Recluse, and the Travellers Bureaucrat, Gunslinger and Beggar. Each test is named after the rule
point the official wiki settles (the readings it leaves open are in the README's Interpretations)."""

import pytest
from support.clocktower_pure import (
    act,
    choose,
    end_day,
    events_of,
    lock,
    new_game,
    next_night,
    shown,
    through_night,
    timeout,
    vote,
)

from games.clocktower.tally import NO_EXECUTION
from games.engine import IllegalAction

TB = {"script": "Trouble Brewing"}
# seat i holds TABLE[i - 1]: the Imp in seat 1, the Scarlet Woman in seat 7
TABLE = ["imp", "poisoner", "monk", "empath", "soldier", "washerwoman", "scarletwoman", "mayor"]


def begun(characters=TABLE, **options):
    return act(new_game({**TB, **options}, characters), type="begin").state








def night2(characters=TABLE):
    return next_night(through_night(begun(characters)).state)




def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


def told(out, player):
    return [e for e in out.events if e.audience.kind == "player" and e.audience.id == player]


def poisoned(state):
    return {(r.player, r.source) for r in state.reminders if "poison" in r.token.lower()}


# ----- the Imp -----

def test_the_imp_is_not_asked_on_the_first_night_and_asked_to_kill_on_the_others():
    out = act(new_game(TB, TABLE), type="begin")
    assert not any(e.type == "night_ask" for e in told(out, "p1"))
    state = through_night(out.state).state
    while state.phase != "night":
        out = timeout(state)
        state = out.state
    assert any(e.type == "night_ask" and "they die" in e.text for e in told(out, "p1"))


def test_the_imps_choice_dies_tonight():
    out = lock(choose(night2(), "p1", "p4"))
    assert not out.state.seat_of("p4").alive
    assert "Name4 (seat 4) dies" in plan(out)


def test_the_imp_cannot_kill_the_soldier():
    out = lock(choose(night2(), "p1", "p5"))
    assert out.state.seat_of("p5").alive and "the Soldier, safe from the Demon" in plan(out)


def test_a_poisoned_soldier_dies_to_the_imp():
    state = choose(choose(night2(), "p2", "p5"), "p1", "p5")
    out = lock(state)
    assert not out.state.seat_of("p5").alive


def test_the_imp_choosing_itself_dies_and_the_scarlet_woman_becomes_the_imp_and_is_told():
    out = lock(choose(night2(), "p1", "p1"))
    state = out.state
    assert not state.seat_of("p1").alive
    assert state.seat_of("p7").character == "imp" and state.seat_of("p7").shown == "imp"
    assert any("Imp" in e.text for e in told(out, "p7"))
    day = through_night(state)
    assert day.state.phase == "day" and day.state.pending_end is None


def test_the_imp_choosing_itself_without_a_scarlet_woman_passes_to_a_minion_the_storytellers_may_change():
    table = ["imp", "poisoner", "monk", "empath", "soldier", "washerwoman", "baron", "mayor"]
    out = lock(choose(night2(table), "p1", "p1"))
    state = out.state
    new = [s.player for s in state.seats if s.character == "imp" and s.alive]
    assert new == ["p2"] and state.seat_of("p2").shown == "imp"
    note = next(e for e in events_of(out, "storyteller") if e.type == "star_pass").text
    assert "/st character" in note and "Name7 (seat 7)" in note
    assert through_night(state).state.pending_end is None


def test_the_imp_choosing_itself_with_no_living_minion_ends_the_game_for_good():
    table = ["imp", "poisoner", "monk", "empath", "soldier", "washerwoman", "chef", "mayor"]
    state = act(night2(table), type="kill", target="p2").state
    out = through_night(lock(choose(state, "p1", "p1")).state)
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_a_poisoned_imp_kills_nobody():
    state = act(night2(), type="add_reminder", target="p1", token="Poisoned", source="").state
    out = lock(choose(state, "p1", "p4"))
    assert out.state.seat_of("p4").alive


# ----- the Poisoner -----

def test_the_poisoners_choice_is_poisoned_tonight_and_tomorrow_day_and_healthy_at_dusk():
    out = lock(choose(begun(), "p2", "p4"))
    assert poisoned(out.state) == {("p4", "poisoner")}
    day = through_night(out.state).state
    assert poisoned(day) == {("p4", "poisoner")}
    night = next_night(day)
    assert poisoned(night) == set()


def test_the_poisoner_poisons_before_the_monk_acts_so_a_poisoned_monk_protects_nobody():
    state = choose(choose(choose(night2(), "p2", "p3"), "p3", "p4"), "p1", "p4")
    out = lock(state)
    assert not out.state.seat_of("p4").alive


# ----- the Monk -----

def test_the_monk_is_not_asked_on_the_first_night_and_may_not_choose_itself():
    out = act(new_game(TB, TABLE), type="begin")
    assert not any(e.type == "night_ask" for e in told(out, "p3"))
    state = night2()
    with pytest.raises(IllegalAction):
        act(state, player="p3", type="night_choice", targets=["p3"])


def test_the_monks_choice_is_safe_from_the_demon_tonight():
    out = lock(choose(choose(night2(), "p3", "p4"), "p1", "p4"))
    assert out.state.seat_of("p4").alive and "safe" in plan(out)


def test_the_monk_protecting_the_imp_when_it_chooses_itself_means_nobody_dies():
    out = lock(choose(choose(night2(), "p3", "p1"), "p1", "p1"))
    assert out.state.seat_of("p1").alive and out.state.seat_of("p7").character == "scarletwoman"


# ----- the Scarlet Woman, the Saint, the Mayor -----

def day1(characters=TABLE):
    return through_night(begun(characters)).state



def test_the_scarlet_woman_becomes_the_demon_when_the_demon_is_executed_with_5_or_more_alive():
    out = end_day(day1(), ("p2", "p1"), ("p3", "p1"))
    state = out.state
    assert not state.seat_of("p1").alive and state.seat_of("p7").character == "imp"
    assert any("Demon" in e.text for e in told(out, "p7"))
    assert state.pending_end is None and state.phase == "night"


def test_five_alive_counts_just_before_the_demon_dies_so_five_alive_then_execution_still_passes():
    state = day1()
    for p in ("p4", "p5", "p6"):
        state = act(state, type="kill", target=p).state
    out = end_day(state, ("p2", "p1"), ("p3", "p1"))
    assert out.state.seat_of("p7").character == "imp" and out.state.pending_end is None


def test_with_fewer_than_5_alive_the_demons_execution_ends_the_game_for_good():
    state = day1()
    for p in ("p4", "p5", "p6", "p8"):
        state = act(state, type="kill", target=p).state
    out = end_day(state, ("p2", "p1"), ("p3", "p1"))
    assert out.state.seat_of("p7").character == "scarletwoman"
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_travellers_do_not_count_toward_the_scarlet_womans_five():
    state = day1()
    for p in ("p4", "p5", "p6", "p8"):
        state = act(state, type="kill", target=p).state
    state = act(state, type="add_traveller", target="p9", seat=9, character="gunslinger",
                name="Name9", alignment="good").state
    out = end_day(state, ("p2", "p1"), ("p3", "p1"))
    assert out.state.seat_of("p7").character == "scarletwoman" and out.state.pending_end.team == "good"


def test_a_poisoned_scarlet_woman_does_not_become_the_demon():
    state = act(day1(), type="add_reminder", target="p7", token="Poisoned", source="").state
    out = end_day(state, ("p2", "p1"), ("p3", "p1"))
    assert out.state.seat_of("p7").character == "scarletwoman" and out.state.pending_end.team == "good"


SAINT = ["imp", "poisoner", "monk", "empath", "soldier", "saint", "scarletwoman", "mayor"]


def test_the_saint_executed_makes_evil_win():
    out = end_day(day1(SAINT), ("p2", "p6"), ("p3", "p6"))
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"
    assert "Saint" in out.state.pending_end.reason


def test_a_poisoned_saint_executed_does_not_lose_the_game():
    state = act(day1(SAINT), type="add_reminder", target="p6", token="Poisoned", source="").state
    out = end_day(state, ("p2", "p6"), ("p3", "p6"))
    assert out.state.pending_end is None


def test_the_saint_dying_at_night_loses_nothing():
    out = lock(choose(next_night(day1(SAINT)), "p1", "p6"))
    day = through_night(out.state)
    assert not day.state.seat_of("p6").alive and day.state.pending_end is None


def three_alive(state):
    for p in ("p2", "p3", "p5", "p6", "p7"):
        state = act(state, type="kill", target=p).state
    return state


def test_the_mayor_with_3_alive_and_no_execution_wins_for_good_at_the_days_end():
    out = end_day(three_alive(day1()))
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"
    assert "Mayor" in out.state.pending_end.reason


def test_the_mayor_with_3_alive_and_an_execution_does_not_win():
    out = end_day(three_alive(day1()), ("p4", "p8"), ("p1", "p8"))
    assert out.state.pending_end is None or "Mayor" not in out.state.pending_end.reason


def test_a_poisoned_or_dead_mayor_does_not_win():
    state = act(three_alive(day1()), type="add_reminder", target="p8", token="Poisoned", source="").state
    out = end_day(state)
    assert out.state.pending_end is None


def test_the_mayor_killed_at_night_is_flagged_to_the_storytellers_who_may_have_another_die():
    out = lock(choose(night2(), "p1", "p8"))
    assert not out.state.seat_of("p8").alive
    assert "Mayor" in plan(out) and "instead" in plan(out) and "/st revive" in plan(out)


# ----- the Slayer -----

SLAYER = ["imp", "poisoner", "slayer", "empath", "soldier", "recluse", "scarletwoman", "mayor"]


def shoot(state, by, target, place="announcements"):
    return act(state, player=by, type="slayer_shot", target=target, place=place)


def public_texts(out):
    return [e.text for e in out.events if e.audience.kind in ("public", "thread")]


def test_the_slayer_choosing_the_demon_kills_it_publicly_and_the_scarlet_woman_takes_over():
    out = shoot(day1(SLAYER), "p3", "p1")
    assert not out.state.seat_of("p1").alive
    texts = public_texts(out)
    assert any("Name3 (seat 3)" in t and "Slayer" in t and "Name1 (seat 1)" in t for t in texts)
    assert any("Name1 (seat 1) dies" in t for t in texts)
    assert out.state.seat_of("p7").character == "imp" and out.state.pending_end is None


def test_the_slayer_killing_the_demon_with_no_scarlet_woman_ends_the_game_for_good_once_confirmed():
    state = act(day1(SLAYER), type="kill", target="p7").state
    out = shoot(state, "p3", "p1")
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"
    assert any(e.type == "pending_end" for e in events_of(out, "storyteller"))


def test_the_slayer_choosing_a_non_demon_nothing_happens():
    out = shoot(day1(SLAYER), "p3", "p4")
    assert out.state.seat_of("p4").alive
    assert any("nothing happens" in t.lower() for t in public_texts(out))


def test_a_player_who_is_not_the_slayer_may_claim_a_shot_and_nothing_happens():
    out = shoot(day1(SLAYER), "p4", "p1")
    assert out.state.seat_of("p1").alive
    assert any("nothing happens" in t.lower() for t in public_texts(out))


def test_a_poisoned_slayer_uses_its_ability_up_and_nothing_happens():
    state = act(day1(SLAYER), type="add_reminder", target="p3", token="Poisoned", source="").state
    out = shoot(state, "p3", "p1")
    assert out.state.seat_of("p1").alive
    state = act(out.state, type="remove_reminder", target="p3", token="Poisoned").state
    with pytest.raises(IllegalAction, match="already"):
        shoot(state, "p3", "p1")


def test_the_slayer_shoots_once_per_game_refused_in_words_the_next_day():
    state = shoot(day1(SLAYER), "p3", "p4").state
    with pytest.raises(IllegalAction, match="already"):
        shoot(state, "p3", "p1")
    state = next_night(state)
    state = through_night(state).state
    with pytest.raises(IllegalAction, match="already"):
        shoot(state, "p3", "p1")


def test_a_dead_player_cannot_shoot_and_nobody_shoots_at_night():
    state = act(day1(SLAYER), type="kill", target="p3").state
    with pytest.raises(IllegalAction, match="dead"):
        shoot(state, "p3", "p1")
    with pytest.raises(IllegalAction, match="day"):
        shoot(night2(SLAYER), "p3", "p1")


def test_the_slayer_choosing_the_recluse_is_the_storytellers_call_and_flagged():
    out = shoot(day1(SLAYER), "p3", "p6")
    assert out.state.seat_of("p6").alive
    flag = " ".join(e.text for e in events_of(out, "storyteller"))
    assert "Recluse" in flag and "/st kill" in flag


def test_the_slayers_shot_at_a_dead_demon_does_nothing():
    state = act(day1(SLAYER), type="kill", target="p7").state
    state = act(state, type="set_character", target="p4", character="imp").state  # two Demons, one dead
    state = act(state, type="kill", target="p4").state
    out = shoot(state, "p3", "p4")
    assert any("nothing happens" in t.lower() for t in public_texts(out))


# ----- the Butler -----

BUTLER = ["imp", "poisoner", "butler", "empath", "soldier", "washerwoman", "scarletwoman", "mayor"]


def butler_day(master="p4", butler_vote="void"):
    """Day 1, the Butler (seat 3) having chosen its master on the first night; ``butler_vote`` "void"
    enforces the rule in the public tally, "counts" (the default) keeps the Butler unexposed."""
    return through_night(choose(begun(BUTLER, butler_vote=butler_vote), "p3", master)).state


def counted(state, option):
    from games.clocktower.tally import tally
    return tally(state).count[option]


def tally_line(out):
    return next(e.text for e in shown(out) if e.type == "tally")


def test_the_butler_chooses_a_master_each_night_not_itself():
    out = act(new_game(TB, BUTLER), type="begin")
    assert any(e.type == "night_ask" and "master" in e.text for e in told(out, "p3"))
    with pytest.raises(IllegalAction):
        act(out.state, player="p3", type="night_choice", targets=["p3"])


def test_the_butlers_vote_counts_when_its_master_votes_the_same_way():
    state = vote(butler_day(), "p4", "p6").state
    out = vote(state, "p3", "p6")
    assert counted(out.state, "p6") == 2 and "not counted" not in tally_line(out)


def test_by_default_a_butlers_vote_without_its_master_counts_and_only_the_storytellers_are_told():
    out = vote(butler_day(butler_vote="counts"), "p3", "p6")
    assert counted(out.state, "p6") == 1  # the town sees an ordinary vote: nothing shows who the Butler is
    assert "not counted" not in tally_line(out) and "Butler" not in tally_line(out)
    note = [e for e in out.events if e.type == "butler_vote"]
    assert len(note) == 1 and note[0].audience.kind == "storyteller"
    assert "voted without their master, Name4 (seat 4)" in note[0].text
    out = vote(vote(butler_day(butler_vote="counts"), "p4", "p6").state, "p3", "p6")
    assert not [e for e in out.events if e.type == "butler_vote"]  # with the master: nothing to tell


def test_with_the_void_option_a_butlers_vote_without_its_master_counts_for_nothing_and_the_tally_says_so():
    out = vote(butler_day(), "p3", "p6")
    assert counted(out.state, "p6") == 0
    assert "not counted" in tally_line(out) and "Name3" in tally_line(out)


def test_the_master_lowering_their_hand_voids_the_butlers_vote():
    state = vote(vote(butler_day(), "p4", "p6").state, "p3", "p6").state
    out = vote(state, "p4", "p5")
    assert counted(out.state, "p6") == 0 and counted(out.state, "p5") == 1


def test_a_dead_butler_votes_freely():
    state = vote(butler_day(), "p5", "p6").state  # nominated by a living player
    state = act(state, type="kill", target="p3").state
    out = vote(state, "p3", "p6")
    assert counted(out.state, "p6") == 2


def test_a_poisoned_butler_votes_freely():
    state = act(butler_day(), type="add_reminder", target="p3", token="Poisoned", source="").state
    out = vote(state, "p3", "p6")
    assert counted(out.state, "p6") == 1


# ----- the Baron, the Virgin, the Ravenkeeper, the Drunk, the Recluse on Trouble Brewing -----

BARON = ["imp", "baron", "virgin", "ravenkeeper", "drunk", "washerwoman", "recluse", "saint"]


def baron_game():
    return act(new_game(TB, BARON, shown={"p5": "monk"}), type="begin").state


def test_the_baron_adds_two_outsiders_on_trouble_brewing():
    from games.clocktower.rules import chars
    setup = chars(baron_game())["baron"].setup
    assert setup is not None and setup.outsiders == 2


def test_the_virgin_nominated_by_a_townsfolk_executes_the_nominator_at_once():
    state = through_night(baron_game()).state
    out = vote(state, "p6", "p3")
    assert out.state.executed == "p6" and not out.state.seat_of("p6").alive


def test_the_virgin_nominated_by_the_drunk_does_nothing_the_drunk_is_an_outsider():
    state = through_night(baron_game()).state
    out = vote(state, "p5", "p3")
    assert out.state.executed == "" and out.state.seat_of("p5").alive


def test_the_ravenkeeper_killed_by_the_imp_is_woken_to_choose():
    state = choose(next_night(through_night(baron_game()).state), "p1", "p4")
    out = lock(state)
    assert not out.state.seat_of("p4").alive
    assert any(e.type == "night_ask" for e in told(out, "p4"))


def test_the_drunk_thinking_it_is_the_monk_is_asked_as_the_monk_and_protects_nobody():
    night = next_night(through_night(baron_game()).state)
    state = choose(choose(night, "p5", "p6"), "p1", "p6")
    out = lock(state)
    assert not out.state.seat_of("p6").alive


def test_the_recluse_is_killed_by_the_imp_like_anyone():
    out = lock(choose(next_night(through_night(baron_game()).state), "p1", "p7"))
    assert not out.state.seat_of("p7").alive


def test_the_poisoners_poison_ends_when_the_poisoner_dies_by_day():
    state = through_night(choose(begun(), "p2", "p4")).state
    assert poisoned(state) == {("p4", "poisoner")}
    out = act(state, type="kill", target="p2")  # by day, before dusk
    assert out.state.phase == "day" and poisoned(out.state) == set()


def test_the_storytellers_killing_the_demon_by_day_passes_it_to_the_scarlet_woman():
    out = act(day1(), type="kill", target="p1")
    assert out.state.seat_of("p7").character == "imp"


# ----- the Bureaucrat -----

def with_traveller(state, character, alignment="good"):
    return act(state, type="add_traveller", target="p9", seat=9, character=character, name="Name9",
               alignment=alignment).state


def bureaucrat_day(chosen="p4"):
    """Day 2, the Bureaucrat (seat 9, joined on day 1) having chosen ``chosen`` on night 2."""
    night = next_night(with_traveller(day1(), "bureaucrat"))
    return through_night(choose(night, "p9", chosen)).state


def test_the_bureaucrat_chooses_each_night_not_itself():
    night = next_night(with_traveller(day1(), "bureaucrat"))
    with pytest.raises(IllegalAction):
        act(night, player="p9", type="night_choice", targets=["p9"])
    assert choose(night, "p9", "p4").night_choices["p9"] == ["p4"]


def test_the_bureaucrats_choice_votes_count_as_3_tomorrow():
    out = vote(bureaucrat_day(), "p4", "p6")
    assert counted(out.state, "p6") == 3


def test_a_poisoned_bureaucrats_choice_counts_once():
    night = next_night(with_traveller(day1(), "bureaucrat"))
    night = act(night, type="add_reminder", target="p9", token="Poisoned", source="").state
    state = through_night(choose(night, "p9", "p4")).state
    assert counted(vote(state, "p4", "p6").state, "p6") == 1


def test_the_bureaucrats_triple_vote_stops_when_the_bureaucrat_dies():
    state = act(vote(bureaucrat_day(), "p4", "p6").state, type="kill", target="p9").state
    assert counted(state, "p6") == 1


def test_voting_may_not_end_early_while_an_uncast_triple_vote_could_tie():
    from games.clocktower.tally import early_end_refusal, tally
    state = bureaucrat_day()
    for voter in ("p1", "p2", "p3"):
        state = vote(state, voter, "p6").state
    for voter in ("p5", "p7", "p8", "p9", "p6"):
        state = vote(state, voter, "p5").state
    # p6 has 3, p5 has 5; p4 (counting 3) has not voted: p6 could still reach 6
    assert early_end_refusal(state, tally(state)) != ""


# ----- the Gunslinger -----

def gun(state, by, target):
    return act(state, player=by, type="gunslinger_shot", target=target)


def test_the_gunslinger_shoots_a_player_that_voted_today_and_they_die_publicly():
    state = vote(with_traveller(day1(), "gunslinger"), "p4", "p6").state
    out = gun(state, "p9", "p4")
    assert not out.state.seat_of("p4").alive
    assert any("Name4 (seat 4)" in t and "dies" in t for t in public_texts(out))


def test_the_gunslinger_waits_for_the_first_vote_and_shoots_only_a_voter():
    state = with_traveller(day1(), "gunslinger")
    with pytest.raises(IllegalAction, match="vote"):
        gun(state, "p9", "p4")
    state = vote(state, "p4", "p6").state
    with pytest.raises(IllegalAction, match="did not vote"):
        gun(state, "p9", "p5")


def test_the_gunslinger_shoots_once_a_day_and_only_the_gunslinger_may():
    state = vote(vote(with_traveller(day1(), "gunslinger"), "p4", "p6").state, "p5", "p6").state
    with pytest.raises(IllegalAction, match="Gunslinger"):
        gun(state, "p3", "p4")
    state = gun(state, "p9", "p4").state
    with pytest.raises(IllegalAction, match="already"):
        gun(state, "p9", "p5")


def test_the_gunslinger_shooting_the_demon_passes_it_to_the_scarlet_woman():
    state = vote(with_traveller(day1(), "gunslinger"), "p1", "p6").state
    out = gun(state, "p9", "p1")
    assert not out.state.seat_of("p1").alive and out.state.seat_of("p7").character == "imp"


def test_a_poisoned_gunslinger_kills_nobody():
    state = vote(with_traveller(day1(), "gunslinger"), "p4", "p6").state
    state = act(state, type="add_reminder", target="p9", token="Poisoned", source="").state
    out = gun(state, "p9", "p4")
    assert out.state.seat_of("p4").alive


# ----- the Beggar -----

def beggar_day():
    """Day 1 with the Beggar in seat 9 and Name4 (seat 4) dead."""
    return act(with_traveller(day1(), "beggar"), type="kill", target="p4").state


def test_the_beggar_must_use_a_vote_token_to_vote():
    with pytest.raises(IllegalAction, match="vote token"):
        vote(beggar_day(), "p9", NO_EXECUTION)


def test_a_dead_player_gives_the_beggar_their_token_and_the_beggar_learns_their_alignment():
    out = act(beggar_day(), player="p4", type="give_token", target="p9")
    state = out.state
    assert not state.seat_of("p4").vote_token and state.seat_of("p9").vote_token
    assert any("good" in e.text for e in told(out, "p9"))
    assert any("Name4 (seat 4)" in t and "Beggar" in t for t in public_texts(out))
    out = vote(vote(state, "p5", "p6").state, "p9", "p6")
    assert counted(out.state, "p6") == 2
    with pytest.raises(IllegalAction):
        vote(out.state, "p4", "p6")
    assert not end_day(out.state).state.seat_of("p9").vote_token  # spent at the close, as the dead's


def test_only_a_dead_player_with_a_token_gives_it_and_only_to_the_beggar():
    state = beggar_day()
    with pytest.raises(IllegalAction, match="dead"):
        act(state, player="p5", type="give_token", target="p9")
    with pytest.raises(IllegalAction, match="Beggar"):
        act(state, player="p4", type="give_token", target="p5")
    state = vote(vote(state, "p5", "p6").state, "p4", "p6").state
    state = vote(state, "p4", NO_EXECUTION).state  # the token already paid for a vote
    with pytest.raises(IllegalAction, match="token"):
        act(state, player="p4", type="give_token", target="p9")


def test_the_beggar_is_sober_and_healthy_whatever_token_is_on_it():
    from games.clocktower.rules import impaired

    state = act(beggar_day(), type="add_reminder", target="p9", token="Poisoned", source="").state
    assert impaired(state, "p9") == ""
    state = act(state, type="add_reminder", target="p5", token="Poisoned", source="").state
    assert impaired(state, "p5") != ""  # anyone else's token still impairs them


def test_the_poisoners_poison_ends_when_the_imp_kills_the_poisoner_at_night():
    state = choose(choose(night2(), "p2", "p4"), "p1", "p2")  # the Poisoner poisons, then the Imp kills it
    out = lock(state)
    assert not out.state.seat_of("p2").alive
    assert poisoned(out.state) == set()


def test_the_storytellers_killing_the_demon_at_night_passes_it_to_the_scarlet_woman_privately():
    state = night2()
    out = act(state, type="kill", target="p1")
    assert out.state.seat_of("p7").character == "imp"
    assert not [e for e in out.events if e.audience.kind == "public"]  # the town learns the death at dawn
    assert any(e.audience.kind == "player" and e.audience.id == "p7" for e in out.events)
