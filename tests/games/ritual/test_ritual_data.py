"""The Ritual's data files: every entry loads and matches the rulebook; bad data is refused."""

import json

import pytest

from games.engine import DataError
from games.ritual import data as rd

RULEBOOK_WEIGHTS = {
    "mandrake_root": (-15, "protection"), "tears_of_the_moon": (-10, "protection"),
    "silver_thread": (-8, "protection"), "eye_of_newt": (2, "divination"), "crystal_salt": (0, "divination"),
    "moonstone_dust": (-5, "divination"), "raven_feather": (5, "divination"), "bone_dust": (8, "suppression"),
    "iron_thorn": (12, "suppression"), "candle_wax": (10, "amplification"),
    "serpent_scale": (15, "amplification"), "mirror_glass": (7, "misdirection"),
    "fools_gold": (9, "misdirection"), "whispering_moss": (6, "misdirection"),
    "blood_of_the_innocent": (30, "corruption"), "shadow_ash": (22, "corruption"),
    "void_essence": (28, "corruption"),
}
#: our readings of what the rulebook leaves out (README, Interpretations)
OURS = {"ink_of_secrets": (3, "suppression"), "graveyard_soil": (18, "corruption"),
        "phantom_tears": (-6, "protection"), "ectoplasm": (10, "misdirection")}
POOLS = {
    "guardian": ["mandrake_root", "tears_of_the_moon", "silver_thread"],
    "seer": ["eye_of_newt", "crystal_salt", "moonstone_dust"],
    "chronicler": ["raven_feather", "bone_dust", "ink_of_secrets"],
    "hollow_servant": ["blood_of_the_innocent", "shadow_ash", "void_essence"],
    "harbinger": ["iron_thorn", "candle_wax", "serpent_scale"],
    "deceiver": ["mirror_glass", "fools_gold", "whispering_moss"],
    "revenant": ["graveyard_soil", "phantom_tears", "ectoplasm"],
}
TEAMS = {"guardian": "coven", "seer": "coven", "chronicler": "coven", "hollow_servant": "corrupted",
         "harbinger": "corrupted", "deceiver": "corrupted", "revenant": "neutral"}


def raw(name):
    return json.loads((rd.DATA / name).read_text(encoding="utf-8"))


def test_every_ingredient_has_the_rulebook_weight_and_domain():
    data = rd.load()
    assert set(data.ingredients) == set(RULEBOOK_WEIGHTS) | set(OURS)
    for iid, (weight, domain) in {**RULEBOOK_WEIGHTS, **OURS}.items():
        ing = data.ingredients[iid]
        assert (ing.weight, ing.domain) == (weight, domain), iid
        assert ing.name and ing.icon and 0 < len(ing.flavour) <= 100
        assert str(ing.weight) not in ing.flavour and "%" not in ing.flavour


def test_every_role_has_its_pool_and_team():
    data = rd.load()
    assert {r: list(role.pool) for r, role in data.roles.items()} == POOLS
    assert {r: role.team for r, role in data.roles.items()} == TEAMS
    for role in data.roles.values():
        assert role.description and role.name and role.icon


def test_narration_covers_every_domain_and_quality():
    nar = rd.load().narration
    for domain in rd.DOMAIN_ORDER:
        for q in rd.QUALITIES:
            lines = getattr(nar.outcome[domain], q)
            assert lines
            for line in lines:
                assert "%" not in line and not any(ch.isdigit() for ch in line)
                line.format(performer="X")  # every placeholder is known


@pytest.mark.parametrize("breakage", [
    lambda c, r, n: c["ingredients"][0].update(domain="necromancy"),
    lambda c, r, n: c["ingredients"][0].update(weight="lots"),
    lambda c, r, n: c["ingredients"].append(dict(c["ingredients"][0])),
    lambda c, r, n: c["domains"].pop(),
    lambda c, r, n: r["roles"][0].update(pool=["mandrake_root", "nothing", "silver_thread"]),
    lambda c, r, n: r["roles"][0].update(pool=["mandrake_root"]),
    lambda c, r, n: r["roles"][0].update(team="pirates"),
    lambda c, r, n: n["outcome"].pop("divination"),
    lambda c, r, n: n["outcome"]["divination"].update(PURE=[]),
    lambda c, r, n: n["vision"].pop("light"),
    lambda c, r, n: n.update(extra="?"),
])
def test_bad_data_raises_data_error(breakage):
    c, r, n = raw("ingredients.json"), raw("roles.json"), raw("narration.json")
    rd.build(c, r, n)  # the untouched data is good
    breakage(c, r, n)
    with pytest.raises(DataError):
        rd.build(c, r, n)
