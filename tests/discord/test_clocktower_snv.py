"""A Sects & Violets game on simcord, from `/st script edition:Sects & Violets` to the reveal: the
Dreamer chooses in its thread, the copilot proposes the Clockmaker's and the Dreamer's information
false under the Vortox, the Storytellers accept it, the players read it at dawn in their threads,
the town executes the Vortox, and the reveal names the characters the town square never did."""

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
from games.clocktower.snv_information import steps

POOL = "Vortox, Witch, Clockmaker, Dreamer, Oracle, Seamstress, Flowergirl"


async def test_a_sects_and_violets_game_on_simcord_from_the_edition_to_the_reveal(world, clock):
    w = world
    members = await begun_script(w, "Sects & Violets", edition="snv", pool=POOL, pool_size=7)
    gid = (await game_row(w)).id
    state = await state_of(w)
    known = characters_for(state.script)
    by_id = {str(m.id): m for m in members}
    holder = {s.character: by_id[s.player] for s in state.seats}
    assert set(holder) == {"vortox", "witch", "clockmaker", "dreamer", "oracle", "seamstress", "flowergirl"}
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    sheet = next(t for t in texts(st_thread) if "Night 1: the night sheet" in t)
    assert "Clockmaker" in sheet and "Dreamer" in sheet

    # the Dreamer chooses the Witch in its thread
    dreamer, witch = holder["dreamer"], holder["witch"]
    prompt = await choice_prompt(dreamer, thread_of(w, dreamer))
    await dreamer.select(prompt, [str(witch.id)], custom_id=select_id(prompt, "targets"))
    await w.settle()
    assert (await state_of(w)).night_choices[str(dreamer.id)] == [str(witch.id)]

    # the lock: the information due, false under the Vortox, accepted as proposed
    await advance(w, clock, 22)
    due = next(t for t in texts(st_thread) if "Night 1: information due" in t)
    assert "the Vortox" in due
    clockmaker = holder["clockmaker"]
    for informant in (clockmaker, dreamer):
        res = await w.host.slash(w.channel, "st inform", player=informant)
        assert res.response.content.startswith("Accepted:"), res.response.content
    await advance(w, clock, 2)  # dawn
    state = await state_of(w)
    assert state.phase == "day"
    truth = steps(state, {s.player for s in state.seats if s.character == "vortox"},
                  {s.player for s in state.seats if s.character == "witch"})
    told = " ".join(texts(thread_of(w, clockmaker), viewer=clockmaker))
    said = re.search(r"The Demon is (\d+) steps? from its nearest Minion", told)
    assert said and int(said[1]) != truth  # the Vortox: false
    dreamt = " ".join(texts(thread_of(w, dreamer), viewer=dreamer))
    learned = re.search(rf"{re.escape(witch.name)} \(seat \d+\) is the ([\w' -]+) or the ([\w' -]+)\.", dreamt)
    assert learned and "Witch" not in (learned[1], learned[2])  # false: neither is the Witch's character
    assert not any("The Demon is" in t for t in texts(thread_of(w, dreamer), viewer=dreamer))

    # nothing of the grimoire in the town square while the game runs
    square = " ".join(texts(w.channel, viewer=members[0]))
    for cid in holder:
        assert not re.search(rf"\b{re.escape(known[cid].name)}\b", square), known[cid].name

    # the town executes the Vortox; the Storytellers confirm good's win; the reveal names everyone
    vortox = holder["vortox"]
    for voter in [m for m in members if m is not vortox]:
        await voter.slash(w.channel, "vote", target=vortox)
    await w.settle()
    res = await w.host.slash(w.channel, "st endvoting")
    assert "Voting is over" in res.response.content, res.response.content
    await w.settle()
    res = await w.host.slash(w.channel, "st win", team="good", reason="The town executed the Vortox.")
    await w.settle()
    said = texts(w.channel)
    assert any("Good wins!" in t and "The town executed the Vortox." in t for t in said)
    reveal = " ".join(t for t in said if "grimoire, revealed" in t.lower())
    for cid in holder:
        assert known[cid].name in reveal
    assert (await w.bot.store.game(gid)).status == "finished"
