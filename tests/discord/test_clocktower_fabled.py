"""The Fabled on simcord: the Fiddler's contest from `/st fabled fiddle` to the end reveal (the Demon
chooses in its thread, the town votes with /vote, nobody learns which contestant is the Demon);
Hell's Librarian's silence, where a post in the town square is reported to the Storytellers only."""

from support.clocktower_helpers import advance, begun, character_names, game_row, state_of, texts


async def test_the_fiddle_contest_runs_from_the_storytellers_call_to_the_reveal(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)  # day 1
    gid = (await game_row(w)).id
    res = await w.host.slash(w.channel, "st fabled fiddle")
    assert "The Fiddler is not in play" in res.response.content
    await w.host.slash(w.channel, "st fabled add", fabled="fiddler")
    res = await w.host.slash(w.channel, "st fabled fiddle")
    assert res.ephemeral and "The fiddle contest begins" in res.response.content, res.response.content
    await w.settle()
    state = await state_of(w)
    by_id = {str(m.id): m for m in members}
    demon = by_id[state.fiddle.demon]
    opponent = next(by_id[s.player] for s in state.seats if s.alignment != state.seat_of(state.fiddle.demon).alignment)
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {demon.name} "))
    ask = next(m for m in reversed(thread.history(viewer=demon)) if any(
        "fiddle" in (e.title or "") for e in m.embeds))
    prompt = (await demon.click(ask, label="Make my choice")).response
    await demon.select(prompt, [str(opponent.id)])
    await w.settle()
    square = " ".join(texts(w.channel))
    assert "are in the fiddle contest" in square and opponent.name in square
    assert not character_names(square) - {"Fiddler", "Djinn"}  # no character in the town square
    for member in members:
        res = await member.slash(w.channel, "vote", target=opponent)
        assert res.ephemeral, res.response.content
    await w.settle()
    assert (await w.bot.store.game(gid)).status != "running"
    team = state.seat_of(str(opponent.id)).alignment
    assert any("wins it (7 votes to 0)" in t and f"{team.capitalize()} wins!" in t for t in texts(w.channel))


async def test_hells_librarian_reports_who_speaks_in_the_silence_to_the_storytellers_only(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    await w.host.slash(w.channel, "st fabled add", fabled="hellslibrarian")
    res = await w.host.slash(w.channel, "st fabled silence")
    assert res.ephemeral and res.response.content == "Silence called."
    await w.settle()
    assert any("call for **silence**" in t for t in texts(w.channel))
    await members[2].send(w.channel, "I cannot keep quiet")
    await w.settle()
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any(f"{members[2].name} (seat" in t and "during the silence you called" in t for t in texts(st_thread))
    assert not any("during the silence you called" in t for t in texts(w.channel, viewer=members[3]))
    state = await state_of(w)
    assert any(r.token == "Something Bad" and r.player == str(members[2].id) for r in state.reminders)
