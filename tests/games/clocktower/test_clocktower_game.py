"""The Clocktower table on the engine protocol: the deal checked by the Storyteller, what each
player learns when the characters go out, and every Storyteller command (pure, no Discord)."""

import re

import pytest

import games
from games.clocktower import load
from games.engine import IllegalAction, Player, SetupError
from games.engine.run import Replay, replay, start, step

GAME = games.get("clocktower")
CHARS = load()
ST = "st1"


def players(n=8):
    return [Player(id=f"p{i}", name=f"Name{i}", seat=i) for i in range(1, n + 1)]


def forced_start(characters, *, shown=None, bluffs=("knight", "empath", "soldier"), options=None, **extra):
    ps = players(len(characters))
    if shown is None:
        shown = {i + 1: "undertaker" for i, c in enumerate(characters) if c == "drunk"}
    forced = {"characters": {f"p{i + 1}": c for i, c in enumerate(characters)},
              "shown": {f"p{i}": c for i, c in (shown or {}).items()}, "bluffs": list(bluffs), **extra}
    return start(GAME, ps, options, seed=1, forced=forced)


def act(state, **action):
    action.setdefault("player", ST)
    return step(GAME, state, action, seed=1)


def begun(characters, **kw):
    out = act(forced_start(characters, **kw).state, type="begin")
    return out, {e.audience.id: e.text for e in out.events if e.audience.kind == "player" and e.type == "character"}


BASIC = ["pukka", "spy", "baron", "washerwoman", "empath", "knight", "recluse", "drunk", "soldier", "virgin"]


def test_the_deal_goes_to_the_storytellers_only_and_nothing_is_sent_to_players():
    out = start(GAME, players(9), None, seed=5)
    kinds = {e.audience.kind for e in out.events}
    assert kinds == {"public", "storyteller"}
    grimoire = next(e for e in out.events if e.audience.kind == "storyteller")
    assert grimoire.image == "grimoire" and "Deal 1" in grimoire.text
    assert out.state.phase == "setup" and len(out.state.seats) == 9
    # every player's seat and true character are in the grimoire
    for seat in out.state.seats:
        assert CHARS[seat.character].name in grimoire.text


def test_a_redeal_deals_again_and_is_refused_once_the_characters_are_out():
    state = start(GAME, players(12), None, seed=5).state
    deals = {tuple(s.character for s in state.seats)}
    for _ in range(4):
        state = act(state, type="redeal").state
        deals.add(tuple(s.character for s in state.seats))
    assert state.deals == 5 and len(deals) > 1
    state = act(state, type="begin").state
    with pytest.raises(IllegalAction, match="only before the characters go out"):
        act(state, type="redeal")
    with pytest.raises(IllegalAction):
        act(state, type="begin")


def test_a_redeal_with_a_new_pool_uses_it_and_a_bad_pool_changes_nothing():
    state = start(GAME, players(7), None, seed=2).state
    pool = ["po", "goblin", "washerwoman", "knight", "empath", "soldier", "virgin"]
    after = act(state, type="redeal", pool=pool).state
    assert sorted(s.character for s in after.seats) == sorted(pool)
    with pytest.raises(IllegalAction, match="not a character of the script"):
        act(after, type="redeal", pool=["po", "imp"])
    with pytest.raises(IllegalAction, match="never dealt"):
        act(after, type="redeal", pool=["po", "thief"])
    with pytest.raises(IllegalAction, match="needs 5 Townsfolk"):
        act(after, type="redeal", pool=["po", "goblin", "knight"])


def test_options_refuse_a_bad_pool_or_script_in_words():
    with pytest.raises(SetupError, match="'imp' is not a character"):
        GAME.parse_options({"pool": "po, imp"})
    with pytest.raises(SetupError):
        GAME.parse_options({"script": "[1, 2"})
    assert GAME.parse_options({"marionette_neighbours": "demon_or_recluse"}).marionette_neighbours == \
        "demon_or_recluse"


def test_seats_follow_the_sign_up_numbers_not_the_join_order():
    ps = [Player(id="a", name="A", seat=9), Player(id="b", name="B", seat=8), *players(5)]
    state = start(GAME, ps, None, seed=3).state
    assert [s.seat for s in state.seats] == sorted(s.seat for s in state.seats)
    assert [p.id for p in state.players] == [s.player for s in state.seats]
    assert [s.player for s in state.seats][-2:] == ["b", "a"]


def test_evil_information_without_the_magician():
    out, told = begun(BASIC)
    demon, spy, baron = told["p1"], told["p2"], told["p3"]
    assert "Your Minions: Name2 (seat 2), Name3 (seat 3)." in demon
    assert "Knight, Empath, Soldier" in demon
    assert "The Demon is Name1 (seat 1)." in spy and "fellow Minions: Name3 (seat 3)" in spy
    assert "The Demon is Name1 (seat 1)." in baron and "fellow Minions: Name2 (seat 2)" in baron
    assert "bluff" not in spy  # only the Demon gets bluffs
    # the good learn their card and nothing of anyone else
    for pid in ("p4", "p5", "p6", "p7", "p9", "p10"):
        assert "Minion" not in told[pid].split("\n", 2)[-1] or pid == "p6"
        assert "Name1" not in told[pid]
    # the Drunk is shown a Townsfolk and never learns the word
    assert "Undertaker" in told["p8"] and "Drunk" not in told["p8"]


def test_evil_information_with_the_magician():
    chars = ["po", "spy", "goblin", "magician", "empath", "knight", "soldier", "virgin", "washerwoman", "juggler"]
    _, told = begun(chars)
    # the Demon sees the Magician among its Minions; the Minions see two Demons
    assert "Your Minions: Name2 (seat 2), Name3 (seat 3), Name4 (seat 4)." in told["p1"]
    for minion in ("p2", "p3"):
        assert "The Demon is one of Name1 (seat 1), Name4 (seat 4)" in told[minion]
    assert "Demon" not in told["p4"].split("\n")[-1]  # the Magician learns nothing more than its card


def test_the_marionette_learns_nothing_and_only_the_demon_learns_who_it_is():
    chars = ["pukka", "marionette", "spy", "empath", "knight", "soldier", "virgin", "washerwoman", "juggler",
             "shugenja"]
    out, told = begun(chars, shown={2: "alsaahir"})
    marionette = told["p2"]
    assert "Alsaahir" in marionette and "You are **good**." in marionette and "Name1" not in marionette
    assert "Name2 (seat 2) is the Marionette" in told["p1"]
    assert "Name2" not in told["p3"]  # the other Minion, by default (the official reading)
    _, told = begun(chars, shown={2: "alsaahir"}, options={"minions_learn_marionette": True})
    assert "Name2 (seat 2) is the Marionette" in told["p3"]


def test_the_lunatic_believes_it_is_the_demon_and_the_demon_learns_who_it_is():
    chars = ["lleech", "goblin", "lunatic", "empath", "knight", "soldier", "virgin", "washerwoman"]
    _, told = begun(chars, shown={3: "po"}, lunatic_minions=["p5"], lunatic_bluffs=["juggler", "undertaker",
                                                                                      "shugenja"])
    assert "You are the **Po** (Demon)" in told["p3"] and "You are **evil**." in told["p3"]
    assert "Your Minions: Name5 (seat 5)." in told["p3"] and "Juggler, Undertaker, Shugenja" in told["p3"]
    assert "Name3 (seat 3) is the Lunatic" in told["p1"]
    assert "Lunatic" not in told["p3"] and "Lleech" not in told["p3"]


def test_a_random_lunatic_gets_made_up_minions_and_bluffs_not_in_play():
    for seed in range(40):
        state = start(GAME, players(10), {"pool": "lunatic po spy goblin baron washerwoman knight empath "
                                                  "soldier virgin juggler shugenja recluse"}, seed=seed).state
        if not state.by_character("lunatic"):
            continue
        lunatic = state.by_character("lunatic")[0].player
        in_play = {s.character for s in state.seats} | {s.shown for s in state.seats}
        assert lunatic not in state.lunatic.minions
        assert len(state.lunatic.minions) == sum(1 for s in state.seats if CHARS[s.character].team == "minion")
        assert not set(state.lunatic.bluffs) & in_play


def names_in(text):
    return {c.name for c in CHARS.characters.values() if re.search(rf"\b{re.escape(c.name)}\b", text)}


@pytest.mark.parametrize("seed", range(25))
def test_no_player_learns_another_players_character(seed):
    state = start(GAME, players(7 + seed % 9), None, seed=seed).state
    out = act(state, type="begin")
    state = out.state
    in_play = {s.player: CHARS[s.character].name for s in state.seats}
    for event in out.events:
        if event.audience.kind != "player":
            continue
        seat = state.seat_of(event.audience.id)
        # the bluffs and the own card aside, no in-play character of another seat is named
        allowed = {CHARS[seat.shown].name} | {CHARS[b].name for b in state.bluffs}
        if state.lunatic:
            allowed |= {CHARS[b].name for b in state.lunatic.bluffs}
        allowed |= {"Marionette", "Lunatic"} if CHARS[seat.character].team == "demon" else set()
        allowed |= {"Marionette"} if seat.character != "marionette" and "is the Marionette" in event.text else set()
        others = {name for pid, name in in_play.items() if pid != seat.player}
        mentioned = names_in(event.text) - allowed - names_in(CHARS[seat.shown].ability)
        assert not (mentioned & others), (seat.character, event.text)
    # the public events name no character in play
    assert GAME.check_invariants(state, out.events) == []


def test_killing_at_night_tells_the_town_nothing_until_dawn():
    state = act(forced_start(BASIC).state, type="begin").state
    out = act(state, type="kill", target="p5")
    assert out.events == [] and out.state.dawn_deaths == ["p5"] and not out.state.seat_of("p5").alive
    with pytest.raises(IllegalAction, match="already dead"):
        act(out.state, type="kill", target="p5")
    revived = act(out.state, type="revive", target="p5")
    assert revived.state.dawn_deaths == [] and revived.state.seat_of("p5").alive
    day = out.state.model_copy(update={"phase": "day", "day": 1})
    shown = act(day, type="kill", target="p6")
    assert [e.audience.kind for e in shown.events] == ["public"] and "Name6 (seat 6) has died" in shown.events[0].text


def test_storyteller_commands_wait_for_the_characters_to_go_out():
    state = forced_start(BASIC).state
    for action in ({"type": "kill", "target": "p1"}, {"type": "tell", "target": "p1", "text": "hi"},
                   {"type": "declare_winner", "team": "good"}):
        with pytest.raises(IllegalAction, match="have not gone out"):
            act(state, **action)


def test_changing_a_character_and_an_alignment():
    state = act(forced_start(BASIC).state, type="begin").state
    out = act(state, type="set_character", target="p5", character="undertaker")
    assert out.state.seat_of("p5").character == "undertaker" and out.state.seat_of("p5").shown == "undertaker"
    assert out.events[0].audience.id == "p5" and "Undertaker" in out.events[0].text
    quiet = act(out.state, type="set_character", target="p6", character="ravenkeeper", tell=False)
    told = [e for e in quiet.events if e.audience.kind != "record"]  # the change is a row of the record only
    assert told == [] and quiet.state.seat_of("p6").shown == "knight"
    with pytest.raises(IllegalAction, match="not a townsfolk/outsider/minion/demon"):
        act(state, type="set_character", target="p5", character="thief")
    politician = act(state, type="set_alignment", target="p7", alignment="evil")
    assert politician.state.seat_of("p7").alignment == "evil" and "now **evil**" in politician.events[0].text
    with pytest.raises(IllegalAction, match="already evil"):
        act(politician.state, type="set_alignment", target="p7", alignment="evil")


def test_reminder_tokens_are_checked_against_their_character():
    state = act(forced_start(BASIC).state, type="begin").state
    state = act(state, type="add_reminder", target="p5", token="poisoned", source="Pukka").state
    assert state.reminders[-1].token == "Poisoned" and state.reminders[-1].source == "pukka"
    with pytest.raises(IllegalAction, match="The Pukka has no 'Drunk' token"):
        act(state, type="add_reminder", target="p5", token="Drunk", source="pukka")
    state = act(state, type="add_reminder", target="p6", token="suspicious of p2").state
    assert state.reminders[-1].source == ""
    state = act(state, type="remove_reminder", target="p5", token="POISONED").state
    assert [r.token for r in state.reminders] == ["suspicious of p2"]
    with pytest.raises(IllegalAction, match="no 'Poisoned' reminder"):
        act(state, type="remove_reminder", target="p5", token="Poisoned")


def test_travellers_join_from_day_one_at_most_two_and_an_evil_one_learns_the_demon():
    state = act(forced_start(BASIC).state, type="begin").state
    traveller = {"type": "add_traveller", "target": "t1", "name": "Trav", "seat": 11, "character": "thief",
                 "alignment": "evil"}
    with pytest.raises(IllegalAction, match="day 1 at the earliest"):
        act(state, **traveller)
    day = state.model_copy(update={"phase": "day", "day": 1})
    out = act(day, **traveller)
    public_text = next(e.text for e in out.events if e.audience.kind == "public")
    assert "Thief" in public_text and "evil" not in public_text
    private = next(e.text for e in out.events if e.audience.kind == "player")
    assert "The Demon is Name1 (seat 1)." in private and "**evil**" in private
    state = out.state
    assert [p.id for p in state.players][-1] == "t1" and state.seats[-1].traveller
    with pytest.raises(IllegalAction, match="already in play"):
        act(state, **{**traveller, "target": "t2", "seat": 12})
    with pytest.raises(IllegalAction, match="Seat 11 is Trav's"):
        act(state, **{**traveller, "target": "t2", "character": "scapegoat"})
    state = act(state, **{**traveller, "target": "t2", "seat": 0 + 12, "character": "scapegoat",
                          "alignment": "good"}).state
    with pytest.raises(IllegalAction, match="already 2 Travellers"):
        act(state, **{**traveller, "target": "t3", "seat": 13, "character": "deviant"})
    good = next(e.text for e in act(day, **{**traveller, "alignment": "good"}).events if e.audience.kind == "player")
    assert "Demon is" not in good
    left = act(state, type="traveller_leaves", target="t1").state
    assert "t1" not in [p.id for p in left.players]
    with pytest.raises(IllegalAction, match="not a Traveller"):
        act(state, type="traveller_leaves", target="p1")


def test_a_substitute_keeps_the_seat_the_character_and_the_reminders():
    state = act(forced_start(BASIC).state, type="begin").state
    state = act(state, type="add_reminder", target="p2", token="note").state
    out = act(state, type="substitute", target="p2", new_player="s9", name="Sub")
    seat = out.state.seat_of("s9")
    assert (seat.seat, seat.character) == (2, "spy")
    assert out.state.reminders[0].player == "s9"
    assert [p.id for p in out.state.players][1] == "s9" and out.state.name("s9") == "Sub"
    public_event = next(e for e in out.events if e.audience.kind == "public")
    assert "Sub (seat 2) takes over seat 2 from Name2 (seat 2)" in public_event.text
    assert "Spy" not in public_event.text
    told = next(e for e in out.events if e.audience.kind == "player")
    assert told.audience.id == "s9" and "Spy" in told.text and "The Demon is Name1" in told.text
    with pytest.raises(IllegalAction, match="not seated"):
        act(out.state, type="kill", target="p2")
    with pytest.raises(IllegalAction, match="already seated"):
        act(out.state, type="substitute", target="s9", new_player="p3", name="x")


def test_the_fabled_are_announced_with_the_djinns_jinxes():
    out = act(forced_start(BASIC).state, type="begin")
    djinn = next(e for e in out.events if e.type == "fabled")
    assert djinn.audience.kind == "thread" and "Virgin + Lleech" in djinn.text
    state = act(out.state, type="add_fabled", fabled="Hell's Librarian").state
    assert state.fabled == ["djinn", "hellslibrarian"]
    with pytest.raises(IllegalAction, match="already in play"):
        act(state, type="add_fabled", fabled="djinn")
    with pytest.raises(IllegalAction):
        act(state, type="add_fabled", fabled="pukka")
    assert act(state, type="remove_fabled", fabled="djinn").state.fabled == ["hellslibrarian"]
    no_djinn = forced_start(BASIC, options={"djinn": False}).state
    assert no_djinn.fabled == []


def test_telling_a_player_reaches_only_them():
    state = act(forced_start(BASIC).state, type="begin").state
    out = act(state, type="tell", target="p4", text="  You learn that Name5 or Name6 is the Empath. ")
    assert [(e.audience.kind, e.audience.id) for e in out.events] == [("player", "p4")]
    assert out.events[0].text.startswith("You learn")


def test_declaring_the_winner_reveals_the_grimoire():
    state = act(forced_start(BASIC).state, type="begin").state
    out = act(state, type="declare_winner", team="evil", reason="Only two players live.")
    assert out.state.finished and out.state.outcome == "evil"
    assert set(out.state.winners) == {"p1", "p2", "p3"}
    reveal = out.events[0].text
    assert "Evil wins" in reveal and "Pukka" in reveal and "who thought they were the" in reveal
    result = GAME.result(out.state)
    assert {r.id: r.role for r in result.players}["p8"] == "Drunk"


def test_a_seated_player_is_substituted_not_removed():
    state = act(forced_start(BASIC).state, type="begin").state
    with pytest.raises(IllegalAction, match="substitute"):
        step(GAME, state, {"type": "remove_player", "target": "p3"}, seed=1)


def test_a_forced_deal_must_show_the_drunk_another_card():
    with pytest.raises(SetupError, match="false card"):
        forced_start(BASIC, shown={})


def test_views_keep_each_secret_with_its_owner():
    state = act(forced_start(BASIC).state, type="begin").state
    assert "Drunk" not in GAME.view(state, "p8").text and "Undertaker" in GAME.view(state, "p8").text
    public_text = GAME.view(state, None).text
    assert not names_in(public_text) - {"Djinn"}
    assert "Drunk" in GAME.view(state, "storyteller").text


def test_a_replay_reproduces_a_game_with_the_storytellers_actions():
    script = Replay(game="clocktower", seed=11, players=[f"p{i}" for i in range(1, 9)], actions=[
        {"type": "redeal", "player": ST}, {"type": "begin", "player": ST},
        {"type": "kill", "player": ST, "target": "p3"},
        {"type": "add_reminder", "player": ST, "target": "p4", "token": "Drunk", "source": "pukka"},
        {"type": "declare_winner", "player": ST, "team": "good"}])
    first, second = list(replay(GAME, script)), list(replay(GAME, script))
    assert first == second
    assert first[-1]["result"]["finished"] and first[-1]["result"]["outcome"] == "good"
    assert any(line.get("rejected") == 3 for line in first)  # the Pukka has no "Drunk" token


def test_a_pool_is_written_as_names_lists_or_exclusions():
    script = GAME.script_of(GAME.parse_options({}))
    assert GAME.parse_pool("High Priestess, po", script) == ("highpriestess", "po")
    assert GAME.parse_pool("all", script) == GAME.parse_pool("", script)
    without = GAME.parse_pool("-baron -po", script)
    assert "baron" not in without and "po" not in without and len(without) == 22
    with pytest.raises(SetupError, match="'imp' is not a character"):
        GAME.parse_pool("-imp", script)
