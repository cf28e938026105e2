"""Sects & Violets' mechanics, pure, on a forced deal of the official script: the Fang Gu's jump,
the Vigormortis's Minions, the No Dashii's poison and the Vortox's loss by no execution. Each test
is named after the rule point the official wiki settles (the readings it leaves open are in the
README's Interpretations, "Sects & Violets' mechanics")."""

from support.clocktower_pure import (
    act,
    choose,
    end_day,
    events_of,
    lock,
    new_game,
    next_night,
    through_night,
    timeout,
    vote,
)

from games.clocktower.rules import impaired, ruled

SNV = {"script": "Sects & Violets"}
# seat i holds TABLE[i - 1]: the Fang Gu in seat 1, the Mutant in seat 5, the Klutz in seat 8
TABLE = ["fanggu", "cerenovus", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "klutz"]


def table(demon):
    return [demon, *TABLE[1:]]


def begun(characters=TABLE):
    return act(new_game(SNV, characters), type="begin").state


def day1(characters=TABLE):
    return through_night(begun(characters)).state


def night2(characters=TABLE):
    return next_night(day1(characters))


def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


def told(out, player):
    return [e for e in out.events if e.audience.kind == "player" and e.audience.id == player]


def public_texts(out):
    return " ".join(e.text for e in events_of(out, "public"))



def test_the_four_demons_are_ruled_on_sects_and_violets():
    state = begun()
    assert all(ruled(state, c) for c in ("fanggu", "vigormortis", "nodashii", "vortox"))


# ----- the Fang Gu -----

def test_the_fang_gu_is_asked_to_kill_on_nights_after_the_first():
    out = act(new_game(SNV, TABLE), type="begin")
    assert not any(e.type == "night_ask" for e in told(out, "p1"))
    state = through_night(out.state).state
    while state.phase != "night":
        out = timeout(state)
        state = out.state
    assert any(e.type == "night_ask" and "they die" in e.text for e in told(out, "p1"))


def test_the_fang_gus_choice_dies():
    out = lock(choose(night2(), "p1", "p4"))
    assert not out.state.seat_of("p4").alive and out.state.seat_of("p1").alive


def test_the_first_outsider_the_fang_gu_chooses_becomes_an_evil_fang_gu_and_the_fang_gu_dies_instead():
    out = lock(choose(night2(), "p1", "p5"))
    state = out.state
    mutant = state.seat_of("p5")
    assert mutant.alive and mutant.character == "fanggu" and mutant.shown == "fanggu" and mutant.alignment == "evil"
    assert not state.seat_of("p1").alive
    assert any("Fang Gu" in e.text and "evil" in e.text for e in told(out, "p5"))
    assert "Fang Gu" in plan(out)
    day = through_night(state)
    assert day.state.phase == "day" and day.state.pending_end is None


def test_the_fang_gus_jump_is_never_told_to_the_town():
    out = lock(choose(night2(), "p1", "p5"))
    dawn = through_night(out.state)
    for text in (public_texts(out), public_texts(dawn)):
        assert "Fang Gu" not in text and "Mutant" not in text
    deaths = [line for line in public_texts(dawn).splitlines() if "died" in line]
    assert any("Name1 (seat 1)" in line for line in deaths) and not any("Name5" in line for line in deaths)


def test_the_fang_gu_jumps_only_once_the_second_outsider_chosen_dies():
    state = lock(choose(night2(), "p1", "p5")).state
    state = next_night(through_night(state).state)
    out = lock(choose(state, "p5", "p8"))
    assert not out.state.seat_of("p8").alive and out.state.seat_of("p8").character == "klutz"
    assert out.state.seat_of("p5").alive


def test_a_poisoned_fang_gu_kills_nobody_and_does_not_jump():
    state = act(night2(), type="add_reminder", target="p1", token="Poisoned", source="").state
    out = lock(choose(state, "p1", "p5"))
    assert out.state.seat_of("p5").character == "mutant" and out.state.seat_of("p1").alive


# ----- the Vigormortis -----

def test_the_vigormortiss_choice_dies():
    out = lock(choose(night2(table("vigormortis")), "p1", "p4"))
    assert not out.state.seat_of("p4").alive
    assert not any(r.source == "vigormortis" for r in out.state.reminders)


def test_a_minion_the_vigormortis_kills_keeps_its_ability_and_poisons_a_townsfolk_neighbour():
    out = lock(choose(night2(table("vigormortis")), "p1", "p2"))
    state = out.state
    assert not state.seat_of("p2").alive
    # the Cerenovus's neighbours: the Vigormortis (skipped), then the Klutz (skipped), the Oracle; the Clockmaker
    assert impaired(state, "p3") and not impaired(state, "p7")
    assert "Name7 (seat 7)" in plan(out)  # the other Townsfolk neighbour, the Storytellers' choice
    state = through_night(state).state
    while state.phase != "night":
        after = timeout(state)
        state = after.state
    assert any(e.type == "night_ask" for e in told(after, "p2"))


def test_the_vigormortiss_minions_lose_their_ability_and_the_poison_ends_when_it_dies():
    state = lock(choose(night2(table("vigormortis")), "p1", "p2")).state
    state = act(state, type="kill", target="p1").state
    assert not impaired(state, "p3")


# ----- the No Dashii -----

def test_the_no_dashiis_two_nearest_townsfolk_neighbours_are_poisoned():
    state = begun(table("nodashii"))
    # seat 2 is a Minion and seat 8 an Outsider: skipped, so the Clockmaker and the Oracle
    assert impaired(state, "p3") and impaired(state, "p7")
    assert not impaired(state, "p4") and not impaired(state, "p2") and not impaired(state, "p8")


def test_a_poisoned_no_dashii_poisons_nobody():
    state = act(begun(table("nodashii")), type="add_reminder", target="p1", token="Poisoned", source="").state
    assert not impaired(state, "p3") and not impaired(state, "p7")


def test_a_dead_no_dashii_poisons_nobody():
    state = act(begun(table("nodashii")), type="kill", target="p1").state
    assert not impaired(state, "p3")


def test_the_no_dashiis_choice_dies():
    out = lock(choose(night2(table("nodashii")), "p1", "p4"))
    assert not out.state.seat_of("p4").alive


# ----- the Vortox -----

def test_with_the_vortox_alive_a_day_without_an_execution_is_an_evil_win():
    out = end_day(day1(table("vortox")))
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"
    assert "Vortox" in out.state.pending_end.reason
    assert "Vortox" not in public_texts(out)


def test_with_the_vortox_a_day_with_an_execution_goes_on():
    out = end_day(day1(table("vortox")), ("p2", "p4"), ("p3", "p4"), ("p5", "p4"))
    assert out.state.pending_end is None and out.state.phase == "night"


def test_a_poisoned_vortox_does_not_win_by_no_execution():
    state = act(day1(table("vortox")), type="add_reminder", target="p1", token="Poisoned", source="").state
    out = end_day(state)
    assert out.state.pending_end is None


def test_the_vortoxs_choice_dies():
    state = end_day(day1(table("vortox")), ("p2", "p4"), ("p3", "p4"), ("p5", "p4")).state  # executed: night
    out = lock(choose(state, "p1", "p6"))
    assert not out.state.seat_of("p6").alive


# ----- the Witch -----

WITCH = ["fanggu", "witch", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "klutz"]


def cursed_day(target="p4"):
    return through_night(choose(begun(WITCH), "p2", target)).state


def test_the_witch_is_asked_on_the_first_night():
    out = act(new_game(SNV, WITCH), type="begin")
    state = out.state
    while state.phase == "night" and not any(e.type == "night_ask" for e in told(out, "p2")):
        out = timeout(state)
        state = out.state
    assert any(e.type == "night_ask" and "nominate" in e.text for e in told(out, "p2"))


def test_the_player_the_witch_cursed_dies_when_they_nominate_tomorrow():
    out = vote(cursed_day(), "p4", "p6")
    assert not out.state.seat_of("p4").alive
    assert "Name4 (seat 4) has died" in public_texts(out) and "Witch" not in public_texts(out)
    assert any(n.nominee == "p6" for n in out.state.nominations)  # the nomination stands


def test_a_player_the_witch_did_not_curse_nominates_safely():
    out = vote(cursed_day(), "p3", "p6")
    assert out.state.seat_of("p3").alive


def test_the_witchs_curse_is_never_told_to_the_town():
    out = through_night(choose(begun(WITCH), "p2", "p4"))
    assert "Witch" not in public_texts(out) and "urse" not in public_texts(out)


def test_the_witchs_curse_lasts_one_day():
    state = end_day(cursed_day(), ("p3", "p6"), ("p5", "p6"), ("p7", "p6")).state
    state = through_night(state).state  # the Witch chooses nobody tonight
    assert vote(state, "p4", "p8").state.seat_of("p4").alive


def test_a_poisoned_witch_curses_nobody():
    state = act(begun(WITCH), type="add_reminder", target="p2", token="Poisoned", source="").state
    state = through_night(choose(state, "p2", "p4")).state
    assert vote(state, "p4", "p6").state.seat_of("p4").alive


def test_with_just_3_players_alive_the_witch_loses_its_ability():
    state = cursed_day()
    for p in ("p3", "p5", "p6", "p7", "p8"):
        state = act(state, type="kill", target=p).state
    assert vote(state, "p4", "p1").state.seat_of("p4").alive


def test_a_cursed_demon_who_nominates_dies_and_the_end_waits_for_the_storytellers():
    out = vote(cursed_day("p1"), "p1", "p6")
    assert not out.state.seat_of("p1").alive
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_the_vigormortiss_kept_minion_and_its_poison_are_never_told_to_the_town():
    out = lock(choose(night2(table("vigormortis")), "p1", "p2"))
    dawn = through_night(out.state)
    for text in (public_texts(out), public_texts(dawn)):
        assert "Vigormortis" not in text and "oison" not in text and "Cerenovus" not in text


def test_a_witch_the_vigormortis_killed_still_curses():
    characters = ["vigormortis", "witch", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "klutz"]
    state = lock(choose(night2(characters), "p1", "p2")).state
    state = next_night(through_night(state).state)
    state = through_night(choose(state, "p2", "p4")).state
    assert not vote(state, "p4", "p6").state.seat_of("p4").alive


# ----- the Sweetheart -----

SWEET = ["fanggu", "cerenovus", "clockmaker", "dreamer", "sweetheart", "seamstress", "oracle", "klutz"]


def test_when_the_sweetheart_dies_1_player_is_drunk_from_now_on_proposed_to_the_storytellers():
    out = act(day1(SWEET), type="kill", target="p5")
    drunk = [r.player for r in out.state.reminders if r.source == "sweetheart" and r.token == "Drunk"]
    assert drunk == ["p6"] and impaired(out.state, "p6")
    assert any("/st reminder" in e.text for e in events_of(out, "storyteller"))
    assert "Drunk" not in public_texts(out) and "Sweetheart" not in public_texts(out)


def test_the_sweetheart_killed_at_night_makes_a_player_drunk():
    out = lock(choose(night2(["vigormortis", *SWEET[1:]]), "p1", "p5"))
    assert not out.state.seat_of("p5").alive
    assert [r.player for r in out.state.reminders if r.source == "sweetheart"] == ["p6"]


def test_a_poisoned_sweetheart_that_dies_makes_nobody_drunk():
    state = act(day1(SWEET), type="add_reminder", target="p5", token="Poisoned", source="").state
    out = act(state, type="kill", target="p5")
    assert not any(r.source == "sweetheart" for r in out.state.reminders)


# ----- the official wiki's pages, checked (issue 40, snvtrav): each test names the page's point -----

def test_the_sweetheart_the_fang_gu_jumps_to_does_not_die_so_makes_nobody_drunk():
    # Fang Gu: "the Fang Gu attacks the Sweetheart, who becomes the Fang Gu while the old Fang Gu dies. The
    # Sweetheart does not make a player drunk, because they did not die."
    out = lock(choose(night2(SWEET), "p1", "p5"))
    assert out.state.seat_of("p5").character == "fanggu" and out.state.seat_of("p5").alive
    assert not any(r.source == "sweetheart" for r in out.state.reminders)
    assert not [p for p in ("p3", "p4", "p6", "p7") if impaired(out.state, p)]


def test_the_witch_may_curse_the_same_player_again_and_again():
    # Witch: "the Witch may curse the same player again and again each night"
    state = end_day(cursed_day(), ("p3", "p6"), ("p5", "p6"), ("p7", "p6")).state
    state = through_night(choose(state, "p2", "p4")).state
    assert not vote(state, "p4", "p8").state.seat_of("p4").alive


def test_the_witch_may_curse_itself_and_dies_if_it_nominates():
    # Witch: "The Witch curses themself. During the next day, the Witch nominates the Demon, and dies."
    out = vote(cursed_day("p2"), "p2", "p1")
    assert not out.state.seat_of("p2").alive and any(n.nominee == "p1" for n in out.state.nominations)


def test_the_cursed_outsider_the_fang_gu_jumps_to_stays_cursed_and_dies_nominating_so_good_wins():
    # Witch: "The Witch curses the Klutz. The Fang Gu attacks the Klutz, so the Klutz becomes the Fang Gu. The new
    # Fang Gu is now cursed by the Witch, and they nominate. The new Fang Gu dies, and good wins."
    state = choose(choose(night2(WITCH), "p2", "p8"), "p1", "p8")
    state = through_night(state).state
    assert state.seat_of("p8").character == "fanggu" and not state.seat_of("p1").alive
    out = vote(state, "p8", "p3")
    assert not out.state.seat_of("p8").alive
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_a_cursed_player_who_calls_for_an_exile_does_not_die():
    # Witch: the cursed Juggler "calls for the exile of a Traveller" (an exile call is not a nomination)
    state = act(cursed_day(), type="add_traveller", target="t9", name="Trav", seat=9, character="harlot",
                alignment="good").state
    out = act(state, player="p4", type="exile_vote", target="t9", vote="yes")
    assert out.state.seat_of("p4").alive


def test_with_the_vortox_exiling_a_traveller_is_not_an_execution_and_evil_wins():
    # Vortox: "When night falls, if nobody was executed today, evil wins. Exiling a Traveller does not count."
    state = act(day1(table("vortox")), type="add_traveller", target="t9", name="Trav", seat=9, character="harlot",
                alignment="good").state
    for voter in ("p2", "p3", "p4", "p5", "p6", "p7"):
        if "t9" not in state.exiled:
            state = act(state, player=voter, type="exile_vote", target="t9", vote="yes").state
    assert "t9" in state.exiled
    out = end_day(state)
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"


def test_with_the_vortox_nominations_that_execute_nobody_are_an_evil_win():
    # Vortox: "5 nominations happened, but nobody was executed. Evil wins."
    out = end_day(day1(table("vortox")), ("p2", "p4"), ("p3", "p5"))  # a tie: nobody is executed
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"


def test_every_minion_the_vigormortis_kills_keeps_its_ability_and_poisons_a_townsfolk():
    # Vigormortis: "All Minions killed by the Vigormortis keep their ability and poison a Townsfolk, not just the
    # most recent."
    characters = ["vigormortis", "cerenovus", "clockmaker", "dreamer", "witch", "seamstress", "oracle", "klutz"]
    state = lock(choose(night2(characters), "p1", "p2")).state
    state = next_night(through_night(state).state)
    state = lock(choose(state, "p1", "p5")).state
    kept = {r.player for r in state.reminders if r.source == "vigormortis" and r.token == "Has ability"}
    poisoned = {r.player for r in state.reminders if r.source == "vigormortis" and "oison" in r.token}
    assert kept == {"p2", "p5"} and len(poisoned) == 2


def test_the_vigormortiss_poison_ends_while_it_is_drunk_or_poisoned():
    # Vigormortis: "If the Vigormortis dies or otherwise loses their ability, then those players become healthy"
    state = lock(choose(night2(table("vigormortis")), "p1", "p2")).state
    assert impaired(state, "p3")
    state = act(state, type="add_reminder", target="p1", token="Poisoned", source="").state
    assert not impaired(state, "p3")


def test_a_kept_minion_that_becomes_a_non_minion_has_no_ability_and_poisons_nobody():
    # Vigormortis: "If a dead Minion becomes a non-Minion character, they no longer poison a Townsfolk and have no
    # ability."
    state = lock(choose(night2(table("vigormortis")), "p1", "p2")).state
    state = act(state, type="set_character", target="p2", character="mutant", tell=False).state
    assert not impaired(state, "p3")
    state = next_night(through_night(state).state)
    from games.clocktower.asks import ask_for
    from games.clocktower.rules import chars
    assert ask_for(state, state.seat_of("p2"), chars(state)) is None


def test_a_kept_minion_that_is_drunk_or_poisoned_loses_its_ability_until_sober():
    # Vigormortis: "If a dead Minion becomes drunk or poisoned, they lose their ability until they become sober"
    characters = ["vigormortis", "witch", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "klutz"]
    state = lock(choose(night2(characters), "p1", "p2")).state
    state = next_night(through_night(state).state)
    state = act(choose(state, "p2", "p4"), type="add_reminder", target="p2", token="Poisoned", source="").state
    state = through_night(state).state
    assert vote(state, "p4", "p6").state.seat_of("p4").alive


def test_a_poisoned_vigormortiss_kept_minion_is_still_asked_and_its_choice_does_nothing():
    characters = ["vigormortis", "witch", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "klutz"]
    state = lock(choose(night2(characters), "p1", "p2")).state
    state = act(through_night(state).state, type="add_reminder", target="p1", token="Poisoned", source="").state
    state = next_night(state)
    from games.clocktower.asks import ask_for
    from games.clocktower.rules import chars
    assert ask_for(state, state.seat_of("p2"), chars(state)) is not None  # not told by silence
    state = through_night(choose(state, "p2", "p4")).state
    assert vote(state, "p4", "p6").state.seat_of("p4").alive
