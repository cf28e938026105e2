"""Clocktower nights on simcord: the Demon is asked in its thread at dusk, chooses from the
thread's Make my choice, may change its mind until the lock, and the Storytellers see each
choice and, at the lock, every choice and every missing one."""

from support.clocktower_helpers import CHARS, advance, begun, state_of, texts


async def test_the_demon_chooses_in_its_thread_and_the_storytellers_see_it(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 72)  # night 2: every Demon of the script chooses
    state = await state_of(w)
    assert (state.phase, state.night) == ("night", 2)
    by_id = {str(m.id): m for m in members}
    demon_seat = next(s for s in state.seats if CHARS[s.character].team == "demon")
    demon = by_id[demon_seat.player]
    victim = next(m for m in members if m is not demon)
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {demon.name} "))
    ask = next(m for m in reversed(thread.history(viewer=demon)) if any(
        "your choice" in (e.title or "") for e in m.embeds))
    prompt = (await demon.click(ask, label="Make my choice")).response
    assert prompt.ephemeral
    await demon.select(prompt, [str(victim.id)])
    await w.settle()
    state = await state_of(w)
    assert state.night_choices[str(demon.id)] == [str(victim.id)]
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any(f"chose {victim.name}" in t for t in texts(st_thread))
    # no other player sees it
    other = next(m for m in members if m not in (demon, victim))
    assert not any(victim.name in t and "chose" in t for t in texts(w.channel, viewer=other))
    await advance(w, clock, 22)  # the lock
    summary = next(t for t in texts(st_thread) if "Night 2: the choices" in t)
    assert f"{demon.name} (seat {demon_seat.seat}), the {CHARS[demon_seat.shown].name}: {victim.name}" in summary


async def test_the_storyteller_sends_the_proposed_information_with_st_inform(world, clock):
    from games.clocktower.copilot import proposals

    w = world
    members = await begun(w)
    await advance(w, clock, 22)  # the lock of night 1: the information due is proposed
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("Night 1: information due" in t for t in texts(st_thread))
    state = await state_of(w)
    by_id = {str(m.id): m for m in members}
    due = proposals(state, CHARS)[0]
    informant = by_id[due.player]
    res = await informant.slash(w.channel, "st inform", player=informant)
    assert res.ephemeral and "Only this game's Storytellers" in res.response.content
    mine = {} if due.ready else {"answer": due.allowed[0] if due.allowed else "2"}
    res = await w.host.slash(w.channel, "st inform", player=informant, **mine)
    assert res.ephemeral and res.response.content.startswith("Sent to"), res.response.content
    await w.settle()
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {informant.name} "))
    assert any("you learn" in t for t in texts(thread, viewer=informant))
    assert not any("you learn" in t for t in texts(w.channel))
