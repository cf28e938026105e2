"""Any script's night order from the official sheet, and the legal team counts after each set-up change."""

import pytest

from games.clocktower import characters as hrh_mod
from games.clocktower.catalogue import (
    MARKERS,
    NightOrderError,
    SetupConflict,
    UnknownCharacter,
    active_changes,
    legal_counts,
    load,
    night_order,
)

#: Trouble Brewing's 22 characters (no Travellers)
TB = ["washerwoman", "librarian", "investigator", "chef", "empath", "fortuneteller", "undertaker", "monk",
      "ravenkeeper", "virgin", "slayer", "soldier", "mayor", "butler", "drunk", "recluse", "saint",
      "poisoner", "spy", "scarletwoman", "baron", "imp"]
#: the official player-count table, as the rulebook prints it (players: townsfolk, outsiders, minions, demons)
TABLE = {5: (3, 0, 1, 1), 6: (3, 1, 1, 1), 7: (5, 0, 1, 1), 8: (5, 1, 1, 1), 9: (5, 2, 1, 1),
         10: (7, 0, 2, 1), 11: (7, 1, 2, 1), 12: (7, 2, 2, 1), 13: (9, 0, 3, 1), 14: (9, 1, 3, 1),
         15: (9, 2, 3, 1)}


# -- the night order ----------------------------------------------------------------------------

def test_trouble_brewing_wakes_in_the_official_order_with_its_reminders():
    cat = load()
    nights = night_order(TB)
    assert [s.id for s in nights.first_night] == [
        "dusk", "minioninfo", "demoninfo", "poisoner", "washerwoman", "librarian", "investigator", "chef",
        "empath", "fortuneteller", "butler", "spy", "dawn"]
    assert [s.id for s in nights.other_night] == [
        "dusk", "poisoner", "monk", "scarletwoman", "imp", "ravenkeeper", "empath", "fortuneteller",
        "undertaker", "butler", "spy", "dawn"]
    for step in nights.first_night:
        if step.marker:
            assert step.id in MARKERS and step.reminder
        else:
            assert step.reminder == cat.records[step.id].first_night_reminder != ""
            assert step.name == cat.records[step.id].name
    imp = next(s for s in nights.other_night if s.id == "imp")
    assert imp.reminder == cat.records["imp"].other_night_reminder
    assert not nights.custom


def test_every_character_wakes_once_on_the_nights_its_record_says():
    cat = load()
    nights = night_order(list(cat.records))
    first = [s.id for s in nights.first_night if not s.marker]
    other = [s.id for s in nights.other_night if not s.marker]
    assert sorted(first) == sorted(r.id for r in cat.records.values() if r.first_night_reminder)
    assert sorted(other) == sorted(r.id for r in cat.records.values() if r.other_night_reminder)
    # the dawn announcements stay after dawn, as the sheet has them
    ids = [s.id for s in nights.first_night]
    assert ids.index("leviathan") > ids.index("dawn")


def test_travellers_and_older_spellings_are_placed_too():
    nights = night_order(["Scarlet Woman", "imp", "poisoner", "washerwoman", "empath", "thief", "waitress"])
    assert [s.id for s in nights.other_night] == [
        "dusk", "thief", "harlot", "poisoner", "scarletwoman", "imp", "empath", "dawn"]


def test_a_scripts_own_night_order_is_honoured_as_it_stands():
    nights = night_order(TB, first_night=["dusk", "Spy", "minioninfo", "demoninfo", "Poisoner", "dawn"],
                         other_night=["dusk", "imp", "poisoner", "dawn"])
    assert [s.id for s in nights.first_night] == ["dusk", "spy", "minioninfo", "demoninfo", "poisoner", "dawn"]
    assert [s.id for s in nights.other_night] == ["dusk", "imp", "poisoner", "dawn"]
    assert nights.custom
    assert nights.first_night[1].reminder == load().records["spy"].first_night_reminder


def test_a_scripts_own_order_naming_a_stranger_or_someone_twice_is_refused():
    with pytest.raises(NightOrderError, match="first night order names 'vortox', which is not on the script"):
        night_order(TB, first_night=["dusk", "vortox", "dawn"])
    with pytest.raises(NightOrderError, match="other nights order names 'Imp' twice"):
        night_order(TB, other_night=["dusk", "imp", "Imp", "dawn"])


def test_an_unknown_character_is_named():
    with pytest.raises(UnknownCharacter, match="Not official characters: actor, critic"):
        night_order([*TB, "actor", "critic"])


def test_her_royal_highness_register_keeps_its_rulebook_order_beside_the_official_one():
    hrh = hrh_mod.load()
    official = [s.id for s in night_order(hrh.characters).first_night]
    rulebook = list(hrh.night_order.first_night)
    # the official sheet wakes the Magician before Minion Info; the rulebook after it
    assert official.index("magician") < official.index("minioninfo")
    assert rulebook.index("magician") > rulebook.index("minioninfo")


# -- the team counts ----------------------------------------------------------------------------

def counts(players, chosen=(), script=TB):
    return [(c.townsfolk, c.outsiders, c.minions, c.demons)
            for c in legal_counts([*script, *chosen], players, chosen)]


@pytest.mark.parametrize("players", sorted(TABLE))
def test_with_no_set_up_change_the_count_is_the_table(players):
    assert counts(players) == [TABLE[players]]
    assert counts(players, ["imp", "poisoner"]) == [TABLE[players]]


@pytest.mark.parametrize("players", [4, 16, 0])
def test_a_player_count_off_the_table_is_refused(players):
    with pytest.raises(SetupConflict, match=f"5 to 15 players, not {players}"):
        legal_counts(TB, players)


def test_baron_adds_two_outsiders():
    assert counts(8, ["baron"]) == [(3, 3, 1, 1)]
    assert counts(5, ["baron"]) == [(1, 2, 1, 1)]


def test_godfather_adds_or_removes_one_outsider_but_never_below_none():
    assert counts(8, ["godfather"]) == [(6, 0, 1, 1), (4, 2, 1, 1)]
    assert counts(7, ["godfather"]) == [(4, 1, 1, 1)]


def test_fang_gu_adds_one_and_vigormortis_removes_one():
    assert counts(7, ["fanggu"]) == [(4, 1, 1, 1)]
    assert counts(9, ["vigormortis"]) == [(6, 1, 1, 1)]
    assert counts(7, ["vigormortis"]) == [(5, 0, 1, 1)]  # nothing to remove


def test_outsider_changes_add_up():
    assert counts(10, ["baron", "fanggu"]) == [(4, 3, 2, 1)]
    assert counts(11, ["baron", "vigormortis"]) == [(6, 2, 2, 1)]


def test_balloonist_and_hermit_allow_one_more_or_one_fewer():
    assert counts(7, ["balloonist"]) == [(5, 0, 1, 1), (4, 1, 1, 1)]
    assert counts(9, ["hermit"]) == [(6, 1, 1, 1), (5, 2, 1, 1)]


def test_hermit_needs_an_outsider_seat_of_its_own():
    with pytest.raises(SetupConflict, match="at most 0 Outsiders, but 1 is needed: Hermit"):
        legal_counts([*TB, "hermit"], 7, ["hermit"])


def test_sentinel_on_the_script_allows_one_more_or_fewer_without_being_dealt():
    assert counts(8, script=[*TB, "sentinel"]) == [(6, 0, 1, 1), (5, 1, 1, 1), (4, 2, 1, 1)]
    assert counts(8) == [(5, 1, 1, 1)]


def test_xaan_allows_any_number_of_outsiders_overriding_the_baron():
    assert counts(7, ["xaan"]) == [(5 - o + 0, o, 1, 1) for o in range(6)]
    assert counts(10, ["xaan", "baron"]) == [(7 - o, o, 2, 1) for o in range(8)]


def test_kazali_deals_no_minion_and_any_outsiders():
    assert counts(7, ["kazali"]) == [(6 - o, o, 0, 1) for o in range(7)]
    with pytest.raises(SetupConflict, match="Kazali chooses its Minions during the first night.*Poisoner"):
        legal_counts([*TB, "kazali"], 7, ["kazali", "poisoner"])


def test_lord_of_typhon_adds_a_minion_and_any_outsiders():
    assert counts(7, ["lordoftyphon"]) == [(4 - o, o, 2, 1) for o in range(5)]
    assert active_changes(TB, ["lordoftyphon"])[0][1].evil_line


def test_lil_monsta_is_an_extra_minion_in_the_demons_seat():
    assert counts(7, ["lilmonsta"]) == [(5, 0, 2, 0)]
    assert counts(7, ["lilmonsta", "poisoner", "spy"]) == [(5, 0, 2, 0)]
    assert active_changes(TB, ["lilmonsta"])[0][1].no_token


def test_summoner_leaves_no_demon_and_a_townsfolk_in_its_place():
    assert counts(7, ["summoner"]) == [(6, 0, 1, 0)]
    with pytest.raises(SetupConflict, match="at most 0 Demons, but 1 is needed: Imp"):
        legal_counts([*TB, "summoner"], 7, ["summoner", "imp"])


def test_legion_is_most_players_and_no_minion():
    found = counts(7, ["legion"])
    assert {d for *_, d in found} == {4, 5}
    assert all(m == 0 for _, _, m, _ in found)
    assert (3, 0, 0, 4) in found and (0, 3, 0, 4) in found and (0, 2, 0, 5) in found
    assert {d for *_, d in counts(15, ["legion"])} == set(range(8, 14))
    with pytest.raises(SetupConflict, match="no Minions.*Poisoner"):
        legal_counts([*TB, "legion"], 7, ["legion", "poisoner"])


def test_atheist_means_no_evil_characters():
    assert counts(7, ["atheist"]) == [(7, 0, 0, 0), (6, 1, 0, 0), (5, 2, 0, 0)]
    with pytest.raises(SetupConflict, match="Atheist means no evil characters.*Imp"):
        legal_counts([*TB, "atheist"], 7, ["atheist", "imp"])


def test_huntsman_puts_the_damsel_in_play():
    assert counts(7, ["huntsman"], script=[*TB, "damsel"]) == [(4, 1, 1, 1)]
    assert counts(8, ["huntsman"], script=[*TB, "damsel"]) == [(5, 1, 1, 1), (4, 2, 1, 1)]
    assert active_changes(TB, ["huntsman"])[0][1].requires == ("damsel",)


def test_choirboy_puts_the_king_in_play_among_the_townsfolk():
    assert counts(7, ["choirboy"]) == [(5, 0, 1, 1)]
    assert active_changes(TB, ["choirboy"])[0][1].requires == ("king",)
    many = ["washerwoman", "librarian", "investigator", "chef"]
    with pytest.raises(SetupConflict, match="at most 5 Townsfolk, but 6 are needed:.*King \\(required\\)"):
        legal_counts([*TB, "choirboy"], 7, ["choirboy", *many])


def test_village_idiot_bounty_hunter_and_the_false_cards_keep_the_counts():
    for cid in ("villageidiot", "bountyhunter", "drunk", "marionette", "lunatic"):
        assert counts(9, [cid]) == [TABLE[9]], cid
    change = dict(active_changes(TB, ["villageidiot", "bountyhunter", "drunk", "marionette", "lunatic"]))
    assert (change["villageidiot"].copies, change["villageidiot"].drunk_copies) == ((0, 1, 2), 1)
    assert change["bountyhunter"].evil_townsfolk == 1
    assert (change["drunk"].false_card, change["lunatic"].false_card) == ("townsfolk", "demon")
    assert (change["marionette"].false_card, change["marionette"].neighbours) == ("good", "demon")


def test_loric_on_the_script_change_the_deal():
    change = dict(active_changes([*TB, "gardener", "pope", "tor", "bootlegger"]))
    assert change["gardener"].storyteller_assigns
    assert change["pope"].duplicates == "good"
    assert change["tor"].hidden
    assert counts(8, script=[*TB, "gardener", "pope", "tor", "bootlegger"]) == [TABLE[8]]


def test_too_many_chosen_of_a_team_is_explained():
    with pytest.raises(SetupConflict, match="At 7 players there can be at most 1 Minion, but 2 are needed: "
                                            "Poisoner, Spy"):
        legal_counts(TB, 7, ["poisoner", "spy"])


def test_a_chosen_character_off_the_script_is_refused():
    with pytest.raises(SetupConflict, match="Not on the script: Vortox"):
        legal_counts(TB, 7, ["vortox"])


def test_her_royal_highness_registers_table_is_the_official_one_from_7_players():
    from games.clocktower.deal import composition

    official = load().counts
    for players, row in composition().items():
        assert official[players].counts() == row.counts(), players
    assert sorted(official) == list(range(5, 16)) and min(composition()) == 7
