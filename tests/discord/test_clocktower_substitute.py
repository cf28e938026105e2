"""A substitute on simcord: every thread of the seat follows it at once (its private thread, its
whispers), the player who left reads none of them and is sent nothing more, the night's
closing of the town square moves to the newcomer, and the leaver's old buttons refuse in words."""

from support.clocktower_helpers import CHARS, advance, begun, state_of, texts


def announcement_thread(w):
    return next(t for t in w.channel.threads if t.name.startswith("📣"))


def _reads(thread, member) -> bool:
    try:
        return bool(thread.history(viewer=member))
    except Exception:
        return False


async def _can_post(member, channel) -> bool:
    try:
        await member.send(channel, "hello")
        return True
    except Exception:
        return False


def readable(w, member) -> list[int]:
    """The game's threads a member can read."""
    return [t.id for t in w.channel.threads if _reads(t, member)]


async def test_the_whisper_threads_follow_the_seat_and_the_leaver_reads_nothing_more(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)  # day 1: whispers are open
    a, leaving = members[0], members[1]
    sub = w.players(10)[9]
    await a.slash(announcement_thread(w), "whisper", player=leaving)
    await w.settle()
    whisper = next(t for t in w.channel.threads if t.name.startswith("🔒") and a.name in t.name
                   and leaving.name in t.name)
    await leaving.send(whisper, "I trust you, a")
    assert _reads(whisper, leaving) and not _reads(whisper, sub)

    res = await w.host.slash(w.channel, "st substitute", player=leaving, **{"with": sub})
    assert "now plays seat" in res.response.content
    await w.settle()
    # the whisper is the seat's: the substitute reads its history and writes in it; the leaver is out
    assert _reads(whisper, sub) and not _reads(whisper, leaving)
    assert any("I trust you, a" in t for t in texts(whisper, viewer=sub))
    await a.send(whisper, "the Demon is seat 4")
    assert any("the Demon is seat 4" in t for t in texts(whisper, viewer=sub))
    assert await _can_post(sub, whisper)
    state = await state_of(w)
    assert set(state.whispers[0].members) == {str(a.id), str(sub.id)}
    # of the game's threads, the leaver reads only the public announcement thread
    assert readable(w, leaving) == [announcement_thread(w).id]

    # what the bot sends later goes to the seat's new player: the leaver gets no thread, no DM
    dms_before = len(leaving.user.dm_channel.history()) if leaving.user.dm_channel else 0
    await sub.send(w.channel, "hello town")  # the whisper breaks: its notice reaches the seat's player
    await w.settle()
    assert any("broken" in t for t in texts(whisper, viewer=sub))
    await advance(w, clock, 48)  # night 2: everyone is asked for their choice, talk closes
    await advance(w, clock, 24)  # dawn
    assert readable(w, leaving) == [announcement_thread(w).id]
    assert (len(leaving.user.dm_channel.history()) if leaving.user.dm_channel else 0) == dms_before


def phase_message(w):
    return next(m for m in reversed(w.channel.history()) if any(
        c.label == "Make my choice" for row in m.components for c in row.children))


async def test_a_substitute_at_night_is_closed_out_in_the_leavers_place_and_old_buttons_refuse(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 72)  # night 2: the town square is closed, every Demon is asked
    state = await state_of(w)
    by_id = {str(m.id): m for m in members}
    demon_seat = next(s for s in state.seats if CHARS[s.character].team == "demon")
    leaving = by_id[demon_seat.player]
    victim = next(m for m in members if m is not leaving)
    assert not await _can_post(leaving, w.channel)
    # the Demon opens its choice from the town square, then leaves before choosing
    prompt = (await leaving.click(phase_message(w), label="Make my choice")).response
    assert prompt.ephemeral and "your choice" in prompt.content
    sub = w.players(10)[9]
    await w.host.slash(w.channel, "st substitute", player=leaving, **{"with": sub})
    await w.settle()
    # the night's closing moved: nothing is left on the leaver, the newcomer is closed out
    overwrites = w.bot.get_channel(w.channel.id).overwrites
    assert not any(getattr(target, "id", None) == leaving.id for target in overwrites)
    assert not await _can_post(sub, w.channel)
    # the leaver's old choice, the phase's buttons: refused in words, nothing counted
    res = await leaving.select(prompt, [str(victim.id)])
    assert res.response.ephemeral and "not seated in this game" in res.response.content
    res = await leaving.click(phase_message(w), label="Make my choice")
    assert res.ephemeral and "not playing in this game" in res.response.content
    assert str(leaving.id) not in (await state_of(w)).night_choices
    # the substitute chooses for the seat from its thread
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {leaving.name} "))
    ask = next(m for m in reversed(thread.history(viewer=sub)) if any(
        "your choice" in (e.title or "") for e in m.embeds))
    prompt = (await sub.click(ask, label="Make my choice")).response
    await sub.select(prompt, [str(victim.id)])
    assert (await state_of(w)).night_choices[str(sub.id)] == [str(victim.id)]
    await advance(w, clock, 24)  # dawn opens the town square to the seat's player
    assert await _can_post(sub, w.channel)


async def test_a_message_for_the_seat_still_waiting_goes_to_the_substitute(world, clock):
    """Discord refuses the seat's thread for a while: what the Storytellers sent the seat before the
    substitution is delivered to its new player, never in a new thread of the one who left."""
    w = world
    members = await begun(w)
    leaving, sub = members[3], w.players(10)[9]
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {leaving.name} "))
    w.bot.settings.delivery_retry_seconds = 30  # a lasting fault: retries are minutes apart
    w.bot.settings.delivery_retry_max_seconds = 300
    w.env.inject_error("POST", f"/channels/{thread.id}/messages", status=503, times=None)
    await w.host.slash(w.channel, "st tell", player=leaving, text="You learn: seat 5 is the Demon.")
    await w.settle()
    assert not any("seat 5 is the Demon" in t for t in texts(thread))  # still waiting
    await w.host.slash(w.channel, "st substitute", player=leaving, **{"with": sub})
    await w.settle()
    w.env.backend.faults.clear()
    await w.bot.sweep()
    await w.settle()
    assert any("seat 5 is the Demon" in t for t in texts(thread, viewer=sub))
    assert readable(w, leaving) == [announcement_thread(w).id]
    assert not leaving.user.dm_channel or not any(
        "seat 5" in t for t in texts(leaving.user.dm_channel))


async def test_a_handover_discord_refuses_is_retried_or_told_to_the_storytellers(world, clock):
    """A passing fault while the whisper changes hands is tried again; a lasting refusal (the bot
    may not remove members) is told to the Storytellers in words, and the town still hears of it."""
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    a, leaving, sub = members[0], members[1], w.players(10)[9]
    await a.slash(announcement_thread(w), "whisper", player=leaving)
    await w.settle()
    whisper = next(t for t in w.channel.threads if t.name.startswith("🔒") and a.name in t.name
                   and leaving.name in t.name)
    w.env.inject_error("PUT", f"/channels/{whisper.id}/thread-members/*", status=503, times=1)
    w.env.inject_error("DELETE", f"/channels/{whisper.id}/thread-members/*", status=403, code=50013,
                       message="Missing Permissions", times=None)
    await w.host.slash(w.channel, "st substitute", player=leaving, **{"with": sub})
    await w.settle_retries()
    assert _reads(whisper, sub)  # added on the second try
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    told = [t for t in texts(st_thread) if "I could not hand over" in t]
    assert len(told) == 1 and f"<#{whisper.id}>" in told[0] and "remove the player who left" in told[0]
    assert str(leaving.id) not in told[0] and str(sub.id) not in told[0]  # no mention: nobody is pulled in
    assert any("takes over seat" in t for t in texts(w.channel))
