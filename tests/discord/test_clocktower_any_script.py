"""Any script on simcord: a night of characters the Storytellers judge, official and homebrew, from the
script file to dawn (the night sheet in order, each player asked in the form its ability takes, the
answer kept, the information answered freely and delivered at dawn, the effect applied by command), and
nothing of it in the town square."""

import json
import re

from support.clocktower_helpers import (
    advance,
    begun_script,
    choice_prompt,
    game_row,
    select_id,
    state_of,
    texts,
    thread_of,
)

from games.clocktower.script_characters import characters_for

LANTERN = {"id": "hb-lantern", "name": "Lantern Keeper", "team": "townsfolk",
           "ability": "Each night, choose a character: you learn if it is in play.",
           "firstNight": 30, "firstNightReminder": "The Lantern Keeper chooses a character. Nod if it is in play.",
           "otherNight": 40, "otherNightReminder": "The Lantern Keeper chooses a character. Nod if it is in play."}
SCRIPT = [{"id": "_meta", "name": "Lanterns"}, "snakecharmer", "seamstress", "clockmaker", "chef", "savant",
          "sage", "mutant", "saint", "cerenovus", "witch", "nodashii", LANTERN]
POOL = "No Dashii, Cerenovus, Snake Charmer, Seamstress, Clockmaker, Chef, Lantern Keeper"


async def test_a_night_of_judged_characters_from_the_script_file_to_dawn(world, clock):
    w = world
    members = await begun_script(w, "Lanterns", file=("lanterns.json", json.dumps(SCRIPT).encode()), pool=POOL, pool_size=7)
    state = await state_of(w)
    known = characters_for(state.script)
    by_id = {str(m.id): m for m in members}
    holder = {s.character: by_id[s.player] for s in state.seats}
    assert set(holder) == {"nodashii", "cerenovus", "snakecharmer", "seamstress", "clockmaker", "chef", "hblantern"}

    # the Storytellers' night sheet: in the official order, with the reminders, judged ones marked
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    sheet = next(t for t in texts(st_thread) if "Night 1: the night sheet" in t)
    order = [n for n in re.findall(r"\*\*([^*]+)\*\*:", sheet)]
    assert order.index("Snake Charmer") < order.index("Cerenovus") < order.index("Clockmaker")
    assert "Lantern Keeper" in order and "The Lantern Keeper chooses a character." in sheet
    assert "judged by you" in sheet

    # the Lantern Keeper is asked for a character in its thread, and answers with the Demons' select
    keeper = holder["hblantern"]
    thread = thread_of(w, keeper)
    ask = next(m for m in reversed(thread.history(viewer=keeper)) if any(
        "your choice" in (e.title or "") for e in m.embeds))
    assert "Lantern Keeper: choose a character" in " ".join(e.description or "" for e in ask.embeds)
    prompt = await choice_prompt(keeper, thread)
    await keeper.select(prompt, ["nodashii"], custom_id=select_id(prompt, "character_demon"))
    await w.settle()
    assert (await state_of(w)).night_answers[str(keeper.id)] == "nodashii"
    assert any(f"{keeper.name}" in t and "answered the No Dashii" in t for t in texts(st_thread))

    # the Cerenovus chooses a player and a character: two parts, both kept
    cerenovus = holder["cerenovus"]
    target = holder["chef"]
    prompt = await choice_prompt(cerenovus, thread_of(w, cerenovus))
    await cerenovus.select(prompt, [str(target.id)], custom_id=select_id(prompt, "targets"))
    await w.settle()
    assert (await state_of(w)).night_choices[str(cerenovus.id)] == [str(target.id)]

    # the lock: the information due names the judged informants; the Storytellers answer freely
    await advance(w, clock, 22)
    due = next(t for t in texts(st_thread) if "Night 1: information due" in t)
    assert "no rules for the Lantern Keeper" in due
    # the Clockmaker is ruled by the copilot (issue 40): its steps are proposed, not left to free words
    assert "the Clockmaker: **" in due and "no rules for the Clockmaker" not in due
    res = await w.host.slash(w.channel, "st inform", player=keeper)
    assert "no rules for the Lantern Keeper" in res.response.content  # waits for their words
    res = await w.host.slash(w.channel, "st inform", player=keeper, answer="Yes: the No Dashii is in play.")
    assert res.response.content.startswith("Accepted:"), res.response.content
    # the Cerenovus's madness, applied by the Storytellers with a reminder token of its own
    res = await w.host.slash(w.channel, "st reminder add", player=target, token="Mad", source="cerenovus")
    assert res.ephemeral and "Mad" in res.response.content, res.response.content
    await advance(w, clock, 2)  # dawn
    assert any("Yes: the No Dashii is in play." in t for t in texts(thread, viewer=keeper))
    state = await state_of(w)
    assert any(r.player == str(target.id) and r.token == "Mad" for r in state.reminders)

    # nothing of it in the town square: no character of the script is named there
    square = " ".join(texts(w.channel, viewer=members[0]))
    for cid in holder:
        assert not re.search(rf"\b{re.escape(known[cid].name)}\b", square), known[cid].name


async def test_a_trouble_brewing_game_on_simcord_from_the_edition_to_the_reveal(world, clock):
    """Trouble Brewing by name, 7 players, dealt by the official counts (a pool without the Scarlet
    Woman, so the Imp's execution ends the game): the night sheet, night 1 to day 1, the town votes the
    Imp, the Storytellers confirm the end, and the reveal names the characters the town square never did."""
    w = world
    members = await begun_script(w, "Trouble Brewing", edition="tb", pool="-scarletwoman")
    gid = (await game_row(w)).id
    state = await state_of(w)
    known = characters_for(state.script)
    assert state.script.name == "Trouble Brewing" and len(state.seats) == 7
    counts = [sum(known[s.character].team == t for s in state.seats) for t in ("townsfolk", "outsider", "minion", "demon")]
    assert counts in ([5, 0, 1, 1], [3, 2, 1, 1])  # the official 7-player row, or the Baron's +2
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("Night 1: the night sheet" in t for t in texts(st_thread))
    square_before = " ".join(texts(w.channel, viewer=members[0]))
    for seat in state.seats:  # no character is named in the town square while the game runs
        assert not re.search(rf"\b{re.escape(known[seat.character].name)}\b", square_before), seat.character
    await advance(w, clock, 24)  # dawn of day 1
    state = await state_of(w)
    assert state.phase == "day"
    by_id = {str(m.id): m for m in members}
    imp = by_id[next(s.player for s in state.seats if s.character == "imp")]
    for voter in [m for m in members if m is not imp]:
        res = await voter.slash(w.channel, "vote", target=imp)
        if "Virgin" in res.response.content or (await state_of(w)).voting_closed:
            break  # the Virgin's nominator executed at once: the day's voting is over
    await w.settle()
    state = await state_of(w)
    if not state.voting_closed:
        res = await w.host.slash(w.channel, "st endvoting")
        assert "Voting is over" in res.response.content, res.response.content
        await w.settle()
    res = await w.host.slash(w.channel, "st win", team="good", reason="The town executed the Imp.")
    await w.settle()
    said = texts(w.channel)
    assert any("Good wins!" in t and "The town executed the Imp." in t for t in said)
    reveal = " ".join(t for t in said if "grimoire, revealed" in t.lower())
    for seat in state.seats:
        assert known[seat.character].name in reveal
    assert (await w.bot.store.game(gid)).status == "finished"
