"""Sects & Violets' character changers on simcord: the Barber dies by day, the Demon chooses its
haircuts and the Pit-Hag a player and a character with the selects of their threads, the lock applies
both, each changed player reads their new character in their thread, and the town square hears none
of it."""

import re

from support.clocktower_helpers import (
    advance,
    begun_script,
    choice_prompt,
    select_id,
    state_of,
    texts,
    thread_of,
)

from games.clocktower.script_characters import characters_for

POOL = "No Dashii, Pit-Hag, Barber, Snake Charmer, Dreamer, Oracle, Seamstress, Flowergirl"


async def test_the_barbers_haircuts_and_the_pit_hags_brew_from_the_threads_to_the_lock(world, clock):
    w = world
    members = await begun_script(w, "Sects & Violets", n=8, edition="snv", pool=POOL, pool_size=8)
    state = await state_of(w)
    known = characters_for(state.script)
    by_id = {str(m.id): m for m in members}
    holder = {s.character: by_id[s.player] for s in state.seats}
    barber, demon, hag = holder["barber"], holder["nodashii"], holder["pithag"]
    dreamer, oracle, seamstress = holder["dreamer"], holder["oracle"], holder["seamstress"]
    await advance(w, clock, 24)  # dawn of day 1
    res = await w.host.slash(w.channel, "st kill", player=barber)
    assert "dead" in res.response.content, res.response.content
    await advance(w, clock, 48)  # night 2
    state = await state_of(w)
    assert (state.phase, state.night) == ("night", 2)
    asked = " ".join(texts(thread_of(w, demon), viewer=demon))
    assert "The Barber died" in asked and "The Barber's haircuts" in asked

    # the Demon: its haircuts, apart from its kill (the two selects are found by their actions)
    prompt = await choice_prompt(demon, thread_of(w, demon))
    await demon.select(prompt, [str(dreamer.id), str(oracle.id)], custom_id=select_id(prompt, "haircut:targets"))
    await w.settle()
    state = await state_of(w)
    assert state.haircut == [str(dreamer.id), str(oracle.id)] and str(demon.id) not in state.night_choices

    # the Pit-Hag: the Seamstress, then a Mutant (not in play), each from its own select
    prompt = await choice_prompt(hag, thread_of(w, hag))
    await hag.select(prompt, [str(seamstress.id)], custom_id=select_id(prompt, "night_choice:targets"))
    await w.settle()
    prompt = await choice_prompt(hag, thread_of(w, hag))
    await hag.select(prompt, ["mutant"], custom_id=select_id(prompt, "night_character:character_outsider"))
    await w.settle()
    state = await state_of(w)
    assert state.night_choices[str(hag.id)] == [str(seamstress.id)] and state.night_answers[str(hag.id)] == "mutant"

    await advance(w, clock, 22)  # the lock
    state = await state_of(w)
    assert state.seat_of(str(dreamer.id)).character == "oracle" and state.seat_of(str(oracle.id)).character == "dreamer"
    assert state.seat_of(str(seamstress.id)).character == "mutant"
    for member, name in ((dreamer, "Oracle"), (oracle, "Dreamer"), (seamstress, "Mutant")):
        said = " ".join(texts(thread_of(w, member), viewer=member))
        assert re.search(rf"You are the \*\*{name}\*\*", said), name
    await advance(w, clock, 2)  # dawn
    square = " ".join(texts(w.channel, viewer=members[0]))
    for cid in ("barber", "pithag", "mutant", "oracle", "dreamer", "seamstress", "nodashii"):
        assert not re.search(rf"\b{re.escape(known[cid].name)}\b", square), known[cid].name
    assert "haircut" not in square.lower()
