"""The Ritual: the interpretations and options not covered phase by phase in test_ritual_flow.py."""

import json
import random

import pytest
import support.ritual_helpers as H

from games.engine import IllegalAction, PhaseTimeout, Player, ScriptedRng
from games.engine.run import start, step
from games.ritual import ritual as rit
from games.ritual.circle import team
from games.ritual.data import load
from games.ritual.ending import all_records

GAME = H.GAME
Table = H.Table
public = H.public
private_to = H.private_to
D = load()


def read(*ings, **kw):
    return rit.read(D, list(ings), **kw)


# ----------------------------------------------------------------- Amplification and Suppression together
def test_in_order_lets_any_suppression_dampen_after_amplification():
    # 20: TAINTED; Divination 2 = Amplification 2, Divination first; two surges against one hush
    ings = ["crystal_salt", "crystal_salt", "ink_of_secrets", "silver_thread", "candle_wax", "serpent_scale"]
    net, ordered = read(*ings), read(*ings, amp_and_sup="in_order")
    assert (net.quality, net.intensity) == ("BACKFIRED", "vivid")
    assert (ordered.quality, ordered.intensity) == ("TAINTED", "balanced")
    # 76: BACKFIRED with one of each; net: they cancel and it kills; in order: the hush saves
    back = ["blood_of_the_innocent", "void_essence", "candle_wax", "bone_dust"]
    assert read(*back).quality == "BACKFIRED"
    assert read(*back, amp_and_sup="in_order").quality == "TAINTED"
    # 13: PURE stays PURE, with plain clues
    pure = read("crystal_salt", "crystal_salt", "crystal_salt", "candle_wax", "ink_of_secrets", amp_and_sup="in_order")
    assert (pure.quality, pure.intensity) == ("PURE", "balanced")
    # 30 with split: amplified to PURE first, and the hush does not touch PURE
    split = read("moonstone_dust", "crystal_salt", "shadow_ash", "candle_wax", "ink_of_secrets",
                 amp_and_sup="in_order", amplify_tainted="split")
    assert split.corruption == 30 and split.quality == "PURE"


@pytest.mark.parametrize("ings", [
    ["crystal_salt", "crystal_salt", "void_essence", "candle_wax"],
    ["blood_of_the_innocent", "void_essence", "bone_dust"],
    ["crystal_salt", "crystal_salt", "ink_of_secrets"],
])
def test_in_order_is_the_same_when_only_one_side_is_present(ings):
    a, b = read(*ings), read(*ings, amp_and_sup="in_order")
    assert (a.quality, a.intensity) == (b.quality, b.intensity) and a.intensity in ("vivid", "muted")


AMP_VS_SUP_ROLES = ["seer", "seer", "chronicler", "guardian", "harbinger", "harbinger"]
AMP_VS_SUP = {"a": "crystal_salt", "b": "crystal_salt", "c": "ink_of_secrets", "d": "silver_thread",
              "e": "candle_wax", "f": "serpent_scale"}


def test_amp_and_sup_option_decides_the_performers_fate():
    net = Table(AMP_VS_SUP_ROLES, rng=ScriptedRng(choices=[0]))
    net.elect("a")
    net.offer(AMP_VS_SUP)
    assert net.state.dead == ["a"] and net.state.backfired == 1
    ordered = Table(AMP_VS_SUP_ROLES, rng=ScriptedRng(choices=[0]), amp_and_sup="in_order")
    ordered.elect("a")
    events = ordered.offer(AMP_VS_SUP)
    assert ordered.state.dead == [] and ordered.state.phase == "council"
    assert "cancel each other" in public(events, "cauldron_reaction")[0].text
    assert "uncertain" in public(events, "vision")[0].text  # a TAINTED vision


def test_split_option_through_the_game():
    roles = ["seer", "seer", "guardian", "hollow_servant", "harbinger"]
    offers = {"a": "crystal_salt", "b": "crystal_salt", "c": "silver_thread", "d": "shadow_ash",
              "e": "candle_wax"}  # 24: TAINTED, Divination dominant, amplified
    backfire = Table(roles)
    backfire.elect("a")
    backfire.offer(offers)
    assert backfire.state.dead == ["a"]
    split = Table(roles, rng=ScriptedRng(choices=[0, 0]), amplify_tainted="split")
    split.elect("a")
    events = split.offer(offers)
    assert split.state.dead == [] and split.state.pure == 1
    assert len(public(events, "vision")) == 2  # a vivid PURE Divination


def test_muted_pure_protection_does_not_ward():
    roles = ["guardian", "guardian", "chronicler", "deceiver"]
    t = Table(roles)
    t.elect("a")
    t.offer({"a": "mandrake_root", "b": "tears_of_the_moon", "c": "ink_of_secrets", "d": "mirror_glass"})
    rec = all_records(t.state)[-1]
    assert (rec["quality"], rec["dominant"], rec["intensity"]) == ("PURE", "protection", "muted")
    assert t.state.warded == "" and "shield" not in public(t.events, "council_opened")[-1].text
    t.do(type="vote_burn", player="d", target="a")  # allowed: no ward
    plain = Table(roles)
    plain.elect("a")
    plain.offer({"a": "mandrake_root", "b": "tears_of_the_moon", "c": "raven_feather", "d": "mirror_glass"})
    assert plain.state.warded == "a"


# ----------------------------------------------------------------- deaths and the Council
def test_a_misdirection_backfire_on_another_witch_skips_the_council():
    roles = ["seer", "guardian", "chronicler", "guardian", "deceiver", "deceiver", "harbinger"]
    offers = {"a": "eye_of_newt", "b": "silver_thread", "c": "raven_feather", "d": "tears_of_the_moon",
              "e": "fools_gold", "f": "fools_gold", "g": "serpent_scale"}
    t = Table(roles, rng=ScriptedRng(floats=[0.9], choices=[4]))
    t.elect("a")
    events = t.offer(offers)
    assert t.state.dead == ["e"]  # the darkness strikes a Deceiver
    assert t.state.is_alive("a")  # the Performer survived...
    assert public(events, "council_opened") == [] and t.state.phase == "choosing"  # ...but no Council
    assert t.state.round == 2


def test_spite_is_even_odds_for_corruption_too_once_the_hollow_hungers():
    roles = ["seer", "guardian", "chronicler", "hollow_servant", "hollow_servant"]
    offers = {"a": "crystal_salt", "b": "silver_thread", "c": "raven_feather", "d": "blood_of_the_innocent",
              "e": "void_essence"}  # 55, Corruption 2 = Divination 2: Corruption dominant
    early = Table(roles, rng=ScriptedRng(floats=[0.4], choices=[0]))
    early.elect("a")
    early.offer(offers)
    assert early.state.dead == ["a"]  # 25%: 0.4 misses
    late = Table(roles, rng=ScriptedRng(floats=[0.4], choices=[0]))
    late.state.round, late.state.infection = 4, 5
    late.elect("a")
    events = late.offer(offers)
    assert late.state.dead == ["a", "b"] and public(events, "death")[1].data["cause"] == "spite"


def test_a_backfire_in_an_empty_chair_kills_no_one_and_the_council_sits():
    t = Table(["seer", "guardian", "chronicler", "hollow_servant", "hollow_servant", "seer"],
              rng=ScriptedRng(floats=[0.9]))
    t.elect("a")
    t.do(type="remove_player", target="a")
    events = t.offer({"b": "silver_thread", "c": "raven_feather", "d": "blood_of_the_innocent",
                      "e": "void_essence", "f": "eye_of_newt"})  # 57, Corruption dominant
    assert all_records(t.state)[-1]["quality"] == "BACKFIRED" and t.state.backfired == 1
    assert t.state.dead == [] and public(events, "no_death")
    council = public(events, "council_opened")[0].text
    assert t.state.phase == "council" and "Performer survived" not in council


def test_no_burn_after_a_tie_between_two_witches_even_with_a_spare_vote_behind():
    t = Table(["guardian", "seer", "hollow_servant", "chronicler", "seer"])
    t.elect("a")
    t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash", "d": "raven_feather", "e": "eye_of_newt"})
    events = t.burn({"a": "c", "b": "c", "c": "b", "d": "b", "e": "none"})
    assert public(events, "council_result")[0].data == {"burned": "", "tie": True} and t.state.dead == []


# ----------------------------------------------------------------- winning
def test_parity_ignores_the_revenant():
    t = Table(["chronicler", "seer", "hollow_servant", "seer", "guardian", "harbinger", "revenant"])
    t.state.dead.append("b")
    t.state.deaths = 1
    t.elect("a")
    t.offer({"a": "raven_feather", "c": "shadow_ash", "d": "crystal_salt", "e": "silver_thread",
             "f": "iron_thorn", "g": "phantom_tears"})  # 25: TAINTED, no death
    assert t.state.phase == "council"
    t.burn({"a": "d", "c": "d", "e": "d", "f": "d", "g": "d", "d": "c"})
    # two Coven (a, e) and the Revenant against two Corrupted: the Revenant is not loyal
    assert t.state.outcome == "Corrupted" and sorted(t.state.winners) == ["c", "f"]


REV_ROLES = H.REV_ROLES
_haunt = H.haunt


def test_a_team_win_in_the_round_comes_before_the_revenant():
    t = Table(REV_ROLES)
    _haunt(t, ["a", "none", "none", "none", "e"])
    assert t.state.round == 6 and t.state.deaths == 2 and not t.state.finished
    _haunt(t, ["f"])  # the third death burns the last Corrupted: the Coven win at once
    assert t.state.outcome == "Coven" and "g" not in t.state.winners and not t.state.revenant_won


def test_a_dead_revenant_never_wins():
    t = Table(REV_ROLES)
    _haunt(t, ["g", "a", "none", "none", "none"])
    assert t.state.deaths == 2 and t.state.round == 6
    _haunt(t, ["e"])
    assert t.state.deaths == 3 and t.state.round == 7 and not t.state.finished  # no Revenant alive to win


# ----------------------------------------------------------------- Infection and the Purging Moon
def test_the_purging_moon_is_only_checked_at_the_end_of_round_three():
    t = Table(["guardian", "seer", "seer", "hollow_servant"])
    pure = {"a": "mandrake_root", "b": "crystal_salt", "c": "crystal_salt", "d": "shadow_ash"}  # 7
    tainted = {"a": "silver_thread", "b": "eye_of_newt", "c": "eye_of_newt", "d": "blood_of_the_innocent"}  # 26
    t.round("a", pure)
    t.round("a", tainted)
    t.round("a", tainted)
    assert t.state.infection == 2 and not t.state.moon
    events = t.round("a", tainted)
    assert t.state.infection == 3 and not t.state.moon and not t.state.moon_risen
    assert "Purging Moon" not in public(events, "infection")[0].text


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("phase, action, code", [
    ("choosing", {"type": "vote_burn", "player": "a", "target": "b"}, "wrong_phase"),
    ("choosing", {"type": "offer", "player": "a", "ingredient": "mandrake_root"}, "wrong_phase"),
    ("offering", {"type": "vote_performer", "player": "a", "target": "b"}, "wrong_phase"),
    ("offering", {"type": "vote_burn", "player": "a", "target": "b"}, "wrong_phase"),
    ("offering", {"type": "offer", "player": "a", "ingredient": "no such thing"}, "not_your_ingredient"),
    ("offering", {"type": "offer", "player": "e", "ingredient": "mandrake_root"}, "dead_player"),
    ("council", {"type": "vote_burn", "player": "e", "target": "b"}, "dead_player"),
    ("council", {"type": "vote_burn", "player": "a", "target": "e"}, "target_dead"),
    ("council", {"type": "vote_performer", "player": "a", "target": "b"}, "wrong_phase"),
    ("council", {"type": "remove_player", "target": "e"}, "target_dead"),
    ("council", {"type": "remove_player", "target": "nobody here"}, "unknown_target"),
    ("council", {"type": "phase_timeout", "phase_seq": 1}, "stale_phase"),
])
def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(phase, action, code):
    t = Table(["guardian", "seer", "hollow_servant", "chronicler", "seer", "chronicler"])
    t.state.dead.append("e")
    t.state.deaths = 1
    if phase != "choosing":
        t.elect("a")
    if phase == "council":
        t.offer({"a": "mandrake_root", "b": "crystal_salt", "c": "shadow_ash", "d": "raven_feather",
                 "f": "raven_feather"})
        assert t.state.phase == "council"
    before = t.state.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, action, t.rng)
    assert err.value.code == code
    assert err.value.message[0].isupper() and err.value.message.rstrip().endswith((".", "!", "?"))
    assert t.state.model_dump_json() == before


# ----------------------------------------------------------------- secrets in private messages
def _games(n, seeds, options):
    for seed in seeds:
        chooser = random.Random(seed)
        players = [Player(id=f"p{i}", name=f"Witch{chr(64 + i)}") for i in range(1, n + 1)]
        out = start(GAME, players, options, seed)
        state = out.state
        yield out.events, state
        while not state.finished:
            legal = GAME.legal_actions(state)
            action = PhaseTimeout(phase_seq=state.phase_seq) if not legal or chooser.random() < 0.1 \
                else chooser.choice(legal)
            out = step(GAME, state, action, seed)
            yield out.events, out.state
            state = out.state


@pytest.mark.parametrize("know", [True, False])
def test_private_messages_hold_no_one_elses_secret(know):
    names = {iid: ing.name for iid, ing in D.ingredients.items()}
    seen = 0
    for events, state in _games(8, range(10), {"revenant": True, "corrupted_know_each_other": know}):
        for e in events:
            if e.type == "game_over":
                break
            if e.audience.kind != "player":
                continue
            me = e.audience.id
            blob = e.text + json.dumps(e.data)
            mine = team(state, me)
            others = [p for p in state.players if p.id != me]
            if mine != "corrupted" or not know:
                for p in others:  # no other witch is named, with or without a role
                    assert p.name not in blob, (e.type, blob)
            if mine != "corrupted":
                assert e.type != "hollow_whisper"
                pool = set(D.roles[state.roles[me]].pool)
                for iid, name in names.items():
                    if iid not in pool:
                        assert name not in e.text and f'"{iid}"' not in blob, (e.type, e.text)
            else:
                for p in others:  # a Corrupted witch learns only about the Corrupted
                    if team(state, p.id) != "corrupted":
                        assert p.name not in blob and f'"{p.id}"' not in blob, (e.type, e.text)
            seen += 1
    assert seen > 50
