"""Clocktower nights on simcord: the Demon is asked in its thread at dusk, chooses from the
thread's Make my choice, may change its mind until the lock, and the Storytellers see each
choice and, at the lock, every choice and every missing one."""

from support.clocktower_helpers import CHARS, advance, begun, copilot_panel, state_of, texts


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


async def test_the_storyteller_accepts_information_with_st_inform_and_the_player_learns_it_at_dawn(world, clock):
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
    assert res.ephemeral and res.response.content.startswith("Accepted:"), res.response.content
    await w.settle()
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {informant.name} "))
    assert not any("you learn" in t for t in texts(thread, viewer=informant))  # not before dawn
    await advance(w, clock, 2)
    assert any("you learn" in t for t in texts(thread, viewer=informant))
    assert not any("you learn" in t for t in texts(w.channel))


async def test_the_storyteller_reviews_accepts_and_edits_from_the_copilots_panel(world, clock):
    from games.clocktower.copilot import proposals

    w = world
    members = await begun(w)
    gid, st_thread, due_message, panel = await copilot_panel(w, clock)
    assert panel.ephemeral and "Night 1: information due" in panel.content
    state = await state_of(w)
    found = proposals(state, CHARS)
    ready = [p for p in found if p.ready and p.character != "spy"]
    by_id = {str(m.id): m for m in members}
    if ready:  # accept one as proposed
        res = (await w.host.select(panel, [ready[0].player], custom_id=f"g:{gid}:cs:1:accept")).response
        assert res.content.startswith("Accepted:"), res.content
        assert (await state_of(w)).accepted[ready[0].player].answer == ready[0].answer
    # edit another: its allowed answers, or the form for a free answer
    other = next(p for p in found if not ready or p.player != ready[0].player)
    edit = (await w.host.select(panel, [other.player], custom_id=f"g:{gid}:cs:1:edit")).response
    assert f"proposed **{other.answer}**" in edit.content
    if other.allowed:  # one tap on an allowed answer
        res = (await w.host.select(edit, [other.allowed[0]], custom_id=f"g:{gid}:cs:1:answer:{other.player}")).response
        assert res.content.startswith("Accepted:") and (await state_of(w)).accepted[other.player].answer == \
            other.allowed[0], res.content
    own = other.allowed[-1] if other.allowed else "Name the pair you like"
    form = await w.host.click(edit, label="Write the answer")
    res = (await w.host.submit_modal(form, {"answer": own})).response
    assert res.content.startswith("Accepted:"), res.content
    assert (await state_of(w)).accepted[other.player].answer == own
    if other.allowed:  # a answer outside what the rules allow is refused, and changes nothing
        form = await w.host.click(edit, label="Write the answer")
        res = (await w.host.submit_modal(form, {"answer": "not an answer"})).response
        assert "is not an answer the rules allow" in res.content
        assert (await state_of(w)).accepted[other.player].answer == own
    # the co-Storytellers see what was accepted, in the thread
    assert any("learns at dawn" in t for t in texts(st_thread))
    await advance(w, clock, 2)  # dawn: delivered; the panel of night 1 is over
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {by_id[other.player].name} "))
    assert any("you learn" in t for t in texts(thread, viewer=by_id[other.player]))
    res = (await w.host.click(due_message, label="Review and send")).response
    assert "Night 1 is over" in res.content
    # nothing of it in the town square
    assert not any("you learn" in t or "learns at dawn" in t for t in texts(w.channel))
