"""Bad Moon Rising's mechanics, pure, on a forced deal of the official script: the night's kills
(the Zombuul, the Shabaloth, the Po, the Pukka, the Assassin, the Godfather, the Grandmother's death)
and protections (the Innkeeper, the Sailor, the Tea Lady, the Fool, the Exorcist, the Goon), the
Professor, the Minstrel, the Tinker, and the day's survivals (the Devil's Advocate, the Tea Lady, the
Sailor, the Fool, the Zombuul). Each test is named after the rule point the official wiki settles
(the readings it leaves open are in the README's Interpretations, "Bad Moon Rising's mechanics")."""

import pytest
from support.clocktower_pure import (
    act,
    choose,
    events_of,
    lock,
    new_game,
    next_night,
    through_night,
    timeout,
)

from games.clocktower.night import night_prompts
from games.engine import IllegalAction

BMR = {"script": "Bad Moon Rising"}
# seat i holds TABLE[i - 1]: the Zombuul in seat 1, the Godfather in seat 2
TABLE = ["zombuul", "godfather", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def begun(characters=TABLE, **options):
    return act(new_game({**BMR, **options}, characters), type="begin").state


def day1(characters=TABLE):
    return through_night(begun(characters)).state


def night2(characters=TABLE):
    return next_night(day1(characters))


def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


def public_text(out):
    return "\n".join(e.text for e in events_of(out, "public"))


def told(out, player):
    return [e for e in out.events if e.audience.kind == "player" and e.audience.id == player]


def asked(out, player):
    return any(e.type == "night_ask" for e in told(out, player))


def tokens(state, player):
    return {(r.token, r.source) for r in state.reminders if r.player == player}


def dusk_out(state):
    """From a day to the next nightfall: the outcome of the nightfall."""
    out = None
    while state.phase != "night":
        out = timeout(state)
        state = out.state
    return out


def execute(state, target):
    """The Storytellers execute ``target`` now: the outcome."""
    return act(state, type="execute", target=target)


# ----- the Zombuul -----

def test_the_zombuul_is_asked_and_kills_on_a_night_after_a_day_no_one_died():
    out = dusk_out(day1())
    assert asked(out, "p1")
    out = lock(choose(out.state, "p1", "p8"))
    assert not out.state.seat_of("p8").alive and "Name8 (seat 8) dies" in plan(out)


def test_the_zombuul_does_not_wake_if_someone_died_today():
    day = act(day1(), type="kill", target="p8").state
    out = dusk_out(day)
    assert not asked(out, "p1")
    with pytest.raises(IllegalAction):
        choose(out.state, "p1", "p3")


def test_the_zombuuls_first_death_by_execution_looks_like_a_death_but_it_lives():
    out = execute(day1(), "p1")
    state = out.state
    assert not state.seat_of("p1").alive and "and dies" in public_text(out)
    assert "Zombuul" not in public_text(out) and "registers" not in public_text(out).lower()
    assert state.pending_end is None and state.phase != "ending"
    assert any("lives, registering as dead" in e.text for e in events_of(out, "storyteller"))


def test_the_zombuuls_own_death_today_is_a_death_so_it_does_not_kill_that_night():
    night = next_night(execute(day1(), "p1").state)
    with pytest.raises(IllegalAction):
        choose(night, "p1", "p3")


def test_the_zombuul_registering_as_dead_still_kills_after_a_day_no_one_died():
    state = through_night(next_night(execute(day1(), "p1").state)).state  # night 2: no kill
    out = dusk_out(state)  # day 2: nobody died
    assert asked(out, "p1")
    out = lock(choose(out.state, "p1", "p8"))
    assert not out.state.seat_of("p8").alive


def test_the_zombuul_executed_again_truly_dies_and_good_wins():
    state = through_night(next_night(execute(day1(), "p1").state)).state
    out = execute(state, "p1")
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_two_living_players_and_the_zombuul_registering_as_dead_do_not_end_the_game():
    table = ["zombuul", "godfather", "innkeeper", "sailor", "chambermaid"]
    state = execute(day1(table), "p1").state
    for player in ("p3", "p4"):
        state = act(state, type="kill", target=player).state
    assert state.pending_end is None and sum(s.alive for s in state.seats) == 2


def test_a_zombuul_killed_at_night_for_the_first_time_lives_registering_as_dead():
    table = ["zombuul", "assassin", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]
    out = lock(choose(night2(table), "p2", "p1"))
    assert not out.state.seat_of("p1").alive and out.state.pending_end is None
    day = through_night(out.state)
    assert day.state.pending_end is None and "Name1 (seat 1) died" in public_text(day)
    assert "Zombuul" not in public_text(day) and "registers" not in public_text(day).lower()


# ----- the Shabaloth -----

SHABALOTH = ["shabaloth", "godfather", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def test_the_shabaloths_two_choices_die():
    out = lock(choose(night2(SHABALOTH), "p1", "p3", "p8"))
    assert not out.state.seat_of("p3").alive and not out.state.seat_of("p8").alive


def test_a_player_the_shabaloth_chose_last_night_might_be_regurgitated_the_storytellers_choice_proposed():
    state = through_night(lock(choose(night2(SHABALOTH), "p1", "p3", "p8")).state).state
    out = lock(choose(next_night(state), "p1", "p7", "p2"))
    assert "regurgitate" in plan(out) and "/st revive" in plan(out)
    assert not out.state.seat_of("p3").alive  # proposed: nobody comes back unless they say so


# ----- the Po and the Pukka on Bad Moon Rising -----

def test_the_pukka_poisons_and_the_previously_poisoned_player_dies_on_bad_moon_rising():
    table = ["pukka", "godfather", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]
    out = lock(choose(begun(table), "p1", "p8"))
    assert ("Poisoned", "pukka") in tokens(out.state, "p8")
    out = lock(choose(next_night(through_night(out.state).state), "p1", "p3"))
    assert not out.state.seat_of("p8").alive


def test_the_po_choosing_no_one_chooses_three_the_next_night_on_bad_moon_rising():
    table = ["po", "godfather", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]
    state = through_night(lock(choose(night2(table), "p1", "no-one")).state).state
    out = lock(choose(next_night(state), "p1", "p3", "p7", "p8"))
    assert [s.player for s in out.state.seats if not s.alive] == ["p3", "p7", "p8"]


# ----- the Innkeeper -----

def test_the_innkeepers_two_choices_cannot_die_tonight():
    out = lock(choose(choose(night2(), "p3", "p7", "p8"), "p1", "p8"))
    assert out.state.seat_of("p8").alive and "can't die" in plan(out)


def test_one_of_the_innkeepers_choices_is_drunk_until_dusk_the_storytellers_choice_proposed():
    out = lock(choose(night2(), "p3", "p7", "p8"))
    assert ("Drunk", "innkeeper") in tokens(out.state, "p7")
    assert "your choice" in plan(out)
    night = next_night(through_night(out.state).state)
    assert ("Drunk", "innkeeper") not in tokens(night, "p7")


def test_the_innkeepers_drunk_choice_is_drunk_tonight_so_a_drunk_exorcist_does_not_stop_the_demon():
    out = lock(choose(choose(choose(night2(), "p3", "p7", "p8"), "p7", "p1"), "p1", "p5"))
    assert not out.state.seat_of("p5").alive  # the Exorcist woke after the Innkeeper, drunk


# ----- the Sailor -----

def test_the_sober_sailor_cannot_die():
    out = lock(choose(choose(night2(), "p4", "p8"), "p1", "p4"))
    assert out.state.seat_of("p4").alive and "the Sailor can't die while sober" in plan(out)


def test_the_sailors_choice_is_drunk_until_dusk_the_storytellers_choice_proposed():
    out = lock(choose(night2(), "p4", "p8"))
    assert ("Drunk", "sailor") in tokens(out.state, "p8") and "your choice" in plan(out)


def test_the_sailor_drunk_by_its_own_choice_can_die():
    out = lock(choose(choose(night2(), "p4", "p4"), "p1", "p4"))
    assert not out.state.seat_of("p4").alive


def test_the_sober_sailor_executed_does_not_die():
    out = execute(day1(), "p4")
    assert out.state.seat_of("p4").alive and "and dies" not in public_text(out)


# ----- the Tea Lady -----

TEA = ["zombuul", "innkeeper", "sailor", "fool", "tealady", "exorcist", "godfather", "tinker"]


def test_the_tea_ladys_two_good_living_neighbours_cannot_die():
    out = lock(choose(night2(TEA), "p1", "p6"))
    assert out.state.seat_of("p6").alive and "Tea Lady" in plan(out)


def test_a_tea_lady_with_an_evil_neighbour_protects_nobody():
    table = ["zombuul", "innkeeper", "sailor", "godfather", "tealady", "exorcist", "fool", "tinker"]
    out = lock(choose(night2(table), "p1", "p6"))
    assert not out.state.seat_of("p6").alive


def test_the_tea_ladys_good_neighbour_executed_does_not_die():
    out = execute(day1(TEA), "p6")
    assert out.state.seat_of("p6").alive and "Tea Lady" not in public_text(out)


def test_a_poisoned_tea_lady_protects_nobody():
    table = ["pukka", "innkeeper", "sailor", "fool", "tealady", "exorcist", "godfather", "tinker"]
    state = through_night(lock(choose(begun(table), "p1", "p5")).state).state
    out = execute(state, "p6")
    assert not out.state.seat_of("p6").alive


# ----- the Fool -----

def test_the_fools_first_death_at_night_does_not_happen_and_the_town_sees_none():
    out = lock(choose(night2(), "p1", "p6"))
    assert out.state.seat_of("p6").alive and ("No ability", "fool") in tokens(out.state, "p6")
    dawn = through_night(out.state)
    assert "Nobody died in the night" in public_text(dawn) and "Fool" not in public_text(dawn)


def test_the_fool_dies_the_second_time():
    state = through_night(lock(choose(night2(), "p1", "p6")).state).state
    out = lock(choose(next_night(state), "p1", "p6"))
    assert not out.state.seat_of("p6").alive


def test_the_fools_first_death_by_execution_does_not_happen():
    out = execute(day1(), "p6")
    assert out.state.seat_of("p6").alive and "and dies" not in public_text(out)


# ----- the Exorcist -----

def test_the_demon_the_exorcist_chose_does_not_wake_and_kills_nobody():
    state = choose(night2(), "p7", "p1")
    with pytest.raises(IllegalAction):  # (told at once that it does not wake: bmr_exorcist.py)
        choose(state, "p1", "p8")
    out = lock(state)
    assert out.state.seat_of("p8").alive and "does not wake tonight" in plan(out)


def test_the_exorcist_choosing_a_non_demon_changes_nothing():
    out = lock(choose(choose(night2(), "p7", "p2"), "p1", "p8"))
    assert not out.state.seat_of("p8").alive


def test_the_exorcist_may_not_choose_the_same_player_as_last_night():
    state = through_night(lock(choose(night2(), "p7", "p2")).state).state
    night = next_night(state)
    with pytest.raises(IllegalAction, match="last night"):
        choose(night, "p7", "p2")
    prompt = night_prompts(night, "p7")[0]
    assert "p2" not in [c.value for c in prompt.fields[0].choices]


# ----- the Assassin -----

ASSASSIN = ["zombuul", "assassin", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def test_the_assassins_choice_dies_even_if_for_some_reason_they_could_not():
    out = lock(choose(night2(ASSASSIN), "p2", "p4"))
    assert not out.state.seat_of("p4").alive and "even though" in plan(out)


def test_the_assassin_kills_an_innkeeper_protected_fool():
    out = lock(choose(choose(night2(ASSASSIN), "p3", "p6", "p8"), "p2", "p6"))
    assert not out.state.seat_of("p6").alive


def test_the_assassin_is_once_per_game():
    state = through_night(lock(choose(night2(ASSASSIN), "p2", "p8")).state).state
    assert not state.seat_of("p8").alive
    out = dusk_out(state)
    assert not asked(out, "p2")


def test_the_assassin_may_keep_its_ability_by_choosing_no_one():
    state = through_night(lock(choose(night2(ASSASSIN), "p2", "no-one")).state).state
    assert asked(dusk_out(state), "p2")


# ----- the Godfather -----

def test_the_godfather_kills_only_if_an_outsider_died_today():
    out = dusk_out(day1())
    assert not asked(out, "p2")
    out = dusk_out(act(day1(), type="kill", target="p8").state)  # the Tinker, an Outsider
    assert asked(out, "p2")
    out = lock(choose(out.state, "p2", "p3"))
    assert not out.state.seat_of("p3").alive


def test_a_townsfolk_dying_today_does_not_wake_the_godfather():
    assert not asked(dusk_out(act(day1(), type="kill", target="p3").state), "p2")


# ----- the Devil's Advocate -----

DA = ["zombuul", "devilsadvocate", "innkeeper", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def test_the_devils_advocates_choice_executed_tomorrow_does_not_die():
    state = through_night(lock(choose(begun(DA), "p2", "p8")).state).state
    out = execute(state, "p8")
    assert out.state.seat_of("p8").alive and "Devil" not in public_text(out)


def test_the_devils_advocates_protection_ends_at_dusk():
    state = through_night(lock(choose(begun(DA), "p2", "p8")).state).state
    assert ("Survives execution", "devilsadvocate") in tokens(state, "p8")
    night = next_night(state)
    assert ("Survives execution", "devilsadvocate") not in tokens(night, "p8")


def test_the_devils_advocate_may_not_choose_the_same_player_as_last_night():
    state = through_night(lock(choose(begun(DA), "p2", "p8")).state).state
    with pytest.raises(IllegalAction):
        choose(next_night(state), "p2", "p8")


# ----- the Professor -----

PROFESSOR = ["zombuul", "godfather", "professor", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def test_the_professor_resurrects_a_dead_townsfolk_once_per_game():
    state = act(day1(PROFESSOR), type="kill", target="p7").state
    night = next_night(state)
    out = through_night(lock(choose(night, "p3", "p7")).state)
    assert out.state.seat_of("p7").alive and "lives again" in public_text(out)
    assert not asked(dusk_out(out.state), "p3")


def test_the_professor_choosing_a_dead_outsider_resurrects_nobody():
    state = act(day1(PROFESSOR), type="kill", target="p8").state
    out = lock(choose(next_night(state), "p3", "p8"))
    assert not out.state.seat_of("p8").alive and "not a Townsfolk" in plan(out)


# ----- the Tinker -----

def test_the_tinker_might_die_at_any_time_flagged_to_the_storytellers():
    out = lock(night2())
    assert "Tinker might die" in plan(out)


# ----- the Grandmother -----

def test_the_grandmother_dies_when_the_demon_kills_her_grandchild():
    table = ["zombuul", "godfather", "grandmother", "sailor", "chambermaid", "fool", "exorcist", "tinker"]
    state = act(night2(table), type="add_reminder", target="p8", token="Grandchild", source="grandmother").state
    out = lock(choose(state, "p1", "p8"))
    assert not out.state.seat_of("p8").alive and not out.state.seat_of("p3").alive


def test_the_grandmother_lives_when_her_grandchild_dies_otherwise():
    table = ["zombuul", "godfather", "grandmother", "sailor", "chambermaid", "fool", "exorcist", "tinker"]
    state = act(day1(table), type="add_reminder", target="p8", token="Grandchild", source="grandmother").state
    state = execute(state, "p8").state
    assert state.seat_of("p3").alive


# ----- the Minstrel -----

def test_a_minion_dying_by_execution_makes_everyone_else_drunk_until_dusk_tomorrow():
    table = ["zombuul", "godfather", "minstrel", "sailor", "chambermaid", "fool", "exorcist", "tinker"]
    out = execute(day1(table), "p2")
    night = next_night(out.state)
    assert ("Drunk", "minstrel") in tokens(night, "p4") and not tokens(night, "p3")
    night3 = next_night(through_night(night).state)
    assert ("Drunk", "minstrel") not in tokens(night3, "p4")


# ----- the Goon -----

def test_the_first_player_to_choose_the_goon_is_drunk_and_the_goon_turns_their_alignment():
    table = ["zombuul", "godfather", "innkeeper", "sailor", "tealady", "fool", "exorcist", "goon"]
    out = lock(choose(night2(table), "p1", "p8"))
    assert out.state.seat_of("p8").alive  # the Zombuul was drunk when its ability acted
    assert out.state.seat_of("p8").alignment == "evil" and ("Drunk", "goon") in tokens(out.state, "p1")


# ----- secrets -----

def test_the_nights_protections_reach_only_the_storytellers():
    out = lock(choose(choose(choose(night2(), "p3", "p7", "p8"), "p4", "p2"), "p1", "p8"))
    for event in out.events:
        if event.audience.kind != "storyteller":
            assert not any(word in event.text for word in ("Innkeeper", "Drunk", "drunk", "can't die"))


# ----- the Courtier -----

COURTIER = ["zombuul", "godfather", "courtier", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def courtier_chose(state, character):
    return act(state, player="p3", type="night_choice", character=character).state


def test_the_courtiers_character_is_drunk_for_three_nights_and_three_days():
    out = lock(courtier_chose(begun(COURTIER), "sailor"))
    state = out.state
    for night in (1, 2, 3):
        assert any("drunk" in t.lower() for t, _ in tokens(state, "p4")), night
        state = through_night(state).state  # the day: still drunk
        assert any("drunk" in t.lower() for t, _ in tokens(state, "p4")), night
        state = next_night(state)
    assert not tokens(state, "p4")


def test_the_courtiers_drunk_sailor_can_die_the_same_night():
    state = courtier_chose(night2(COURTIER), "sailor")
    out = lock(choose(state, "p1", "p4"))
    assert not out.state.seat_of("p4").alive


def test_the_courtier_is_once_per_game_even_choosing_a_character_not_in_play():
    out = lock(courtier_chose(begun(COURTIER), "innkeeper"))
    assert "not in play" in plan(out)
    assert not asked(dusk_out(through_night(out.state).state), "p3")


# ----- the Moonchild -----

def test_the_moonchilds_death_is_flagged_to_the_storytellers_for_its_public_choice():
    table = ["zombuul", "godfather", "innkeeper", "sailor", "chambermaid", "moonchild", "exorcist", "tinker"]
    out = lock(choose(night2(table), "p1", "p6"))
    assert "Moonchild" in plan(out) and "publicly choose" in plan(out)
    out = execute(day1(table), "p6")
    assert any("Moonchild" in e.text for e in events_of(out, "storyteller"))
    assert "Moonchild" not in public_text(out)


# ----- the Gambler -----

GAMBLER = ["zombuul", "godfather", "gambler", "sailor", "chambermaid", "fool", "exorcist", "tinker"]


def gambled(state, target, character):
    state = choose(state, "p3", target)
    return act(state, player="p3", type="night_choice", targets=[target], character=character).state


def test_the_gambler_guessing_wrong_dies():
    out = lock(gambled(night2(GAMBLER), "p4", "fool"))
    assert not out.state.seat_of("p3").alive and "wrong" in plan(out)


def test_the_gambler_guessing_right_lives():
    out = lock(gambled(night2(GAMBLER), "p4", "sailor"))
    assert out.state.seat_of("p3").alive and "right" in plan(out)
