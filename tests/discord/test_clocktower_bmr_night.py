"""Bad Moon Rising's night on simcord: the Innkeeper protects the Zombuul's choice, from the threads'
Make my choice to dawn, and the town square hears only that nobody died."""

from support.clocktower_helpers import advance, begun_script, choice_prompt, state_of, texts, thread_of

POOL = "Zombuul, Assassin, Innkeeper, Chambermaid, Sailor, Gossip, Professor"


async def choose(w, member, targets):
    prompt = await choice_prompt(member, thread_of(w, member))
    await member.select(prompt, [str(t.id) for t in targets])
    await w.settle()


async def test_the_innkeepers_choice_survives_the_zombuul_and_the_town_learns_nothing_of_why(world, clock):
    w = world
    members = await begun_script(w, "Bad Moon Rising", edition="bmr", pool=POOL, pool_size=7)
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
