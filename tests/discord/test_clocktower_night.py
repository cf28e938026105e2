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
