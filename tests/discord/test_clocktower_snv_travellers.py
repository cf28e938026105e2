"""Sects & Violets' Travellers on simcord, end to end: the Butcher nominates again with `/announce butcher`
after the day's execution, the town votes, and a second player is executed before night falls; the Barista's
cup is served with `/st traveller barista` and only the chosen player hears of it."""

from support.clocktower_helpers import advance, begun_script, state_of, texts, thread_of

POOL = "Vortox, Witch, Clockmaker, Dreamer, Oracle, Seamstress, Flowergirl"


async def test_the_butcher_nominates_again_after_the_days_execution_on_simcord(world, clock):
    w = world
    members = await begun_script(w, "Sects & Violets", edition="snv", pool=POOL, pool_size=7)
    await advance(w, clock, 24)  # day 1
    butcher = w.guild.add_member(w.env.create_user("butcher"))
    await butcher.slash(w.channel, "travel in", seat=11)
    res = await w.host.slash(w.channel, "st traveller add", player=butcher, character="butcher", alignment="good")
    assert "is the" in res.response.content, res.response.content
    state = await state_of(w)
    demon = next(s.player for s in state.seats if s.character == "vortox")
    first, second = [m for m in members if str(m.id) != demon][:2]
    res = await butcher.slash(w.channel, "announce butcher", player=second)
    assert res.ephemeral and "after today's first execution" in res.response.content
    for voter in [m for m in members if m not in (first, second)][:3]:
        await voter.slash(w.channel, "vote", target=first)
    for _ in range(48):  # to the day's end: the execution, then the Butcher's stage
        await advance(w, clock, 1)
        state = await state_of(w)
        if state.stage == "butcher":
            break
    assert state.phase == "day" and state.stage == "butcher" and not state.seat_of(str(first.id)).alive
    res = await butcher.slash(w.channel, "announce butcher", player=second)
    assert "You nominated" in res.response.content, res.response.content
    for voter in [m for m in members if m not in (first, second)][:2]:
        res = await voter.slash(w.channel, "vote", target=second)
        assert "Your vote is on" in res.response.content, res.response.content
    for _ in range(48):
        await advance(w, clock, 1)
        state = await state_of(w)
        if state.phase != "day":
            break
    assert state.phase == "night" and not state.seat_of(str(second.id)).alive
    square = " ".join(texts(w.channel))
    assert "the Butcher, may nominate again" in square and "the Butcher, nominates" in square


async def test_the_barista_cup_is_told_only_to_the_chosen_player_on_simcord(world, clock):
    w = world
    members = await begun_script(w, "Sects & Violets", edition="snv", pool=POOL, pool_size=7)
    await advance(w, clock, 24)  # day 1
    barista = w.guild.add_member(w.env.create_user("barista"))
    await barista.slash(w.channel, "travel in", seat=11)
    res = await w.host.slash(w.channel, "st traveller add", player=barista, character="barista", alignment="good")
    assert "is the" in res.response.content, res.response.content
    res = await w.host.slash(w.channel, "st traveller barista", player=members[0], effect="sober")
    assert res.ephemeral and "at night" in res.response.content
    for _ in range(60):  # to nightfall (an execution-less day under the Vortox waits for the Storytellers)
        await advance(w, clock, 1)
        state = await state_of(w)
        if state.phase == "ending":
            await w.host.slash(w.channel, "st continue")
            await w.settle()
            state = await state_of(w)
        if state.phase == "night":
            break
    assert state.phase == "night"
    res = await w.host.slash(w.channel, "st traveller barista", player=members[0], effect="sober")
    assert "sober & healthy" in res.response.content, res.response.content
    await w.settle()
    assert any("The Barista" in t and "sober and healthy" in t for t in texts(thread_of(w, members[0])))
    assert not any("Barista:" in t for t in texts(thread_of(w, barista)))
    said = [t for t in texts(w.channel) if "☕" in t or "sober and healthy" in t or "Barista's cup" in t]
    assert not said, said  # the town square heard of the Barista's arrival only
