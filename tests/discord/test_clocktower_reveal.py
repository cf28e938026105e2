"""Sects & Violets on simcord, the grimoire's tokens and changes from the deal to the reveal (issue 40,
item 4): the Evil Twin's pair and a Sweetheart's "Drunk" token (it lasts all game, where the
Cerenovus's "Mad" ends at the next lock) on the Storytellers' grimoire (text and picture) and night sheet; the Fang Gu's jump on night 2 told to the jumper only; nothing of it in the
town square or another player's thread; then the reveal with every token, and every character change."""

from support.clocktower_helpers import (
    HOUR,
    begun_script,
    choice_prompt,
    select_id,
    state_of,
    texts,
    thread_of,
)

POOL = "Fang Gu, Evil Twin, Clockmaker, Dreamer, Oracle, Seamstress, Mutant"
SECRETS = ("Drunk (", "Twin (", "became the", "Every character change", "Ability:")


async def to_phase(w, clock, phase, night=0):
    for _ in range(200):
        state = await state_of(w)
        if state.phase == phase and (not night or state.night == night):
            return state
        clock.advance(HOUR)
        await w.bot.service.fire_due()
        await w.settle()
    raise AssertionError(f"never reached {phase} {night}")


async def test_tokens_and_the_fang_gus_jump_reach_the_storytellers_and_the_reveal_only(world, clock):
    w = world
    members = await begun_script(w, "Sects & Violets", edition="snv", pool=POOL, pool_size=7)
    state = await state_of(w)
    by_id = {str(m.id): m for m in members}
    holder = {s.character: by_id[s.player] for s in state.seats}
    assert set(holder) == {"fanggu", "eviltwin", "clockmaker", "dreamer", "oracle", "seamstress", "mutant"}
    good_twin = by_id[next(r.player for r in state.reminders if r.source == "eviltwin")]
    oracle, mutant, fanggu = holder["oracle"], holder["mutant"], holder["fanggu"]
    res = await w.host.slash(w.channel, "st reminder add", player=oracle, token="Drunk", source="Sweetheart")
    assert "Drunk (Sweetheart)" in res.response.content, res.response.content

    # the Storytellers' grimoire: the tokens as text, and the picture drawn from them
    res = await w.host.slash(w.channel, "st grimoire")
    grimoire = res.response.content + " ".join(e.description or "" for e in res.response.embeds)
    assert res.ephemeral and "Drunk (Sweetheart)" in grimoire and "Twin (Evil Twin)" in grimoire
    assert res.response.attachments and res.response.attachments[0].filename == "grimoire.png"

    # night 2: the Fang Gu chooses the Mutant, who becomes the Fang Gu
    await to_phase(w, clock, "night", night=2)
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    sheet = next(t for t in reversed(texts(st_thread)) if "Night 2: the night sheet" in t)
    assert "Drunk (Sweetheart)" in sheet and "Twin (Evil Twin)" in sheet
    prompt = await choice_prompt(fanggu, thread_of(w, fanggu))
    await fanggu.select(prompt, [str(mutant.id)], custom_id=select_id(prompt, "targets"))
    await w.settle()
    state = await to_phase(w, clock, "day", night=2)
    assert state.seat_of(str(mutant.id)).character == "fanggu"
    assert any("You have become an evil Demon" in t for t in texts(thread_of(w, mutant), viewer=mutant))

    # nothing of it where a player reads, before the reveal
    square = " ".join(texts(w.channel, viewer=members[0]))
    for word in SECRETS:
        assert word not in square, word
    for member in members:
        mine = " ".join(texts(thread_of(w, member), viewer=member))
        for word in SECRETS:
            assert word not in mine, (member.name, word)
        assert ("Your twin" in mine) == (member in (holder["eviltwin"], good_twin)), member.name
        if member is not mutant:
            assert "become an evil Demon" not in mine, member.name

    # the reveal: every token where it ended, then every character change of the game
    res = await w.host.slash(w.channel, "st win", team="good", reason="Called by the Storytellers.")
    await w.settle()
    said = texts(w.channel)
    reveal = " ".join(t for t in said if "grimoire, revealed" in t.lower())
    assert "Drunk (Sweetheart)" in reveal and "Twin (Evil Twin)" in reveal and "Once (Fang Gu)" in reveal
    changes = next(t for t in said if "Every character change" in t)
    assert f"night 2, {state.name(str(mutant.id))}: the Mutant became the Fang Gu; good to evil (the Fang Gu)" in changes
