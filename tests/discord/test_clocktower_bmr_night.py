"""Bad Moon Rising's night on simcord: the Innkeeper protects the Zombuul's choice, from the threads'
Make my choice to dawn, and the town square hears only that nobody died."""

from support.clocktower_helpers import advance, sign_up, state_of, texts

POOL = "Zombuul, Assassin, Innkeeper, Chambermaid, Sailor, Gossip, Professor"


def thread_of(w, member):
    return next(t for t in w.channel.threads if t.name.startswith(f"🔒 {member.name} "))


async def choose(w, member, targets):
    ask = next(m for m in reversed(thread_of(w, member).history(viewer=member)) if any(
        "your choice" in (e.title or "") for e in m.embeds))
    prompt = (await member.click(ask, label="Make my choice")).response
    assert prompt.ephemeral
    await member.select(prompt, [str(t.id) for t in targets])
    await w.settle()


async def test_the_innkeepers_choice_survives_the_zombuul_and_the_town_learns_nothing_of_why(world, clock):
    w = world
    members = await sign_up(w, 7)
    res = await w.host.slash(w.channel, "st script", edition="bmr")
    assert "Script loaded: **Bad Moon Rising**" in res.response.content, res.response.content
    res = await w.host.slash(w.channel, "st pool", characters=POOL)
    assert "The pool (7)" in res.response.content, res.response.content
    res = await w.host.slash(w.channel, "st deal")
    assert "Dealt" in res.response.content, res.response.content
    res = await w.host.slash(w.channel, "st begin")
    assert "Night 1 has begun" in res.response.content
    await w.settle()
    await advance(w, clock, 72)  # night 2: nobody died on day 1, so the Zombuul wakes
    state = await state_of(w)
    assert (state.phase, state.night) == ("night", 2)
    by_id = {str(m.id): m for m in members}
    holder = {s.character: by_id[s.player] for s in state.seats}
    victim, other = holder["chambermaid"], holder["gossip"]
    await choose(w, holder["innkeeper"], [victim, other])
    await choose(w, holder["zombuul"], [victim])
    state = await state_of(w)
    assert state.night_choices[str(holder["zombuul"].id)] == [str(victim.id)]
    await advance(w, clock, 24)  # the lock, then dawn
    state = await state_of(w)
    assert state.phase == "day" and state.seat_of(str(victim.id)).alive
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("can't die" in t and "Innkeeper" in t for t in texts(st_thread))
    square = " ".join(texts(w.channel, viewer=other))
    assert "Nobody died in the night" in square
    assert not any(word in square for word in ("Innkeeper", "drunk", "Drunk", "can't die", "Zombuul"))
