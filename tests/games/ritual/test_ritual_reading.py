"""How a ritual reads: dominant domain and its tie order, thresholds, amplification, suppression,
the wards, the Purging Moon."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.ritual import records
from games.ritual import ritual as rit
from games.ritual.data import load

D = load()


def read(*ings, **kw):
    return rit.read(D, list(ings), **kw)


@pytest.mark.parametrize("total, quality", [
    (-40, "PURE"), (19, "PURE"), (20, "TAINTED"), (50, "TAINTED"), (51, "BACKFIRED"), (90, "BACKFIRED"),
])
def test_thresholds(total, quality):
    assert rit.quality_of(total) == quality


def test_corruption_is_the_sum_of_hidden_weights():
    r = read("mandrake_root", "crystal_salt", "shadow_ash", "fools_gold")
    assert r.corruption == -15 + 0 + 22 + 9


@pytest.mark.parametrize("ings, dominant", [
    (["blood_of_the_innocent", "mirror_glass"], "corruption"),
    (["mirror_glass", "crystal_salt"], "misdirection"),
    (["crystal_salt", "mandrake_root"], "divination"),
    (["mandrake_root", "candle_wax"], "protection"),
    (["candle_wax", "bone_dust"], "amplification"),
    (["bone_dust"], "suppression"),
    (["candle_wax", "crystal_salt", "crystal_salt"], "divination"),  # most ingredients first
    (["shadow_ash", "mandrake_root", "silver_thread"], "protection"),
    (["mirror_glass", "crystal_salt", "mandrake_root", "candle_wax", "bone_dust", "void_essence"], "corruption"),
])
def test_dominant_domain_and_tie_order(ings, dominant):
    assert read(*ings).dominant == dominant


def test_corruption_dominant_is_never_pure():
    r = read("shadow_ash", "mandrake_root", "crystal_salt")  # 7: pure by number
    assert r.base_quality == "PURE" and r.dominant == "corruption" and r.quality == "TAINTED"


def test_amplification_turns_tainted_into_backfired():
    plain = read("crystal_salt", "crystal_salt", "void_essence")  # 28
    assert plain.quality == "TAINTED" and plain.intensity == "normal"
    amped = read("crystal_salt", "crystal_salt", "void_essence", "candle_wax")  # 38, divination dominant
    assert amped.base_quality == "TAINTED" and amped.quality == "BACKFIRED" and amped.intensity == "vivid"


def test_amplification_keeps_pure_pure_but_vivid():
    r = read("crystal_salt", "crystal_salt", "candle_wax")  # 10
    assert r.quality == "PURE" and r.intensity == "vivid"


def test_split_amplification_pushes_to_either_extreme():
    low = rit.read(D, ["crystal_salt", "crystal_salt", "shadow_ash", "candle_wax"], amplify_tainted="split")  # 32
    assert low.base_quality == "TAINTED" and low.quality == "PURE"
    high = rit.read(D, ["crystal_salt", "crystal_salt", "shadow_ash", "serpent_scale"], amplify_tainted="split")  # 37
    assert high.quality == "BACKFIRED"
    corrupt = rit.read(D, ["shadow_ash", "shadow_ash", "mandrake_root", "tears_of_the_moon", "candle_wax"],
                       amplify_tainted="split")
    assert corrupt.dominant == "corruption" and corrupt.corruption == 29
    assert corrupt.quality == "BACKFIRED"  # below the split point, but Corruption is never PURE


def test_suppression_stops_a_backfire_and_mutes_pure():
    r = read("blood_of_the_innocent", "void_essence", "bone_dust")  # 66
    assert r.base_quality == "BACKFIRED" and r.quality == "TAINTED" and r.intensity == "muted"
    p = read("crystal_salt", "crystal_salt", "ink_of_secrets")
    assert p.quality == "PURE" and p.intensity == "muted"


def test_amplification_and_suppression_cancel_one_for_one():
    both = read("crystal_salt", "crystal_salt", "void_essence", "candle_wax", "ink_of_secrets")  # 41
    assert both.intensity == "balanced" and both.quality == "TAINTED"
    back = read("blood_of_the_innocent", "void_essence", "candle_wax", "bone_dust")  # 76
    assert back.intensity == "balanced" and back.quality == "BACKFIRED"
    more_amp = read("crystal_salt", "void_essence", "candle_wax", "serpent_scale", "ink_of_secrets")
    assert more_amp.intensity == "vivid" and more_amp.quality == "BACKFIRED"
    more_sup = read("blood_of_the_innocent", "void_essence", "candle_wax", "bone_dust", "iron_thorn")
    assert more_sup.intensity == "muted" and more_sup.quality == "TAINTED"


def test_protection_dominant_wards_off_a_backfire():
    r = read("silver_thread", "silver_thread", "silver_thread", "blood_of_the_innocent", "void_essence",
             "serpent_scale", "iron_thorn", "fools_gold", "raven_feather")  # 75, protection 3 > corruption 2
    assert r.dominant == "protection" and r.base_quality == "BACKFIRED"
    assert r.quality == "TAINTED" and r.warded


def test_purging_moon_doubles_protection():
    ings = ["mandrake_root", "shadow_ash", "crystal_salt"]
    plain, moon = read(*ings), read(*ings, moon=True)
    assert plain.dominant == "corruption" and plain.quality == "TAINTED"
    assert moon.counts["protection"] == 2 and moon.corruption == -30 + 22 + 0
    assert moon.dominant == "protection" and moon.quality == "PURE"


def test_an_empty_cauldron_is_tainted_with_no_domain():
    r = read()
    assert r.quality == "TAINTED" and r.dominant == ""


ID = st.text(min_size=1, max_size=12)


@given(performer=ID, others=st.lists(ID, max_size=9, unique=True), corruption=st.integers(-200, 300),
       moon=st.booleans(), warded=st.booleans())
def test_ritual_records_round_trip_any_player_id(performer, others, corruption, moon, warded):
    rec = {
        "round": 3, "performer": performer,
        "offerings": {p: "mandrake_root" for p in [performer, *others]}, "idle": others[:2],
        "corruption": corruption, "dominant": "divination", "base": "TAINTED", "quality": "BACKFIRED",
        "intensity": "vivid", "moon": moon, "warded": warded, "deaths": [performer], "spite": others[0] if others else "",
        "visions": [{"targets": others[:2], "shown": "light", "true": "shadow"},
                    {"targets": [], "shown": "", "true": ""}],
        "burned": others[-1] if others else "",
    }
    text = records.encode(rec)
    assert records.decode(text) == rec
    assert '"' not in text  # nothing to escape when the state goes to JSON
