"""Every reminder token and piece of state Bad Moon Rising and Sects & Violets set, on each surface that
carries it (issue 40, item 4): the Storytellers' grimoire (text and picture) and night sheet, `/game
script` (each character's tokens, from the official records) and the end reveal (every token where it
ended, and every character change of the game in order), and nowhere a player may read before the
reveal. Pure, on forced deals of the official scripts."""

import io

import pytest
from PIL import Image
from support.clocktower_pure import (
    GAME,
    act,
    choose,
    lock,
    new_game,
    next_night,
    through_night,
    timeout,
    to_day,
)

from games.clocktower.info import grimoire_picture, grimoire_text
from games.clocktower.night import night_sheet
from games.clocktower.reveal import change_records, seats_now, tokens_now
from games.clocktower.script_text import sheet_of_state

BMR = {"script": "Bad Moon Rising"}
SNV = {"script": "Sects & Violets"}
BMR_TABLE = ["zombuul", "grandmother", "professor", "chambermaid", "goon", "godfather", "tealady", "sailor"]
# the Fang Gu in seat 1, the Mutant in seat 5 (the Fang Gu's jump), the Philosopher in seat 8
SNV_TABLE = ["fanggu", "cerenovus", "clockmaker", "dreamer", "mutant", "seamstress", "eviltwin", "philosopher"]
TABLES = {"Bad Moon Rising": (BMR, BMR_TABLE), "Sects & Violets": (SNV, SNV_TABLE)}


class Log:
    """A game played step by step, keeping every event (the record's rows among them)."""

    def __init__(self, state):
        self.state = state
        self.events = []

    def do(self, **action):
        out = act(self.state, **action)
        self.events += out.events
        self.state = out.state
        return out

    def tick(self):
        out = timeout(self.state)
        self.events += out.events
        self.state = out.state
        return out

    def to_phase(self, phase):
        while self.state.phase != phase:
            self.tick()

    @property
    def records(self):
        return [e for e in self.events if e.audience.kind == "record"]

    def seen_by(self, player):
        """Every word a player could read: the town square, the threads, their own messages."""
        return " ".join(f"{e.title} {e.text}" for e in self.events
                        if e.audience.kind in ("public", "thread") or (e.audience.kind == "player"
                                                                       and e.audience.id == player))


#: the set-up tokens a forced deal leaves to the Storytellers: the grandchild, the good twin
SETUP_TOKENS = {"Bad Moon Rising": ("p3", "Grandchild", "grandmother"), "Sects & Violets": ("p4", "Twin", "eviltwin")}


def begun(script):
    options, characters = TABLES[script]
    log = Log(new_game(options, characters))
    player, token, source = SETUP_TOKENS[script]
    log.do(type="add_reminder", target=player, token=token, source=source)
    log.do(type="begin")
    return log


def official_tokens(state):
    """Every (character, token) the official records give the script's characters (duplicates once)."""
    known = GAME.chars_of(state)
    found = []
    for team in ("townsfolk", "outsider", "minion", "demon"):
        for cid in state.script.characters.get(team, ()):
            for token in dict.fromkeys((*known[cid].reminders, *known[cid].reminders_global)):
                found.append((cid, token))
    return found


def with_every_token(script):
    """Night 1 of the edition's table with every official token of its script placed by the
    Storytellers, each on a seat in turn: (the log, [(player, label)])."""
    log = begun(script)
    known = GAME.chars_of(log.state)
    placed = []
    for k, (cid, token) in enumerate(official_tokens(log.state)):
        player = log.state.seats[k % len(log.state.seats)].player
        log.do(type="add_reminder", target=player, token=token, source=cid)
        placed.append((player, f"{token} ({known[cid].name})"))
    return log, placed


# ----- the inventory: every official token of both editions, on every Storytellers' surface -----

@pytest.mark.parametrize("script", TABLES)
def test_every_official_token_of_the_edition_is_in_the_grimoire_picture_drawn_from_it(script):
    log, placed = with_every_token(script)
    assert len(placed) > 20
    picture = GAME.picture(log.state, "grimoire")
    pills = {s["name"]: s["reminders"] for s in picture["seats"]}
    for player, label in placed:
        assert label in pills[log.state.name(player)], label
    png = GAME.draw(picture)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1200, 1200)
    bare = GAME.draw({**picture, "seats": [{**s, "reminders": []} for s in picture["seats"]]})
    assert Image.open(io.BytesIO(bare)).tobytes() != image.tobytes()  # the pills are drawn


@pytest.mark.parametrize("script", TABLES)
def test_every_official_token_of_the_edition_is_in_the_grimoire_text(script):
    log, placed = with_every_token(script)
    text = grimoire_text(log.state, GAME.chars_of(log.state))
    for player, label in placed:
        line = next(x for x in text.splitlines() if f"**{log.state.name(player)}**" in x)
        assert label in line


@pytest.mark.parametrize("script", TABLES)
def test_every_official_token_of_the_edition_is_on_the_night_sheet(script):
    log, placed = with_every_token(script)
    log.to_phase("day")
    log.to_phase("night")
    sheet = next(e for e in reversed(log.events) if e.type == "night_sheet")
    assert sheet.audience.kind == "storyteller"
    listed = sheet.text.split("🔖 On the grimoire: ", 1)[1]
    for player, label in placed:
        if any(r.player == player and f"{r.token} (" in label for r in log.state.reminders):
            assert f"{log.state.label(player)}: {label}" in listed  # a token still on the grimoire at dusk


@pytest.mark.parametrize("script", TABLES)
def test_every_official_token_of_the_edition_is_in_the_end_reveal(script):
    log, placed = with_every_token(script)
    over = log.do(type="declare_winner", team="good", reason="")
    reveal = next(e for e in over.events if e.type == "game_over")
    assert reveal.audience.kind == "public"
    for player, label in placed:
        line = next(x for x in reveal.text.splitlines() if f" {log.state.name(player)}: **" in x)
        assert label in line


@pytest.mark.parametrize("script", TABLES)
def test_game_script_lists_each_characters_reminder_tokens_from_the_official_records(script):
    log = begun(script)
    known = GAME.chars_of(log.state)
    sheet = GAME.script_sheet(None, log.state)
    section = next(s for s in sheet.sections if s.title == "Reminder tokens")
    tokens = {}
    for cid, token in official_tokens(log.state):
        tokens.setdefault(known[cid].name, []).append(token)
    for name, words in tokens.items():
        assert any(line.startswith(f"**{name}**: ") and all(w in line for w in words) for line in section.lines), name
    assert len(section.lines) == len(tokens)  # a character without tokens (the Mutant, the Pit-Hag) is left out


def test_a_night_sheet_longer_than_one_message_keeps_every_token():
    """The bot cuts a long message into parts at line breaks (``bot.render``): the sheet itself is not cut."""
    log = begun("Bad Moon Rising")
    for k in range(120):
        log.do(type="add_reminder", target=log.state.seats[k % 8].player, token=f"Storytellers' note number {k}")
    sheet = night_sheet(log.state).text
    assert len(sheet) > 4000 and sheet.endswith("Storytellers' note number 119 (Storyteller)")


# ----- the gained ability (the Apprentice's now, the Philosopher's as its helper writes it) -----

def test_a_gained_ability_is_on_the_grimoire_the_picture_the_night_sheet_and_the_reveal():
    log = begun("Bad Moon Rising")
    log.to_phase("day")
    log.do(type="add_traveller", target="p9", name="Name9", seat=9, character="apprentice", alignment="good")
    log.do(type="apprentice", target="p9", character="exorcist")
    known = GAME.chars_of(log.state)
    assert "Ability: Exorcist" in grimoire_text(log.state, known)
    seat = next(s for s in grimoire_picture(log.state, known)["seats"] if s["name"] == "Name9")
    assert seat["reminders"][0] == "Ability: Exorcist"
    log.to_phase("night")
    assert "Name9 (seat 9): Ability: Exorcist" in night_sheet(log.state).text
    over = log.do(type="declare_winner", team="good", reason="")
    assert "Ability: Exorcist" in next(e.text for e in over.events if e.type == "game_over")
    recap = next(e for e in GAME.recap(log.state, log.records) if e.type == "changes_recap")
    assert recap.text == "• day 1, Name9: gained the Exorcist's ability (the Apprentice)"


def test_a_spent_once_per_game_ability_is_on_the_grimoire_the_picture_and_the_reveal():
    log = begun("Sects & Violets")
    log.state = choose(log.state, "p6", "p2", "p3")  # the Seamstress spends hers
    while log.state.stage != "locked":
        log.tick()
    known = GAME.chars_of(log.state)
    assert "Ability used" in next(x for x in grimoire_text(log.state, known).splitlines() if "**Name6**" in x)
    seat = next(s for s in grimoire_picture(log.state, known)["seats"] if s["name"] == "Name6")
    assert seat["reminders"][0] == "Ability used"
    assert "Name6 (seat 6): Ability used" in night_sheet(log.state).text
    assert "Ability used" not in GAME.view(log.state, "p6").text
    over = log.do(type="declare_winner", team="good", reason="")
    line = next(x for x in next(e.text for e in over.events if e.type == "game_over").splitlines() if "Name6" in x)
    assert "Ability used" in line


def test_the_slayers_spent_shot_is_ability_used_and_a_false_claim_is_not():
    state = to_day(options={"script": "Trouble Brewing"},
                   characters=["imp", "poisoner", "slayer", "empath", "soldier", "recluse", "monk"])
    state = act(state, player="p3", type="slayer_shot", target="p4", place="announcements").state
    state = act(state, player="p5", type="slayer_shot", target="p1", place="announcements").state
    lines = grimoire_text(state, GAME.chars_of(state)).splitlines()
    assert "Ability used" in next(x for x in lines if "**Name3**" in x)
    assert "Ability used" not in next(x for x in lines if "**Name5**" in x)


NODASHII = ["nodashii", "cerenovus", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "klutz"]


def test_the_no_dashiis_poisoned_neighbours_are_on_every_storytellers_surface_and_the_reveal():
    """Read from the seats, not a token: the nearest Townsfolk each side (the Clockmaker, seat 3; the
    Oracle, seat 7, past the Klutz)."""
    log = Log(new_game(SNV, NODASHII))
    log.do(type="begin")
    lines = GAME.view(log.state, "storyteller").text.splitlines()
    poisoned = [k for k in range(1, 9) if "Poisoned (No Dashii)" in next(x for x in lines if f"**Name{k}**" in x)]
    assert poisoned == [3, 7]
    pills = {s["name"]: s["reminders"] for s in GAME.picture(log.state, "grimoire")["seats"]}
    assert pills["Name3"] == ["Poisoned (No Dashii)"] and pills["Name4"] == []
    assert "Name7 (seat 7): Poisoned (No Dashii)" in night_sheet(log.state).text
    for viewer in [None, "p3", "p7"]:
        assert "No Dashii" not in GAME.view(log.state, viewer).text
    over = log.do(type="declare_winner", team="good", reason="")
    reveal = next(e.text for e in over.events if e.type == "game_over")
    assert "Poisoned (No Dashii)" in next(x for x in reveal.splitlines() if " Name3: " in x)


def test_a_poisoned_no_dashii_marks_nobody():
    state = act(new_game(SNV, NODASHII), type="begin").state
    state = act(state, type="add_reminder", target="p1", token="Poisoned", source="").state
    assert "(No Dashii)" not in GAME.view(state, "storyteller").text


# ----- the character changes of the game, in order, from the record -----

def jumped_then_changed():
    """Night 2: the Fang Gu kills the Mutant, who becomes the Fang Gu; day 2: the Storytellers make
    the Clockmaker the Pit-Hag's new Savant; the game ends."""
    log = begun("Sects & Violets")
    log.to_phase("day")
    log.to_phase("night")
    log.state = choose(log.state, "p1", "p5")
    while log.state.phase == "night":
        log.tick()
    log.do(type="set_character", target="p3", character="savant")
    log.do(type="declare_winner", team="good", reason="")
    return log


def test_the_fang_gus_jump_is_a_character_change_of_the_record():
    log = jumped_then_changed()
    jump = next(r for r in log.records if r.type == "character_change" and r.data["player"] == "p5")
    assert (jump.data["from"], jump.data["to"]) == ("mutant", "fanggu")
    assert (jump.data["from_alignment"], jump.data["to_alignment"]) == ("good", "evil")
    assert jump.data["by"] == ["fanggu"] and (jump.data["phase"], jump.data["night"]) == ("night", 2)


def test_the_reveal_tells_every_character_change_in_order():
    log = jumped_then_changed()
    recap = next(e for e in GAME.recap(log.state, log.records) if e.type == "changes_recap")
    lines = recap.text.splitlines()
    assert lines == ["• night 2, Name5: the Mutant became the Fang Gu; good to evil (the Fang Gu)",
                     "• day 2, Name3: the Clockmaker became the Savant (the Storytellers)"]
    assert recap.audience.kind == "public"


def test_the_goons_turn_at_night_is_a_change_of_alignment_by_the_goon():
    log = begun("Bad Moon Rising")
    log.to_phase("day")
    log.to_phase("night")
    log.state = choose(log.state, "p1", "p5")  # the Zombuul chooses the Goon, first tonight
    while log.state.phase == "night":
        log.tick()
    assert log.state.seat_of("p5").alignment == "evil"
    log.do(type="declare_winner", team="good", reason="")
    recap = next(e for e in GAME.recap(log.state, log.records) if e.type == "changes_recap")
    assert recap.text == "• night 2, Name5: good to evil (the Goon)"


def test_a_swap_of_two_characters_and_alignments_in_one_action_is_two_changes():
    """What the Snake Charmer's and the Barber's swaps do to the seats, recorded without a hook."""
    state = begun("Sects & Violets").state
    before, tokens = seats_now(state), tokens_now(state)
    demon, charmer = state.seat_of("p1"), state.seat_of("p3")
    demon.character, charmer.character = charmer.character, demon.character
    demon.alignment, charmer.alignment = charmer.alignment, demon.alignment
    rows = change_records(before, tokens, ("night", 2, 1), "phase_timeout", state)
    assert [(r.data["player"], r.data["from"], r.data["to"]) for r in rows] == [
        ("p1", "fanggu", "clockmaker"), ("p3", "clockmaker", "fanggu")]
    assert all(r.audience.kind == "record" for r in rows)


def test_a_redeal_before_the_characters_go_out_is_no_change():
    state = new_game(SNV, SNV_TABLE)
    out = act(state, type="redeal")
    assert not [e for e in out.events if e.type == "character_change"]
    assert seats_now(state) == {}


def test_the_matrons_seat_swaps_are_in_the_changes_in_order():
    log = begun("Bad Moon Rising")
    log.to_phase("day")
    log.do(type="add_traveller", target="p9", name="Name9", seat=9, character="matron", alignment="good")
    log.do(type="set_character", target="p3", character="exorcist")
    log.do(type="swap_seats", first="p2", second="p4")
    log.do(type="declare_winner", team="good", reason="")
    recap = next(e for e in GAME.recap(log.state, log.records) if e.type == "changes_recap")
    assert recap.text.splitlines() == ["• day 1, Name3: the Professor became the Exorcist (the Storytellers)",
                                       "• day 1, Name2 and Name4 swapped seats (the Matron)"]


def test_a_substitute_taking_a_seat_over_is_no_change_of_character():
    log = begun("Sects & Violets")
    log.do(type="substitute", target="p5", new_player="p20", name="Newcomer")
    assert not [r for r in log.records if r.type == "character_change"]


def test_no_change_means_no_changes_recap():
    log = begun("Sects & Violets")
    log.do(type="declare_winner", team="good", reason="")
    assert not [e for e in GAME.recap(log.state, log.records) if e.type == "changes_recap"]


# ----- secrets: nothing of it before the reveal -----

SECRET_WORDS = ("Grandchild", "Twin (", "Mad (", "Is The Philosopher", "Ability:", "Once (", "became the")


def secrets_game():
    """S&V with the Evil Twin's pair dealt, a Mad token, a gained ability, a Fang Gu jump and a
    Storytellers' change; and BMR's grandchild on another table."""
    log = begun("Sects & Violets")
    log.do(type="add_reminder", target="p8", token="Is The Philosopher", source="philosopher")
    log.to_phase("day")
    log.to_phase("night")
    log.state = choose(log.state, "p1", "p5")
    while log.state.phase == "night":
        log.tick()
    # (placed after the lock: the Cerenovus's mark ends at the next lock, snv_madness.madness_ends)
    log.do(type="add_reminder", target="p4", token="Mad", source="cerenovus")
    log.do(type="set_character", target="p3", character="savant", tell=False)
    return log


def test_the_night_sheet_and_the_grimoire_picture_reach_the_storytellers_only():
    log = secrets_game()
    for e in log.events:
        if e.type in ("night_sheet", "grimoire") or e.image == "grimoire":
            assert e.audience.kind == "storyteller", e.type


def test_no_token_change_or_gained_ability_reaches_the_town_square_or_a_players_thread_before_the_reveal():
    log = secrets_game()
    for seat in log.state.seats:
        seen = log.seen_by(seat.player)
        for word in SECRET_WORDS:
            assert word not in seen, (seat.player, word)
    assert not [e for e in log.events if e.type == "changes_recap"]


def test_no_token_reaches_a_players_view_or_the_public_view_before_the_reveal():
    log = secrets_game()
    for viewer in [None, *(s.player for s in log.state.seats)]:
        view = GAME.view(log.state, viewer)
        words = f"{view.text} {view.data}"
        assert "grimoire" not in view.data
        for word in ("Grandchild", "Mad", "Is The Philosopher", "Ability:", "Once (", "became"):
            assert word not in words, (viewer, word)


@pytest.mark.parametrize("script", TABLES)
def test_no_official_token_of_the_edition_reaches_a_player_or_the_town_before_the_reveal(script):
    log, placed = with_every_token(script)
    log.to_phase("day")
    log.to_phase("night")
    labels = {label for _, label in placed}
    for seat in log.state.seats:
        seen = log.seen_by(seat.player) + GAME.view(log.state, seat.player).text
        assert not [label for label in labels if label in seen], seat.player
    assert not [label for label in labels if label in GAME.view(log.state, None).text]


def test_the_evil_twin_pair_is_told_to_the_twins_only():
    log = secrets_game()
    twin = next(r.player for r in log.state.reminders if r.source == "eviltwin")
    for seat in log.state.seats:
        seen = log.seen_by(seat.player) + GAME.view(log.state, seat.player).text
        assert ("Your twin" in seen) == (seat.player in ("p7", twin)), seat.player


def test_the_grandchild_is_told_to_the_grandmother_only():
    log = begun("Bad Moon Rising")
    grandchild = next(r.player for r in log.state.reminders if r.source == "grandmother")
    while log.state.stage != "locked":
        log.tick()
    log.do(type="inform", target="p2")  # the Grandmother's proposal, accepted as it is
    while log.state.phase == "night":
        log.tick()
    name = log.state.name(grandchild)
    for seat in log.state.seats:
        told = [e.text for e in log.events if e.audience.kind == "player" and e.audience.id == seat.player]
        knows = any(name in text and "grandchild" in text.lower() for text in told)
        assert knows == (seat.character == "grandmother"), seat.player
    public = " ".join(e.text for e in log.events if e.audience.kind in ("public", "thread"))
    assert "grandchild" not in public.lower()


def test_game_script_says_nothing_of_the_tokens_or_changes_in_play():
    log = secrets_game()
    fresh = act(new_game(SNV, SNV_TABLE), type="begin").state
    assert sheet_of_state(log.state) == sheet_of_state(fresh)


def test_the_reveal_and_the_changes_come_only_at_the_end():
    log = secrets_game()
    assert not [e for e in log.events if e.type in ("game_over", "changes_recap")]
    assert all(e.audience.kind == "record" for e in log.events if e.type == "character_change")
    over = log.do(type="declare_winner", team="evil", reason="")
    reveal = next(e for e in over.events if e.type == "game_over")
    assert "Mad (Cerenovus)" in reveal.text and "Twin (Evil Twin)" in reveal.text
    recap = next(e for e in GAME.recap(log.state, log.records) if e.type == "changes_recap")
    assert "the Mutant became the Fang Gu" in recap.text and "the Clockmaker became the Savant" in recap.text


def test_lock_then_next_night_keeps_the_jumped_fang_gus_once_token_on_the_sheet():
    log = begun("Sects & Violets")
    log.to_phase("day")
    log.to_phase("night")
    state = lock(choose(log.state, "p1", "p5")).state
    state = next_night(through_night(state).state)
    assert "Name5 (seat 5): Once (Fang Gu)" in night_sheet(state).text
