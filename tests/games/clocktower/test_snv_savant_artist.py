"""The Savant and the Artist, ruled as the Storytellers' judgement: named to them each dawn with what the
grimoire says of it (impairment, the Vortox), and what they answer recorded. Each test is named after the
rule point the official wiki settles (the readings are in the README's Interpretations)."""

from support.clocktower_pure import GAME, act, timeout

from games.clocktower.rules import ruled

SNV = {"script": "Sects & Violets"}
# the Fang Gu in seat 1 (no poison of its own), the Savant in seat 2, the Artist in seat 3
TABLE = ["fanggu", "savant", "artist", "oracle", "dreamer", "clockmaker", "witch"]


def dawn(state):
    """The outcome of the next dawn (bounded)."""
    for _ in range(12):
        out = timeout(state)
        state = out.state
        if state.phase == "day":
            return out
    raise AssertionError("never dawned")


def judged(out):
    found = [e for e in out.events if e.type == "judged_today"]
    assert all(e.audience.kind == "storyteller" for e in found)
    return found[0].text if found else ""


def begun(characters=TABLE):
    from support.clocktower_pure import new_game
    return act(new_game(SNV, characters), type="begin").state


def test_the_savant_and_the_artist_are_ruled_on_sects_and_violets():
    state = begun()
    assert ruled(state, "savant") and ruled(state, "artist")


def test_each_day_the_savant_is_named_with_one_true_and_one_false_as_the_storytellers_judgement():
    text = judged(dawn(begun()))
    assert "Name2 (seat 2), the Savant, may visit you today: tell them 2 things, 1 true & 1 false" in text
    assert "your judgement; the words are recorded" in text
    assert "Drunk or poisoned" not in text and "Vortox" not in text


def test_a_drunk_or_poisoned_savant_may_be_told_anything():
    state = act(begun(), type="add_reminder", target="p2", token="Drunk", source="").state
    assert "the Savant, may visit you today: tell them 2 things, 1 true & 1 false" in (text := judged(dawn(state)))
    assert "Drunk or poisoned (drunk: your own token): any answer." in text


def test_under_the_vortox_the_savants_two_things_are_both_false_even_when_drunk():
    # the wiki (the Vortox): Townsfolk information is false; the Savant learns two false things
    state = begun(["vortox", *TABLE[1:]])
    assert "Under the Vortox (Name1 (seat 1)) both must be false." in judged(dawn(state))
    drunk = act(state, type="add_reminder", target="p2", token="Drunk", source="").state
    assert "Under the Vortox (Name1 (seat 1)) it must be false all the same." in judged(dawn(drunk))


def test_a_dead_savant_or_artist_has_no_ability_and_is_not_named():
    state = act(act(begun(), type="kill", target="p2").state, type="kill", target="p3").state
    text = judged(dawn(state))
    assert "Savant" not in text and "Artist" not in text


def test_the_artists_question_once_per_game_is_answered_and_recorded_privately():
    day = dawn(begun()).state
    out = act(day, type="tell", target="p3", text="I don't know.")
    sent = [e for e in out.events if e.type == "storyteller_info"]
    assert [(e.audience.kind, e.audience.id) for e in sent] == [("player", "p3")]
    rows = [e for e in out.events if e.audience.kind == "record" and e.type == "judged"]
    assert [(r.data["card"], r.data["text"], r.data["day"]) for r in rows] == [("artist", "I don't know.", 1)]
    spent = act(out.state, type="add_reminder", target="p3", token="No Ability", source="artist").state
    assert "Artist" not in judged(dawn(timeout_to_night(spent)))
    ended = act(out.state, type="declare_winner", team="good", reason="").state
    recap = [e for e in GAME.recap(ended, rows) if e.type == "judged_recap"]
    assert "day 1, Name3, as the Artist: I don't know." in recap[0].text


def timeout_to_night(state):
    for _ in range(12):
        if state.phase == "night":
            return state
        state = timeout(state).state
    raise AssertionError("never reached the night")
