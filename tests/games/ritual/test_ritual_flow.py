"""The Ritual, phase by phase: setup, the Choosing, the Offering, the ritual, the Council, infection."""

import json
import random

import pytest
import support.ritual_helpers as H

from games.engine import IllegalAction, Player, ScriptedRng, SetupError
from games.ritual.circle import team
from games.ritual.ending import all_records

GAME = H.GAME
Table = H.Table
public = H.public
private_to = H.private_to


# ----------------------------------------------------------------- setup
@pytest.mark.parametrize("n, corrupted", [(3, 1), (4, 1), (5, 1), (6, 2), (7, 2), (8, 2), (9, 3)])
def test_deal_by_table_size(n, corrupted):
    for seed in range(5):
        out = GAME.setup(H.players(n), {}, random.Random(seed))
        roles = out.state.roles
        teams = [GAME.data.roles[r].team for r in roles.values()]
        assert teams.count("corrupted") == corrupted and "neutral" not in teams
        corrupted_roles = [r for r in roles.values() if GAME.data.roles[r].team == "corrupted"]
        assert len(set(corrupted_roles)) == len(corrupted_roles)  # no repeats among the Corrupted
        coven_roles = [r for r in roles.values() if GAME.data.roles[r].team == "coven"]
        counts = [coven_roles.count(r) for r in ("guardian", "seer", "chronicler")]
        assert max(counts) - min(counts) <= 1  # Coven roles repeat as evenly as possible


def test_revenant_only_at_seven_plus_and_only_as_an_option():
    for n in (3, 6):
        roles = GAME.setup(H.players(n), {"revenant": True}, random.Random(1)).state.roles
        assert "revenant" not in roles.values()
    for n in (7, 9):
        assert "revenant" in GAME.setup(H.players(n), {"revenant": True}, random.Random(1)).state.roles.values()
        assert "revenant" not in GAME.setup(H.players(n), {}, random.Random(1)).state.roles.values()
    roles = GAME.setup(H.players(7), {"revenant": True}, random.Random(1)).state.roles
    teams = [GAME.data.roles[r].team for r in roles.values()]
    assert teams.count("corrupted") == 2 and teams.count("coven") == 4


def test_too_many_corrupted_is_refused():
    with pytest.raises(SetupError):
        GAME.setup(H.players(4), {"corrupted_count": 2}, random.Random(1))
    with pytest.raises(SetupError):
        GAME.setup(H.players(3), {}, random.Random(1), {"roles": {"a": "seer", "b": "deceiver", "c": "harbinger"}})
    with pytest.raises(SetupError):
        GAME.setup(H.players(3), {}, random.Random(1), {"roles": {"a": "seer", "b": "seer"}})
    with pytest.raises(SetupError):
        GAME.setup(H.players(3), {}, random.Random(1), {"roles": {"a": "seer", "b": "seer", "c": "lich"}})
    with pytest.raises(SetupError):
        GAME.setup(H.players(3), {"choosing_seconds": 1}, random.Random(1))
    assert GAME.setup(H.players(5), {"corrupted_count": 2}, random.Random(1)).state.roles


def test_role_cards_are_private_and_complete():
    t = Table(["guardian", "seer", "hollow_servant", "deceiver", "chronicler"])
    cards = {e.audience.id: e for e in t.events if e.type == "role_card"}
    assert set(cards) == set("abcde")
    assert all(e.audience.kind == "player" for e in cards.values())
    g = cards["a"].text
    assert "Guardian" in g and "Coven" in g and "Mandrake Root" in g and "screaming root" in g
    assert "Goal" in g and "-15" not in g and "%" not in g
    assert "Dax" not in g  # the Coven do not learn who is Corrupted
    c = cards["c"].text
    assert "Dax (Deceiver)" in c and cards["c"].data["teammates"] == ["d"]
    assert cards["d"].data["teammates"] == ["c"]
    opening = public(t.events, "choosing_opened")
    assert len(opening) == 1 and opening[0].opens_phase
    assert t.state.phase == "choosing" and t.state.round == 1


def test_corrupted_can_start_as_strangers():
    t = Table(["guardian", "seer", "hollow_servant", "deceiver", "chronicler"], corrupted_know_each_other=False)
    card = next(e for e in t.events if e.type == "role_card" and e.audience.id == "c")
    assert "Dax" not in card.text and card.data["teammates"] == []
    assert "teammates" not in GAME.view(t.state, "c").data["me"]


# ----------------------------------------------------------------- the Choosing
def test_performer_vote_changes_and_closes_early():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    out = t.do(type="vote_performer", player="a", target="b")
    assert "Bram" in out.reply and "change" in out.reply and out.events == []
    out = t.do(type="vote_performer", player="a", target="c")
    assert "changed" in out.reply and t.state.votes["a"] == "c"
    t.do(type="vote_performer", player="b", target="c")
    t.do(type="vote_performer", player="c", target="a")
    assert t.state.phase == "choosing"
    out = t.do(type="vote_performer", player="d", target="Cora")  # a name works too
    assert t.state.phase == "offering" and t.state.performer == "c"
    chosen = public(out.events, "performer_chosen")[0]
    assert "Cora" in chosen.text and chosen.data == {"performer": "c", "tie": False}
    assert chosen.notify == ["c"] and "the Hollow comes for them" in chosen.text  # pinged: no DM of its own
    assert not private_to(out.events, "c")
    assert public(out.events, "offering_opened")[0].opens_phase


def test_performer_tie_goes_to_who_performed_least_then_random():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"], rng=ScriptedRng(choices=[1]))
    for p, target in zip("abcd", "bbcc", strict=True):
        t.do(type="vote_performer", player=p, target=target)
    assert t.state.performer == "c"  # b and c tied, never performed: the scripted draw picks index 1
    assert public(t.events, "performer_chosen")[-1].data["tie"]
    t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash", "d": "raven_feather"})
    t.spare_all()
    for p, target in zip("abcd", "bbcc", strict=True):
        t.do(type="vote_performer", player=p, target=target, rng=ScriptedRng(choices=[1]))
    assert t.state.performer == "b"  # c has performed once already


def test_performer_tie_can_be_pure_chance():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"], rng=ScriptedRng(choices=[0, 0]),
              performer_tie="random")
    t.state.performed["b"] = 3
    for p, target in zip("abcd", "bbcc", strict=True):
        t.do(type="vote_performer", player=p, target=target)
    assert t.state.performer == "b"


def test_choosing_timeout_counts_votes_cast_and_no_votes_lets_fate_choose():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.do(type="vote_performer", player="a", target="d")
    t.timeout()
    assert t.state.performer == "d" and t.state.phase == "offering"
    t2 = Table(["guardian", "seer", "hollow_servant", "chronicler"], rng=ScriptedRng(choices=[2]))
    t2.state.performed.update(a=1, b=0, c=0, d=0)
    events = t2.timeout()
    assert t2.state.performer == "d"  # among the three who never performed, index 2
    assert "fate" in public(events, "performer_chosen")[0].text


# ----------------------------------------------------------------- the Offering
def test_offer_from_own_pool_only_and_can_change():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.elect("a")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, {"type": "offer", "player": "a", "ingredient": "blood_of_the_innocent"}, t.rng)
    assert err.value.code == "not_your_ingredient" and "Mandrake Root" in err.value.message
    out = t.do(type="offer", player="a", ingredient="mandrake_root")
    assert "Mandrake Root" in out.reply and "change" in out.reply
    out = t.do(type="offer", player="a", ingredient="Silver Thread")  # by name too
    assert "instead" in out.reply and t.state.offerings["a"] == "silver_thread"
    assert [p.action for p in GAME.prompts(t.state, "a")] == ["offer"]


def test_ingredient_prompt_shows_names_and_flavour_never_weights():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.elect("a")
    (prompt,) = GAME.prompts(t.state, "c")
    assert prompt.action == "offer" and not prompt.vote
    (field,) = prompt.fields
    assert field.name == "ingredient"
    assert [c.value for c in field.choices] == ["blood_of_the_innocent", "shadow_ash", "void_essence"]
    assert [c.label for c in field.choices] == ["Blood of the Innocent", "Shadow Ash", "Void Essence"]
    for c in field.choices:
        assert c.description and "30" not in c.description and "%" not in c.description
        assert len(c.label) <= 100 and len(c.description) <= 100


def test_corrupted_see_teammates_only_after_offering():
    t = Table(["guardian", "hollow_servant", "harbinger", "deceiver", "seer", "chronicler", "seer"])
    t.elect("a")
    out = t.do(type="offer", player="b", ingredient="shadow_ash")
    whispers = [e for e in out.events if e.type == "hollow_whisper"]
    assert [e.audience.id for e in whispers] == ["b"]  # only b has offered so far
    assert whispers[0].data["teammates"] == {"c": None, "d": None}
    assert "has not chosen yet" in whispers[0].text
    out = t.do(type="offer", player="a", ingredient="mandrake_root")
    assert [e for e in out.events if e.type == "hollow_whisper"] == []  # a Coven offering tells no one
    out = t.do(type="offer", player="c", ingredient="serpent_scale")
    got = {e.audience.id: e.data["teammates"] for e in out.events if e.type == "hollow_whisper"}
    assert got == {"b": {"c": "serpent_scale", "d": None}, "c": {"b": "shadow_ash", "d": None}}
    out = t.do(type="offer", player="c", ingredient="candle_wax")  # a change: teammates hear, c has its view
    got = {e.audience.id: e.data["teammates"] for e in out.events if e.type == "hollow_whisper"}
    assert got == {"b": {"c": "candle_wax", "d": None}}
    assert GAME.view(t.state, "b").data["me"]["whisper"]["teammates"] == {"c": "candle_wax", "d": None}
    assert "whisper" not in GAME.view(t.state, "d").data["me"]  # d has not offered yet
    assert "candle_wax" not in json.dumps(GAME.view(t.state, "a").data)
    assert "candle_wax" not in json.dumps(GAME.view(t.state, None).data)


def test_strangers_hear_anonymous_whispers():
    t = Table(["guardian", "hollow_servant", "harbinger", "seer", "chronicler"], corrupted_know_each_other=False)
    t.elect("a")
    t.do(type="offer", player="b", ingredient="shadow_ash")
    out = t.do(type="offer", player="c", ingredient="candle_wax")
    whisper = next(e for e in out.events if e.type == "hollow_whisper" and e.audience.id == "b")
    assert whisper.data == {"selections": ["candle_wax"], "waiting": 0}
    assert "Cora" not in whisper.text and "Candle Wax" in whisper.text


def test_offering_timeout_offers_at_random_or_nothing():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"], rng=ScriptedRng(choices=[2]))
    t.elect("a")
    t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash"})
    t.timeout()
    rec = all_records(t.state)[-1]
    assert rec["offerings"]["d"] == "ink_of_secrets" and rec["idle"] == ["d"]
    assert len(public(t.events, "ingredient_revealed")) == 4
    t2 = Table(["guardian", "seer", "hollow_servant", "chronicler"], idle_offering="none")
    t2.elect("a")
    t2.offer({"a": "mandrake_root"})
    t2.timeout()
    assert all_records(t2.state)[-1]["offerings"] == {"a": "mandrake_root"}
    assert len(public(t2.events, "ingredient_revealed")) == 1
    t3 = Table(["guardian", "seer", "hollow_servant", "chronicler"], idle_offering="none")
    t3.elect("a")
    events = t3.timeout()
    assert all_records(t3.state)[-1]["quality"] == "TAINTED"
    assert "stays cold" in public(events, "cauldron_reaction")[0].text


# ----------------------------------------------------------------- the ritual on the TV
def test_ritual_is_theatre_without_attribution_or_numbers():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler", "deceiver"])
    t.elect("b")
    events = t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash", "d": "raven_feather",
                      "e": "mirror_glass"})
    pub = public(events)
    kinds = [e.type for e in pub]
    assert kinds[0] == "ritual_started"
    reveals = public(events, "ingredient_revealed")
    assert sorted(e.data["ingredient"] for e in reveals) == sorted(
        ["mandrake_root", "crystal_salt", "shadow_ash", "raven_feather", "mirror_glass"])
    for e in reveals:
        assert e.pause > 0 and set(e.data) == {"ingredient", "name", "icon"}
        assert not any(name in e.text for name in H.NAMES)
    assert kinds.index("cauldron_reaction") > kinds.index("ingredient_revealed")
    assert kinds.index("ritual_outcome") > kinds.index("cauldron_reaction")
    for e in pub:
        assert "%" not in e.text and "13" not in e.text.replace("13th", "")
        for role in ("Guardian", "Seer", "Hollow Servant", "Chronicler", "Deceiver"):
            assert role not in e.text
    # corruption 19 -> PURE; Divination dominant (two of five)
    assert "PURE" in public(events, "ritual_outcome")[0].text and public(events, "vision")
    assert t.state.phase == "council"


def test_reveal_order_is_random():
    orders = set()
    for seed in range(8):
        t = Table(["guardian", "seer", "hollow_servant", "chronicler", "deceiver"], rng=random.Random(seed))
        t.elect("b")
        events = t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash", "d": "raven_feather",
                          "e": "mirror_glass"})
        orders.add(tuple(e.data["ingredient"] for e in public(events, "ingredient_revealed")))
    assert len(orders) > 1


PURE_PROTECTION = {"a": "mandrake_root", "b": "tears_of_the_moon", "c": "mirror_glass"}


def test_pure_protection_wards_the_performer_at_council():
    t = Table(["guardian", "guardian", "deceiver"])
    t.elect("a")
    events = t.offer(PURE_PROTECTION)
    assert "PURE" in public(events, "ritual_outcome")[0].text and t.state.pure == 1
    assert t.state.phase == "council" and t.state.warded == "a"
    (prompt,) = GAME.prompts(t.state, "c")
    assert [c.value for c in prompt.fields[0].choices] == ["b", "none"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, {"type": "vote_burn", "player": "c", "target": "a"}, t.rng)
    assert err.value.code == "warded"
    t2 = Table(["guardian", "guardian", "deceiver"], wards_shield_council=False)
    t2.elect("a")
    t2.offer(PURE_PROTECTION)
    assert t2.state.warded == ""


def test_five_pure_rituals_win_for_the_coven():
    t = Table(["guardian", "guardian", "deceiver"])
    for r in range(1, 6):
        assert t.state.round == r
        t.round("a", PURE_PROTECTION)
    assert t.state.finished and t.state.outcome == "Coven" and sorted(t.state.winners) == ["a", "b"]
    assert t.state.pure == 5 and t.state.phase == "game_over"
    assert "Five pure rituals" in public(t.events, "game_over")[0].text


SEERS = ["seer", "seer", "seer", "guardian"]


def test_pure_divination_shows_a_true_vision():
    t = Table([*SEERS, "hollow_servant"], rng=ScriptedRng(choices=[3]))
    t.elect("a")
    events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "mandrake_root",
                      "e": "shadow_ash"})  # 7: PURE, Divination dominant
    (vision,) = public(events, "vision")
    assert vision.data["targets"] == ["e"] and "**Esme**" in vision.text and "**shadow**" in vision.text
    t2 = Table([*SEERS, "hollow_servant"], rng=ScriptedRng(choices=[0]))
    t2.elect("a")
    events = t2.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "mandrake_root",
                       "e": "shadow_ash"})
    assert "**Bram**" in public(events, "vision")[0].text and "**light**" in public(events, "vision")[0].text


def test_the_vision_never_shows_the_performer():
    for k in range(4):
        t = Table([*SEERS, "hollow_servant"], rng=ScriptedRng(choices=[k]))
        t.elect("c")
        events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "mandrake_root",
                          "e": "shadow_ash"})
        assert public(events, "vision")[0].data["targets"] != ["c"]


def test_amplified_pure_divination_shows_two_true_visions():
    t = Table([*SEERS, "harbinger"], rng=ScriptedRng(choices=[3, 0]))
    t.elect("a")
    events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "mandrake_root",
                      "e": "candle_wax"})  # -5: PURE and vivid
    visions = public(events, "vision")
    assert [v.data["targets"] for v in visions] == [["e"], ["b"]]
    assert "shadow" in visions[0].text and "light" in visions[1].text
    assert "surges" in public(events, "cauldron_reaction")[0].text


def test_suppressed_pure_divination_gives_a_weaker_pair_clue():
    t = Table(["seer", "seer", "chronicler", "seer", "hollow_servant"], rng=ScriptedRng(choices=[3, 0]))
    t.elect("a")
    events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "ink_of_secrets", "d": "moonstone_dust",
                      "e": "shadow_ash"})  # 0 + 0 + 3 - 5 + 22 = 20: TAINTED, muted
    assert all_records(t.state)[-1]["quality"] == "TAINTED"
    assert "closed" in public(events, "vision")[0].text  # a muted TAINTED vision shows nothing
    t = Table(["seer", "seer", "chronicler", "guardian", "hollow_servant"], rng=ScriptedRng(choices=[3, 0]))
    t.elect("a")
    events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "ink_of_secrets", "d": "mandrake_root",
                      "e": "shadow_ash"})  # 10: PURE, muted
    (vision,) = public(events, "vision")
    assert vision.data["targets"] == ["e", "b"]
    assert "at least one" in vision.text and "**shadow**" in vision.text
    assert "hush" in public(events, "cauldron_reaction")[0].text


@pytest.mark.parametrize("mode, floats, shown", [
    ("invert", [], "light"), ("random", [0.2], "shadow"), ("random", [0.7], "light"),
])
def test_misdirection_scrambles_a_pure_vision(mode, floats, shown):
    t = Table([*SEERS, "deceiver"], rng=ScriptedRng(floats=floats, choices=[3]), misdirection=mode)
    t.elect("a")
    events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "mandrake_root",
                      "e": "mirror_glass"})  # -8: PURE, Divination dominant, a Misdirection ingredient
    (vision,) = public(events, "vision")
    assert vision.data["targets"] == ["e"] and f"**{shown}**" in vision.text
    assert all_records(t.state)[-1]["visions"][0]["true"] == "shadow"


def test_tainted_divination_is_uncertain():
    t = Table([*SEERS, "hollow_servant"], rng=ScriptedRng(choices=[1]))
    t.elect("a")
    events = t.offer({"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "silver_thread",
                      "e": "blood_of_the_innocent"})  # 22
    (vision,) = public(events, "vision")
    assert "uncertain" in vision.text and "**Cora**" in vision.text
    assert "light" not in vision.text and "shadow" not in vision.text


def test_misdirection_dominant_pure_reflects_nothing_and_tainted_lies():
    t = Table(["seer", "guardian", "chronicler", "deceiver", "deceiver"])
    t.elect("a")
    events = t.offer({"a": "eye_of_newt", "b": "silver_thread", "c": "raven_feather", "d": "fools_gold",
                      "e": "fools_gold"})  # 17: PURE; Misdirection 2 = Divination 2, Misdirection first
    assert all_records(t.state)[-1]["dominant"] == "misdirection" and all_records(t.state)[-1]["quality"] == "PURE"
    assert public(events, "vision") == []
    t = Table(["seer", "seer", "chronicler", "revenant", "deceiver", "deceiver"],
              rng=ScriptedRng(floats=[0.3], choices=[3]))
    t.elect("a")
    events = t.offer({"a": "eye_of_newt", "b": "eye_of_newt", "c": "raven_feather", "d": "ectoplasm",
                      "e": "fools_gold", "f": "fools_gold"})  # 37: TAINTED, Misdirection 3 = Divination 3
    (vision,) = public(events, "vision")
    assert vision.data["targets"] == ["e"] and "**light**" in vision.text  # a coin flip, here false
    assert all_records(t.state)[-1]["visions"][0]["true"] == "shadow"


# ----------------------------------------------------------------- deaths
BACKFIRE_5 = {"a": "crystal_salt", "b": "silver_thread", "c": "raven_feather", "d": "blood_of_the_innocent",
              "e": "void_essence"}  # 55, Corruption 2 = Divination 2: Corruption dominant
ROLES_5 = ["seer", "guardian", "chronicler", "hollow_servant", "hollow_servant"]


def test_backfire_kills_the_performer_and_skips_the_council():
    t = Table([*ROLES_5[:3], "seer", "hollow_servant", "hollow_servant"], rng=ScriptedRng(floats=[0.9]))
    t.elect("a")
    events = t.offer({**BACKFIRE_5, "f": "void_essence", "d": "eye_of_newt", "e": "blood_of_the_innocent"})
    assert all_records(t.state)[-1]["quality"] == "BACKFIRED" and t.state.dead == ["a"]
    deaths = public(events, "death")
    assert len(deaths) == 1 and "**Ava**" in deaths[0].text and deaths[0].data["cause"] == "ritual"
    assert "Seer" not in deaths[0].text  # roles stay hidden by default
    assert t.state.phase == "choosing" and t.state.round == 2  # no Council after a death
    assert public(events, "council_opened") == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, {"type": "vote_performer", "player": "a", "target": "b"}, t.rng)
    assert err.value.code == "dead_player"
    assert GAME.prompts(t.state, "a") == []


def test_spite_death_at_a_quarter_when_corruption_dominates():
    t = Table(ROLES_5, rng=ScriptedRng(floats=[0.24], choices=[1]))
    t.elect("a")
    events = t.offer(BACKFIRE_5)
    assert t.state.dead == ["a", "c"]  # the spite victim: index 1 of the living non-Corrupted [b, c]
    spite = public(events, "death")[1]
    assert spite.data["cause"] == "spite" and "**Cora**" in spite.text
    assert t.state.outcome == "Corrupted"  # 1 Coven against 2 Corrupted: parity
    t = Table(ROLES_5, rng=ScriptedRng(floats=[0.25]))
    t.elect("a")
    t.offer(BACKFIRE_5)
    assert t.state.dead == ["a"] and all_records(t.state)[-1]["spite"] == ""


def test_spite_death_at_half_from_round_four_with_infection_five():
    roles = ["seer", "guardian", "chronicler", "chronicler", "hollow_servant", "harbinger"]
    offers = {"a": "crystal_salt", "b": "silver_thread", "c": "raven_feather", "d": "raven_feather",
              "e": "void_essence", "f": "serpent_scale"}  # 45 + amplification: BACKFIRED, Divination dominant
    t = Table(roles, rng=ScriptedRng(floats=[0.4], choices=[0]))
    t.elect("a")
    t.offer(offers)
    assert t.state.dead == ["a"]  # not Corruption-dominated, no hunger yet: no spite roll at all
    t = Table(roles, rng=ScriptedRng(floats=[0.4], choices=[0, 0]))
    t.state.round, t.state.infection = 4, 5
    t.elect("a")
    t.offer(offers)
    assert t.state.dead == ["a", "b"] and all_records(t.state)[-1]["spite"] == "b"
    t = Table(roles, rng=ScriptedRng(floats=[0.5], choices=[0]))
    t.state.round, t.state.infection = 4, 5
    t.elect("a")
    t.offer(offers)
    assert t.state.dead == ["a"]


def test_spite_never_takes_the_corrupted():
    for k in range(6):
        t = Table(ROLES_5, rng=ScriptedRng(floats=[0.0], choices=[k]))
        t.elect("d")
        t.offer(BACKFIRE_5)
        assert t.state.dead[0] == "d" and team(t.state, t.state.dead[1]) != "corrupted"


def test_misdirection_backfire_strikes_at_random():
    roles = ["seer", "guardian", "chronicler", "guardian", "deceiver", "deceiver", "harbinger"]
    offers = {"a": "eye_of_newt", "b": "silver_thread", "c": "raven_feather", "d": "tears_of_the_moon",
              "e": "fools_gold", "f": "fools_gold", "g": "serpent_scale"}  # 22 amplified, Misdirection first
    t = Table(roles, rng=ScriptedRng(floats=[0.9], choices=[3]))
    t.elect("a")
    events = t.offer(offers)
    assert all_records(t.state)[-1]["dominant"] == "misdirection" and all_records(t.state)[-1]["quality"] == "BACKFIRED"
    assert t.state.dead == ["d"] and "**Dax**" in public(events, "death")[0].text
    t = Table(roles, rng=ScriptedRng(floats=[0.9], choices=[0]))
    t.elect("a")
    t.offer(offers)
    assert t.state.dead == ["a"]


def test_reveal_on_death_option():
    t = Table(ROLES_5, rng=ScriptedRng(floats=[0.9]), reveal_on_death=True)
    t.elect("a")
    events = t.offer(BACKFIRE_5)
    (reveal,) = public(events, "role_revealed")
    assert "Seer" in reveal.text and reveal.data["player"] == "a"


# ----------------------------------------------------------------- the Council
TAINTED_3 = {"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash"}  # 7, but Corruption dominant


def test_burning_the_last_corrupted_wins_for_the_coven():
    t = Table(["guardian", "seer", "hollow_servant"])
    t.elect("a")
    t.offer(TAINTED_3)
    assert t.state.phase == "council"
    (prompt,) = GAME.prompts(t.state, "a")
    assert prompt.vote and prompt.fields[0].name == "target"
    assert [c.value for c in prompt.fields[0].choices] == ["b", "c", "none"]
    t.do(type="vote_burn", player="a", target="c")
    out = t.do(type="vote_burn", player="b", target="c")
    assert "change" in out.reply
    events = t.burn({"c": "a"})
    assert "**Cora**" in public(events, "council_result")[0].text
    assert t.state.outcome == "Coven" and t.state.winners == ["a", "b"]
    assert t.state.dead == ["c"]
    result = GAME.result(t.state)
    assert result.finished and {p.id: (p.role, p.team, p.alive) for p in result.players} == {
        "a": ("Guardian", "Coven", True), "b": ("Seer", "Coven", True), "c": ("Hollow Servant", "Corrupted", False)}


def test_parity_wins_for_the_corrupted():
    t = Table(["guardian", "seer", "hollow_servant"])
    t.elect("a")
    t.offer(TAINTED_3)
    t.burn({"b": "a", "c": "a", "a": "c"})
    assert t.state.outcome == "Corrupted" and t.state.winners == ["c"]
    assert "equal the loyal" in public(t.events, "game_over")[0].text


def test_burn_tie_and_spare_burn_no_one():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.elect("a")
    t.offer({**TAINTED_3, "d": "raven_feather"})
    events = t.burn({"a": "c", "b": "c", "c": "b", "d": "b"})
    assert public(events, "council_result")[0].data.get("tie") and t.state.dead == []
    assert t.state.phase == "choosing" and t.state.round == 2
    t.elect("a")
    t.offer({**TAINTED_3, "d": "raven_feather"})
    events = t.burn({"a": "none", "b": "none", "c": "b", "d": "b"})  # "no one" ties with b: no one burns
    assert t.state.dead == []
    t.elect("a")
    t.offer({**TAINTED_3, "d": "raven_feather"})
    events = t.burn({"a": "none", "b": "none", "c": "none", "d": "b"})
    assert "stays its hand" in public(events, "council_result")[0].text and t.state.dead == []


def test_council_timeout_counts_votes_cast():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.elect("a")
    t.offer({**TAINTED_3, "d": "raven_feather"})
    t.do(type="vote_burn", player="a", target="c")
    t.timeout()
    assert t.state.dead == ["c"] and t.state.outcome == "Coven"
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.elect("a")
    t.offer({**TAINTED_3, "d": "raven_feather"})
    events = t.timeout()
    assert "No voice" in public(events, "council_result")[0].text and t.state.round == 2


def test_burn_vote_errors_and_options():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"], allow_spare=False)
    t.elect("a")
    t.offer({**TAINTED_3, "d": "raven_feather"})
    for action, code in [
        ({"type": "vote_burn", "player": "a", "target": "none"}, "no_spare"),
        ({"type": "vote_burn", "player": "a", "target": "a"}, "self_burn"),
        ({"type": "vote_burn", "player": "a", "target": "zed"}, "unknown_target"),
        ({"type": "vote_performer", "player": "a", "target": "b"}, "wrong_phase"),
        ({"type": "offer", "player": "a", "ingredient": "mandrake_root"}, "wrong_phase"),
    ]:
        before = t.state.model_dump()
        with pytest.raises(IllegalAction) as err:
            GAME.apply(t.state, action, t.rng)
        assert err.value.code == code and err.value.message
        assert t.state.model_dump() == before
    assert "none" not in [c.value for c in GAME.prompts(t.state, "a")[0].fields[0].choices]


# ----------------------------------------------------------------- infection and the moon
def test_infection_spreads_and_the_purging_moon_rises():
    t = Table(["guardian", "seer", "hollow_servant"])
    for _ in range(3):
        events = t.round("a", TAINTED_3)
        assert "stain spreads" in public(events, "infection")[0].text
    assert t.state.infection == 3 and t.state.moon
    assert "Purging Moon rises" in public(events, "infection")[0].text
    t.elect("a")
    events = t.offer(TAINTED_3)  # the same offering, now with doubled Protection
    assert "Purging Moon" in public(events, "ritual_started")[0].text
    rec = all_records(t.state)[-1]
    assert rec["moon"] and rec["quality"] == "PURE" and rec["dominant"] == "protection"
    assert not t.state.moon  # one ritual only
    t.spare_all()
    assert "clean" in public(t.last_events, "infection")[0].text and t.state.infection == 3


def test_no_moon_without_enough_infection():
    t = Table(["guardian", "guardian", "deceiver"])
    t.round("a", PURE_PROTECTION)
    t.round("a", {"a": "silver_thread", "b": "silver_thread", "c": "fools_gold"})
    t.round("a", PURE_PROTECTION)
    assert t.state.round == 4 and not t.state.moon and t.state.infection == 0


def test_backfire_infects_twice_by_default():
    for per, expected in ((2, 2), (1, 1)):
        t = Table([*ROLES_5[:3], "seer", "hollow_servant", "hollow_servant"], rng=ScriptedRng(floats=[0.9]),
                  infection_per_backfire=per)
        t.elect("a")
        t.offer({**BACKFIRE_5, "f": "void_essence", "d": "eye_of_newt", "e": "blood_of_the_innocent"})
        assert t.state.infection == expected


# ----------------------------------------------------------------- three backfires, the draw
def test_three_backfires_win_for_the_corrupted():
    roles = ["seer", "seer", "seer", "guardian", "guardian", "chronicler", "hollow_servant", "hollow_servant",
             "harbinger"]
    full = {"a": "crystal_salt", "b": "crystal_salt", "c": "crystal_salt", "d": "silver_thread",
            "e": "silver_thread", "f": "raven_feather", "g": "blood_of_the_innocent", "h": "void_essence",
            "i": "serpent_scale"}
    t = Table(roles)
    for performer in ("a", "g", "b"):
        t.elect(performer)
        t.offer({p: ing for p, ing in full.items() if p in t.alive})
        assert all_records(t.state)[-1]["quality"] == "BACKFIRED"
    assert t.state.dead == ["a", "g", "b"]
    assert t.state.outcome == "Corrupted" and sorted(t.state.winners) == ["g", "h", "i"]
    assert "Three rituals have backfired" in public(t.events, "game_over")[0].text
    false = [v for rec in all_records(t.state) for v in rec["visions"]]
    assert len(false) == 3 and all(v["shown"] != v["true"] for v in false)  # backfired visions lie


DRAW_ROLES = ["chronicler", "chronicler", "chronicler", "seer", "harbinger", "hollow_servant"]


def test_the_draw_when_the_last_corrupted_dies_in_the_third_backfire():
    t = Table(DRAW_ROLES, rng=ScriptedRng(floats=[0.9]))
    t.elect("a")
    t.offer({"a": "ink_of_secrets", "b": "ink_of_secrets", "c": "ink_of_secrets", "d": "crystal_salt",
             "e": "candle_wax", "f": "shadow_ash"})  # 41, muted: TAINTED
    t.burn({p: "f" for p in "abcde"} | {"f": "a"})
    amplified = {"a": "raven_feather", "b": "raven_feather", "c": "raven_feather", "d": "eye_of_newt",
                 "e": "serpent_scale"}
    for performer in ("a", "b", "e"):
        t.elect(performer, rng=ScriptedRng(floats=[0.9]))
        t.offer({p: i for p, i in amplified.items() if p in t.alive}, rng=ScriptedRng(floats=[0.9]))
        assert all_records(t.state)[-1]["quality"] == "BACKFIRED"
        if performer == "b":  # after round three: Infection 1 + 2 + 2
            (spread,) = public(t.last_events, "infection")
            assert "Purging Moon rises" in spread.text and "grown hungry" in spread.text
            assert t.state.infection == 5 and not any(ch.isdigit() for ch in spread.text)
    assert t.state.dead == ["f", "a", "b", "e"]
    assert t.state.finished and t.state.outcome == "draw" and t.state.winners == []
    assert "draw" in public(t.events, "game_over")[0].text


def test_the_draw_when_both_sides_are_wiped_out():
    # A crafted endgame (parity normally ends the game before it can happen): Ava (Chronicler), Cora
    # (Hollow Servant) and the Revenant alive. Cora performs, the ritual backfires, and the spite
    # death takes Ava: neither side has a witch left.
    t = Table(["chronicler", "seer", "hollow_servant", "seer", "guardian", "harbinger", "revenant"],
              rng=ScriptedRng(floats=[0.0], choices=[0]))
    t.state.dead += ["b", "d", "e", "f"]
    t.state.deaths = 4
    t.elect("c")
    t.offer({"a": "raven_feather", "c": "blood_of_the_innocent", "g": "graveyard_soil"})  # 53
    assert t.state.dead[-2:] == ["c", "a"]
    assert t.state.outcome == "draw" and t.state.winners == []
    assert "fall together" in public(t.events, "game_over")[0].text


def test_ritual_death_of_the_last_corrupted_wins_for_the_coven():
    t = Table(DRAW_ROLES, rng=ScriptedRng(floats=[0.9]))
    t.elect("a")
    t.offer({"a": "ink_of_secrets", "b": "ink_of_secrets", "c": "ink_of_secrets", "d": "crystal_salt",
             "e": "candle_wax", "f": "shadow_ash"})
    t.burn({p: "f" for p in "abcde"} | {"f": "a"})
    t.elect("e")
    t.offer({"a": "raven_feather", "b": "raven_feather", "c": "raven_feather", "d": "eye_of_newt",
             "e": "serpent_scale"})
    assert t.state.outcome == "Coven" and t.state.dead == ["f", "e"]


def test_round_limit_is_a_draw():
    t = Table(["guardian", "seer", "hollow_servant"], max_rounds=5)
    for _ in range(5):
        t.round("b", TAINTED_3)
    assert t.state.finished and t.state.outcome == "draw" and t.state.round == 6
    assert "too many" in public(t.events, "game_over")[0].text


# ----------------------------------------------------------------- the Revenant
REV_ROLES = H.REV_ROLES
_haunt = H.haunt


def test_revenant_wins_alone_at_round_five_after_three_deaths():
    t = Table(REV_ROLES)
    _haunt(t, ["a", "e", "c"])
    assert t.state.deaths == 3 and not t.state.finished and t.state.round == 4
    _haunt(t, ["none"])
    assert t.state.finished and t.state.outcome == "Neutral" and t.state.winners == ["g"]
    assert "Revenant wins alone" in public(t.events, "game_over")[0].text


def test_revenant_needs_three_deaths():
    t = Table(REV_ROLES)
    _haunt(t, ["a", "e", "none", "none"])
    assert t.state.round == 5 and not t.state.finished
    _haunt(t, ["c"])
    assert t.state.outcome == "Neutral"  # checked again at every later round's end


def test_revenant_can_win_alongside():
    t = Table(REV_ROLES, revenant_ends_game=False)
    _haunt(t, ["a", "e", "c", "none"])
    assert not t.state.finished and t.state.revenant_won
    assert private_to(t.events, "g", "revenant_closure")
    _haunt(t, ["f"])
    assert t.state.outcome == "Coven" and sorted(t.state.winners) == ["a", "b", "c", "d", "g"]


# ----------------------------------------------------------------- moderators and errors
def test_end_game_reveals_everything_with_no_winner():
    t = Table(["guardian", "seer", "hollow_servant"])
    t.round("a", TAINTED_3)
    out = t.do(type="end_game", reason="pizza")
    assert t.state.finished and t.state.outcome == "ended" and t.state.winners == []
    over = public(out.events, "game_over")[0]
    assert "pizza" in over.text and "Hollow Servant" in over.text
    recap = public(out.events, "recap")[0].text
    assert "Ava offered 🌱 Mandrake Root (-15)" in recap and "corruption 7%" in recap
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, {"type": "vote_performer", "player": "a", "target": "b"}, t.rng)
    assert err.value.code == "game_over"


def test_remove_player_leaves_as_if_dead_and_closes_the_phase():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.elect("a")
    t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash"})
    out = t.do(type="remove_player", target="d")
    assert "Finn" not in out.events[0].text and "left the circle" in out.events[0].text
    assert "Chronicler" not in json.dumps([e.model_dump() for e in out.events])
    assert t.state.phase == "council" and t.state.removed == ["d"] and t.state.deaths == 0
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, {"type": "vote_burn", "player": "d", "target": "a"}, t.rng)
    assert err.value.code == "dead_player"
    with pytest.raises(IllegalAction):
        GAME.apply(t.state, {"type": "remove_player", "target": "d"}, t.rng)
    t.do(type="remove_player", target="c")
    assert t.state.outcome == "Coven"


def test_remove_player_drops_votes_for_them():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler"])
    t.do(type="vote_performer", player="a", target="d")
    t.do(type="vote_performer", player="b", target="d")
    t.do(type="vote_performer", player="c", target="a")
    t.do(type="remove_player", target="d")
    assert t.state.phase == "choosing" and t.state.votes == {"c": "a"}


def test_removing_the_coven_to_parity_ends_the_game():
    t = Table(["guardian", "seer", "hollow_servant"])
    t.do(type="remove_player", target="Ava")
    assert t.state.outcome == "Corrupted"


@pytest.mark.parametrize("action, code", [
    ({"type": "vote_performer", "player": "zed", "target": "a"}, "not_a_player"),
    ({"type": "vote_performer", "player": "a"}, "malformed_action"),
    ({"type": "vote_performer", "player": "a", "target": "a", "extra": 1}, "malformed_action"),
    ({"type": "dance", "player": "a"}, "malformed_action"),
    ({"type": "vote_performer", "target": "a"}, "no_player"),
    ({"type": "vote_performer", "player": "a", "target": "zed"}, "unknown_target"),
    ({"type": "offer", "player": "a", "ingredient": "mandrake_root"}, "wrong_phase"),
    ({"type": "vote_burn", "player": "a", "target": "b"}, "wrong_phase"),
    ({"type": "vote_performer", "player": "a", "target": "b", "phase_seq": 0}, "stale_phase"),
    ({"type": "phase_timeout", "phase_seq": 99}, "stale_phase"),
])
def test_illegal_actions_change_nothing(action, code):
    t = Table(["guardian", "seer", "hollow_servant"])
    before = t.state.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, action, t.rng)
    assert err.value.code == code and err.value.message
    assert t.state.model_dump_json() == before


def test_dead_cannot_be_voted_for():
    t = Table([*ROLES_5[:3], "seer", "hollow_servant", "hollow_servant"], rng=ScriptedRng(floats=[0.9]))
    t.elect("a")
    t.offer({**BACKFIRE_5, "f": "void_essence", "d": "eye_of_newt", "e": "blood_of_the_innocent"})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, {"type": "vote_performer", "player": "b", "target": "a"}, t.rng)
    assert err.value.code == "target_dead"
    assert "a" not in [c.value for c in GAME.prompts(t.state, "b")[0].fields[0].choices]


def test_phase_seconds_follow_the_options():
    t = Table(["guardian", "seer", "hollow_servant"], choosing_seconds=30, offering_seconds=20,
              council_seconds=60)
    assert GAME.phase_seconds(t.state) == 30
    t.elect("a")
    assert GAME.phase_seconds(t.state) == 20
    t.offer(TAINTED_3)
    assert GAME.phase_seconds(t.state) == 60
    t.do(type="end_game")
    assert GAME.phase_seconds(t.state) is None
    defaults = Table(["guardian", "seer", "hollow_servant"])
    assert GAME.phase_seconds(defaults.state) == 90


def test_rules_summary_is_short():
    text = GAME.rules_summary()
    assert 200 < len(text) < 1800 and "Performer" in text


def test_players_are_players():
    with pytest.raises(IllegalAction):
        Table(["guardian", "seer", "hollow_servant"]).state.player("zed")
    assert Player(id="a", name="Ava") in Table(["guardian", "seer", "hollow_servant"]).state.players


def test_the_wards_break_a_backfire_on_the_tv():
    t = Table(["guardian", "guardian", "hollow_servant", "harbinger", "chronicler", "seer"])
    t.state.moon = True
    t.elect("e")
    events = t.offer({"a": "silver_thread", "b": "silver_thread", "c": "blood_of_the_innocent",
                      "d": "serpent_scale", "e": "raven_feather", "f": "eye_of_newt"})
    # Protection 4 under the moon, weight -32 + 30 + 15 + 5 + 2 = 20: TAINTED, amplified to BACKFIRED,
    # and the wards turn it back to TAINTED
    rec = all_records(t.state)[-1]
    assert rec["dominant"] == "protection" and rec["base"] == "TAINTED" and rec["warded"]
    assert rec["quality"] == "TAINTED" and t.state.dead == [] and t.state.backfired == 0
    outcome = public(events, "ritual_outcome")[0].text
    assert "wards" in outcome and "TAINTED" in outcome
    assert t.state.phase == "council" and t.state.warded == ""  # no ward against the Council


def test_an_empty_chair_when_the_performer_left():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler", "seer"])
    t.elect("a")
    t.do(type="remove_player", target="a")
    events = t.offer({"b": "eye_of_newt", "c": "blood_of_the_innocent", "d": "raven_feather", "e": "eye_of_newt"})
    assert "stands empty" in public(events, "ritual_started")[0].text
