"""Sects & Violets' character changers, pure, on a forced deal of the official script: the Snake
Charmer, the Barber, the Pit-Hag and the Philosopher. Each test is named after the rule point the
official wiki settles (the readings it leaves open are in the README's Interpretations, "Sects &
Violets' mechanics")."""

import pytest
from support.clocktower_pure import (
    GAME,
    act,
    by_player,
    choose,
    end_day,
    events_of,
    lock,
    new_game,
    next_night,
    through_night,
    timeout,
)

from games.clocktower.rules import impaired, ruled
from games.engine import IllegalAction

SNV = {"script": "Sects & Violets"}
# seat i holds TABLE[i - 1]: the Fang Gu in seat 1, the Snake Charmer in seat 3, the Mutant in seat 5
TABLE = ["fanggu", "witch", "snakecharmer", "dreamer", "mutant", "seamstress", "oracle", "klutz"]


def table(**at):
    """TABLE with seat n's character replaced (``p1="nodashii"``)."""
    return [at.get(f"p{i + 1}", c) for i, c in enumerate(TABLE)]


def begun(characters=TABLE):
    return act(new_game(SNV, characters), type="begin").state


def night2(characters=TABLE):
    return next_night(through_night(begun(characters)).state)


def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


def told(out, player):
    return [e for e in out.events if e.audience.kind == "player" and e.audience.id == player]


def public_texts(out):
    return " ".join(e.text for e in events_of(out, "public"))


# ----- the Snake Charmer -----

def test_the_snake_charmer_is_ruled_and_asked_each_night_for_an_alive_player():
    out = act(new_game(SNV, TABLE), type="begin")
    assert ruled(out.state, "snakecharmer")
    assert any(e.type == "night_ask" and "alive player" in e.text for e in told(out, "p3"))
    state = out.state
    while state.phase != "night" or state.night != 2:
        out = timeout(state)
        state = out.state
    assert any(e.type == "night_ask" for e in told(out, "p3"))


def test_the_snake_charmer_cannot_choose_a_dead_player():
    state = through_night(begun()).state
    state = act(state, type="kill", target="p4").state
    state = next_night(state)
    with pytest.raises(IllegalAction, match="dead"):
        choose(state, "p3", "p4")


def test_the_snake_charmer_choosing_the_demon_swaps_characters_and_alignments():
    out = lock(choose(begun(), "p3", "p1"))
    charmer, demon = out.state.seat_of("p3"), out.state.seat_of("p1")
    assert (charmer.character, charmer.shown, charmer.alignment) == ("fanggu", "fanggu", "evil")
    assert (demon.character, demon.shown, demon.alignment) == ("snakecharmer", "snakecharmer", "good")
    assert "Snake Charmer" in plan(out) and "swap" in plan(out)


def test_the_new_snake_charmer_the_old_demon_is_poisoned_from_now_on():
    out = lock(choose(begun(), "p3", "p1"))
    assert "poisoned" in impaired(out.state, "p1")
    state = next_night(through_night(out.state).state)
    state = through_night(state).state
    assert "poisoned" in impaired(state, "p1") and impaired(state, "p3") == ""


def test_both_swapped_players_are_told_their_new_character_and_alignment_never_the_poison():
    out = lock(choose(begun(), "p3", "p1"))
    new_demon = " ".join(e.text for e in told(out, "p3") if e.type == "character")
    new_charmer = " ".join(e.text for e in told(out, "p1") if e.type == "character")
    assert "Fang Gu" in new_demon and "**evil**" in new_demon
    assert "Snake Charmer" in new_charmer and "**good**" in new_charmer
    said = [line for line in (new_demon + "\n" + new_charmer).splitlines() if not line.startswith(">")]
    assert not any("poison" in line.lower() for line in said)  # the ability's own words aside


def test_the_snake_charmers_swap_is_never_told_to_the_town():
    out = lock(choose(begun(), "p3", "p1"))
    dawn = through_night(out.state)
    for text in (public_texts(out), public_texts(dawn)):
        assert "Snake Charmer" not in text and "Fang Gu" not in text and "swap" not in text
    assert not any(e.audience.kind == "player" and e.audience.id not in ("p1", "p3") and e.type == "character"
                   for e in out.events)


def test_the_snake_charmer_choosing_a_player_who_is_not_the_demon_changes_nothing():
    out = lock(choose(begun(), "p3", "p2"))
    assert out.state.seat_of("p3").character == "snakecharmer" and out.state.seat_of("p2").character == "witch"
    assert not any(e.type == "character" for e in out.events)


def test_a_poisoned_snake_charmer_does_not_swap():
    state = act(begun(), type="add_reminder", target="p3", token="Poisoned", source="").state
    out = lock(choose(state, "p3", "p1"))
    assert out.state.seat_of("p3").character == "snakecharmer" and out.state.seat_of("p1").character == "fanggu"
    assert "no swap" in plan(out)
    assert any("Snake Charmer" in a.why for a in out.state.abnormal)


def test_on_the_night_of_the_swap_the_old_demons_kill_does_nothing_and_the_new_demons_is_the_storytellers():
    state = choose(choose(night2(), "p1", "p4"), "p3", "p1")
    out = lock(state)
    assert out.state.seat_of("p4").alive and out.state.seat_of("p1").alive
    assert "yours to judge" in plan(out)


def test_the_new_fang_gu_still_jumps_to_the_first_outsider_it_kills():
    state = lock(choose(begun(), "p3", "p1")).state
    state = next_night(through_night(state).state)
    out = lock(choose(state, "p3", "p5"))
    assert out.state.seat_of("p5").character == "fanggu" and out.state.seat_of("p5").alignment == "evil"
    assert not out.state.seat_of("p3").alive


def test_the_no_dashiis_poisoned_neighbours_follow_the_swap():
    state = begun(table(p1="nodashii", p3="clockmaker", p6="snakecharmer"))
    assert impaired(state, "p3") == "poisoned by the No Dashii"  # p2 the Witch skipped: p3 the Clockmaker
    out = lock(choose(state, "p6", "p1"))
    assert out.state.seat_of("p6").character == "nodashii"
    assert impaired(out.state, "p4") == "poisoned by the No Dashii"  # p5 the Mutant skipped
    assert impaired(out.state, "p3") == ""


def test_a_snake_charmer_beside_the_no_dashii_is_poisoned_and_does_not_swap():
    out = lock(choose(begun(table(p1="nodashii")), "p3", "p1"))
    assert out.state.seat_of("p3").character == "snakecharmer" and "No Dashii" in plan(out)


def test_a_player_who_might_register_as_the_demon_is_the_storytellers_call_no_swap_proposed():
    state = begun(table(p5="recluse"))
    out = lock(choose(state, "p3", "p5"))
    assert out.state.seat_of("p5").character == "recluse" and out.state.seat_of("p3").character == "snakecharmer"
    assert "might register as the Demon" in plan(out) and "your call" in plan(out)


# ----- the Barber -----

# seat i holds BARBER[i - 1]: the Vigormortis in seat 1, the Barber in seat 5
BARBER = ["vigormortis", "witch", "snakecharmer", "dreamer", "barber", "seamstress", "oracle", "klutz"]


def barber_died_today(characters=BARBER):
    """Day 1 with the Barber killed by day, then nightfall: the outcome of the dusk."""
    state = through_night(begun(characters)).state
    state = act(state, type="kill", target="p5").state
    out = None
    while state.phase != "night":
        out = timeout(state)
        state = out.state
    return out


def haircut(state, demon, *targets):
    return act(state, player=demon, type="haircut", targets=list(targets)).state


def test_the_barber_is_ruled_and_the_demon_is_asked_for_haircuts_the_night_the_barber_died_today():
    out = barber_died_today()
    assert ruled(out.state, "barber")
    asks = [e for e in told(out, "p1") if e.type == "night_ask"]
    assert any("Barber" in e.text and "2 players" in e.text for e in asks)
    assert any(p.action == "haircut" for p in GAME.prompts(out.state, "p1"))
    assert not any("Barber" in e.text for p in ("p2", "p3", "p4") for e in told(out, p))


def test_the_demon_is_not_asked_for_haircuts_while_the_barber_lives():
    state = next_night(through_night(begun(BARBER)).state)
    assert not any(p.action == "haircut" for p in GAME.prompts(state, "p1"))
    with pytest.raises(IllegalAction, match="no haircuts"):
        haircut(state, "p1", "p3", "p4")


def test_the_2_players_the_demon_chose_swap_characters_not_alignments_at_the_lock():
    state = haircut(barber_died_today().state, "p1", "p3", "p2")
    assert state.seat_of("p3").character == "snakecharmer"  # nothing before the lock
    out = lock(state)
    three, two = out.state.seat_of("p3"), out.state.seat_of("p2")
    assert (three.character, three.shown, three.alignment) == ("witch", "witch", "good")
    assert (two.character, two.shown, two.alignment) == ("snakecharmer", "snakecharmer", "evil")
    assert "swap characters" in plan(out)


def test_the_demon_may_swap_itself_making_a_good_demon():
    out = lock(haircut(barber_died_today().state, "p1", "p1", "p4"))
    one, four = out.state.seat_of("p1"), out.state.seat_of("p4")
    assert (one.character, one.alignment) == ("dreamer", "evil")
    assert (four.character, four.alignment) == ("vigormortis", "good")
    new_demon = " ".join(e.text for e in told(out, "p4") if e.type == "character")
    assert "Vigormortis" in new_demon and "**good**" in new_demon
    dusk = dusk_after(out.state)
    assert any(e.type == "night_ask" and "they die" in e.text for e in told(dusk, "p4"))  # it kills now


def dusk_after(state):
    """From a night to the next dusk: the outcome of the dusk."""
    state = through_night(state).state
    while True:
        out = timeout(state)
        if out.state.phase == "night":
            return out
        state = out.state


def test_the_demon_may_not_choose_another_demon():
    out = barber_died_today(["vigormortis", "nodashii", *BARBER[2:]])
    with pytest.raises(IllegalAction, match="another Demon"):
        haircut(out.state, "p1", "p2", "p3")
    with pytest.raises(IllegalAction, match="2 different players"):
        haircut(out.state, "p1", "p3")


def test_the_demon_may_choose_no_haircuts():
    out = lock(haircut(barber_died_today().state, "p1", "no-one"))
    assert [s.character for s in out.state.seats] == BARBER
    assert not any(e.type == "character" for e in out.events)


def test_both_swapped_players_are_told_and_the_town_never_is():
    out = lock(haircut(barber_died_today().state, "p1", "p3", "p4"))
    assert any("Dreamer" in e.text for e in told(out, "p3") if e.type == "character")
    assert any("Snake Charmer" in e.text for e in told(out, "p4") if e.type == "character")
    dawn = through_night(out.state)
    for text in (public_texts(out), public_texts(dawn)):
        assert "Dreamer" not in text and "Snake Charmer" not in text and "Barber" not in text


def test_a_poisoned_barber_makes_no_swap():
    state = act(haircut(barber_died_today().state, "p1", "p3", "p4"), type="add_reminder", target="p5",
                token="Poisoned", source="").state
    out = lock(state)
    assert out.state.seat_of("p3").character == "snakecharmer" and "no swap" in plan(out)


def test_the_haircuts_are_once_the_night_after_the_barber_died():
    state = lock(haircut(barber_died_today().state, "p1", "no-one")).state
    state = next_night(through_night(state).state)
    assert not any(p.action == "haircut" for p in GAME.prompts(state, "p1"))


def test_the_barber_killed_tonight_wakes_the_demon_whose_haircuts_apply_at_once():
    out = lock(choose(night2(BARBER), "p1", "p5"))
    assert not out.state.seat_of("p5").alive and "the Barber died tonight" in plan(out)
    assert any(e.type == "night_ask" and "woken" in e.text for e in told(out, "p1"))
    assert any(p.action == "haircut" for p in GAME.prompts(out.state, "p1"))
    after = act(out.state, player="p1", type="haircut", targets=["p3", "p4"])
    assert after.state.seat_of("p3").character == "dreamer" and after.state.seat_of("p4").character == "snakecharmer"
    assert any(e.type == "character" for e in told(after, "p3")) and any(e.type == "character" for e in told(after, "p4"))
    assert not events_of(after, "public")
    with pytest.raises(IllegalAction, match="locked"):  # once
        haircut(after.state, "p1", "p3", "p4")


def test_the_demon_is_not_woken_for_haircuts_when_nobody_killed_the_barber_tonight():
    out = lock(choose(night2(BARBER), "p1", "p4"))
    assert not any(p.action == "haircut" for p in GAME.prompts(out.state, "p1"))
    assert not any("Barber" in e.text for e in told(out, "p1"))


def test_a_barber_the_storytellers_kill_at_night_before_the_lock_gives_haircuts_at_the_lock():
    out = act(night2(BARBER), type="kill", target="p5")
    state = out.state
    assert any(p.action == "haircut" for p in GAME.prompts(state, "p1"))
    # the Demon is told of its new question at once, privately, and nobody else is
    asks = [e for e in told(out, "p1") if e.type == "night_ask"]
    assert any("Barber" in e.text and "2 players" in e.text for e in asks)
    assert not any("Barber" in e.text for e in out.events if e.audience.kind in ("public", "thread"))
    assert not any("Barber" in e.text for p in ("p2", "p3", "p4", "p5") for e in told(out, p))
    out = lock(haircut(state, "p1", "p3", "p4"))
    assert out.state.seat_of("p3").character == "dreamer"


# ----- the Pit-Hag -----

# seat i holds HAG[i - 1]: the Fang Gu in seat 1, the Pit-Hag in seat 2, the Mutant in seat 5
HAG = ["fanggu", "pithag", "snakecharmer", "dreamer", "mutant", "seamstress", "oracle", "klutz"]


def brew(state, target, character):
    """The Pit-Hag's choice tonight: a player, then a character."""
    state = choose(state, "p2", target)
    return act(state, player="p2", type="night_character", character=character).state


def test_the_pit_hag_is_ruled_and_asked_for_a_player_and_a_character_each_night_but_the_first():
    out = act(new_game(SNV, HAG), type="begin")
    assert ruled(out.state, "pithag")
    assert not any(e.type == "night_ask" for e in told(out, "p2"))
    state = next_night(through_night(out.state).state)
    prompts = GAME.prompts(state, "p2")
    assert prompts[0].fields[0].name == "targets" and any(f.into == "character" for f in prompts[1].fields)
    assert [p.action for p in prompts] == ["night_choice", "night_character"]  # each part found by its action


def test_the_chosen_player_becomes_a_character_not_in_play_their_alignment_unchanged_and_is_told():
    out = lock(brew(night2(HAG), "p4", "clockmaker"))
    seat = out.state.seat_of("p4")
    assert (seat.character, seat.shown, seat.alignment) == ("clockmaker", "clockmaker", "good")
    assert any("Clockmaker" in e.text and "**good**" in e.text for e in told(out, "p4") if e.type == "character")


def test_a_character_in_play_changes_nothing():
    out = lock(brew(night2(HAG), "p4", "seamstress"))
    assert out.state.seat_of("p4").character == "dreamer" and "in play: nothing happens" in plan(out)
    assert not any(e.type == "character" for e in out.events)


def test_a_good_player_made_a_demon_stays_good_and_deaths_tonight_are_the_storytellers():
    out = lock(brew(night2(HAG), "p4", "vortox"))
    seat = out.state.seat_of("p4")
    assert (seat.character, seat.alignment) == ("vortox", "good")
    assert "deaths tonight are arbitrary" in plan(out) and "only proposals" in plan(out)
    assert any("Vortox" in e.text and "**good**" in e.text for e in told(out, "p4") if e.type == "character")


def test_the_new_characters_first_night_ability_is_flagged_for_the_storytellers():
    out = lock(brew(night2(HAG), "p4", "clockmaker"))
    assert "first-night ability or set-up" in plan(out) and "yours to judge" in plan(out)


def test_a_poisoned_pit_hag_changes_nobody():
    state = act(brew(night2(HAG), "p4", "clockmaker"), type="add_reminder", target="p2", token="Poisoned",
                source="").state
    out = lock(state)
    assert out.state.seat_of("p4").character == "dreamer" and "nobody changes" in plan(out)


def test_the_pit_hags_change_is_never_told_to_the_town():
    out = lock(brew(night2(HAG), "p4", "clockmaker"))
    dawn = through_night(out.state)
    for text in (public_texts(out), public_texts(dawn)):
        assert "Clockmaker" not in text and "Pit-Hag" not in text and "Dreamer" not in text


def test_the_demon_the_pit_hag_changes_into_a_townsfolk_does_not_kill_that_night():
    state = choose(brew(night2(HAG), "p1", "clockmaker"), "p1", "p4")
    out = lock(state)
    assert out.state.seat_of("p1").character == "clockmaker" and out.state.seat_of("p4").alive
    assert "does not act as before" in plan(out)


def test_an_outsider_the_pit_hag_makes_tonight_is_the_fang_gus_outsider_at_its_later_step():
    state = choose(brew(night2(HAG), "p4", "sweetheart"), "p1", "p4")
    out = lock(state)
    four = out.state.seat_of("p4")
    assert (four.character, four.alignment, four.alive) == ("fanggu", "evil", True)
    assert not out.state.seat_of("p1").alive


def test_the_pit_hag_may_choose_itself():
    out = lock(brew(night2(HAG), "p2", "cerenovus"))
    assert out.state.seat_of("p2").character == "cerenovus" and out.state.seat_of("p2").alignment == "evil"


# ----- the Philosopher -----

# seat i holds PHILO[i - 1]: the Fang Gu in seat 1, the Philosopher in seat 3, the Dreamer in seat 4
PHILO = ["fanggu", "witch", "philosopher", "dreamer", "mutant", "seamstress", "oracle", "klutz"]


def ponder(state, character):
    return act(state, player="p3", type="night_choice", character=character).state


def test_the_philosopher_is_ruled_and_asked_for_a_good_character_on_the_first_night():
    out = act(new_game(SNV, PHILO), type="begin")
    assert ruled(out.state, "philosopher")
    assert any(e.type == "night_ask" and "good character" in e.text for e in told(out, "p3"))
    assert any(f.into == "character" for p in GAME.prompts(out.state, "p3") for f in p.fields)


def test_the_philosopher_gains_the_chosen_ability_and_is_woken_as_it_from_then_on():
    out = lock(ponder(begun(PHILO), "seamstress"))
    seat = out.state.seat_of("p3")
    assert (seat.character, seat.ability) == ("philosopher", "seamstress")  # it does not become the character
    assert any("Seamstress" in e.text for e in told(out, "p3"))
    dusk = dusk_after(out.state)
    asked = " ".join(e.text for e in told(dusk, "p3") if e.type == "night_ask")
    assert "2 players" in asked and "good character" not in asked  # the Seamstress's ask, not its own
    assert GAME.prompts(dusk.state, "p3")[0].fields[0].max_values == 2


def test_the_philosopher_learns_as_the_information_character_it_gained_that_night():
    out = lock(ponder(begun(PHILO), "clockmaker"))
    assert by_player(out.state)["p3"].character == "clockmaker"


def test_the_grimoire_shows_is_the_character_on_the_philosopher_and_the_reveal_says_it():
    from games.clocktower.info import grimoire_text, reveal_text
    out = lock(ponder(begun(PHILO), "clockmaker"))
    known = GAME.chars_of(out.state)
    assert "Is the Clockmaker (Philosopher)" in grimoire_text(out.state, known)
    line = next(x for x in reveal_text(out.state, known).splitlines() if "Name3" in x)
    assert "Philosopher" in line and "Clockmaker" in line


def test_a_character_in_play_that_the_philosopher_chose_is_drunk():
    out = lock(ponder(begun(PHILO), "dreamer"))
    assert impaired(out.state, "p4") == "drunk by the Philosopher"


def test_the_drunk_player_is_sober_again_when_the_philosopher_dies():
    state = lock(ponder(begun(PHILO), "dreamer")).state
    state = through_night(state).state
    state = act(state, type="kill", target="p3").state
    assert impaired(state, "p4") == ""


def test_the_drunk_player_is_sober_while_the_philosopher_is_poisoned():
    state = lock(ponder(begun(PHILO), "dreamer")).state
    state = act(state, type="add_reminder", target="p3", token="Poisoned", source="").state
    assert impaired(state, "p4") == ""


def test_a_character_not_in_play_then_that_comes_into_play_is_drunk():
    state = lock(ponder(begun(PHILO + ["pithag"]), "clockmaker")).state
    state = next_night(through_night(state).state)
    state = choose(state, "p9", "p6")
    state = act(state, player="p9", type="night_choice", character="clockmaker").state
    out = lock(state)
    assert out.state.seat_of("p6").character == "clockmaker"
    assert impaired(out.state, "p6") == "drunk by the Philosopher"


def test_the_philosopher_chooses_once_per_game():
    state = lock(ponder(begun(PHILO), "oracle")).state
    state = next_night(through_night(state).state)
    assert not any(f.into == "character" for p in GAME.prompts(state, "p3") for f in p.fields)


def test_the_philosopher_may_wait_and_choose_a_later_night():
    state = lock(begun(PHILO)).state
    state = next_night(through_night(state).state)
    assert any(f.into == "character" for p in GAME.prompts(state, "p3") for f in p.fields)


def test_an_evil_character_is_not_gained():
    out = lock(ponder(begun(PHILO), "witch"))
    assert out.state.seat_of("p3").ability == "" and "not a good character" in plan(out)


def test_a_poisoned_philosopher_gains_nothing_and_its_choice_is_used():
    state = act(ponder(begun(PHILO), "dreamer"), type="add_reminder", target="p3", token="Poisoned", source="").state
    out = lock(state)
    assert out.state.seat_of("p3").ability == "" and impaired(out.state, "p4") == ""
    state = next_night(through_night(out.state).state)
    assert not any(f.into == "character" for p in GAME.prompts(state, "p3") for f in p.fields)


def test_the_philosophers_gained_ability_is_never_told_to_the_town():
    out = lock(ponder(begun(PHILO), "dreamer"))
    dawn = through_night(out.state)
    for text in (public_texts(out), public_texts(dawn)):
        assert "Philosopher" not in text and "Dreamer" not in text
    assert not any(e.audience.kind == "player" and e.audience.id == "p4" and "Philosopher" in e.text
                   for e in out.events + dawn.events)


def test_a_philosopher_with_the_snake_charmers_ability_swaps_with_the_demon_and_takes_it_along():
    state = lock(ponder(begun(PHILO), "snakecharmer")).state
    state = next_night(through_night(state).state)
    out = lock(choose(state, "p3", "p1"))
    three, one = out.state.seat_of("p3"), out.state.seat_of("p1")
    assert (three.character, three.alignment, three.ability) == ("fanggu", "evil", "")
    assert (one.character, one.alignment, one.ability) == ("philosopher", "good", "snakecharmer")
    assert any(r.player == "p1" and r.token == "Is the Snake Charmer" for r in out.state.reminders)


# ----- where a change of character meets the other rules -----


def test_the_new_vortox_the_snake_charmer_became_wins_by_a_day_without_execution():
    out = lock(choose(begun(table(p1="vortox")), "p3", "p1"))
    out = end_day(through_night(out.state).state)
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"


def test_the_demon_the_pit_hag_turns_into_a_townsfolk_leaves_no_demon_and_good_wins_at_dawn():
    state = lock(brew(night2(HAG), "p1", "clockmaker")).state
    dawn = through_night(state)
    assert dawn.state.pending_end is not None and dawn.state.pending_end.team == "good"


def test_a_haircut_taking_the_evil_twin_is_flagged_for_the_storytellers():
    out = barber_died_today(["vigormortis", "eviltwin", *BARBER[2:]])
    out = lock(haircut(out.state, "p1", "p2", "p4"))
    assert out.state.seat_of("p4").character == "eviltwin" and out.state.seat_of("p4").alignment == "good"
    assert "Evil Twin's pair" in plan(out)
