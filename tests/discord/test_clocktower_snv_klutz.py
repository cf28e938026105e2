"""The Klutz on simcord, end to end: a Sects & Violets game where the Klutz dies by day, makes its public
choice with `/announce klutz` in the announcement thread, chooses the Witch, and the Storytellers are asked
to confirm evil's win; the town square reads the choice and nothing of its result or of anyone's character."""

import re

from support.clocktower_helpers import advance, begun_script, state_of, texts

from games.clocktower.script_characters import characters_for

# 7 players: the Fang Gu's +1 Outsider makes the Klutz the one Outsider of this pool
POOL = "Fang Gu, Witch, Klutz, Clockmaker, Dreamer, Oracle, Sage"


def announcement_thread(w):
    return next(t for t in w.channel.threads if t.name.startswith("📣"))


async def test_the_klutz_chooses_the_witch_on_simcord_and_the_storytellers_are_asked_to_end_it(world, clock):
    w = world
    members = await begun_script(w, "Sects & Violets", edition="snv", pool=POOL, pool_size=7)
    state = await state_of(w)
    known = characters_for(state.script)
    by_id = {str(m.id): m for m in members}
    holder = {s.character: by_id[s.player] for s in state.seats}
    assert set(holder) == {"fanggu", "witch", "klutz", "clockmaker", "dreamer", "oracle", "sage"}
    await advance(w, clock, 24)  # dawn of day 1
    klutz, witch = holder["klutz"], holder["witch"]
    thread = announcement_thread(w)
    res = await klutz.slash(thread, "announce klutz", player=witch)
    assert res.ephemeral and "You are alive" in res.response.content  # not yet: it chooses once it died
    res = await w.host.slash(w.channel, "st kill", player=klutz)
    await w.settle()
    res = await klutz.slash(thread, "announce klutz", player=witch)
    assert "Your announcement is noted" in res.response.content, res.response.content
    await w.settle()
    state = await state_of(w)
    assert state.phase == "ending" and state.pending_end is not None and state.pending_end.team == "evil"
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("The game may be over" in t and "the Klutz" in t for t in texts(st_thread))
    assert any(f"{klutz.name} (seat" in t and "as the Klutz" in t for t in texts(thread))
    square = " ".join(texts(w.channel, viewer=members[0]))
    for cid in holder:
        assert not re.search(rf"\b{re.escape(known[cid].name)}\b", square), known[cid].name
    assert "evil" not in square.lower()
