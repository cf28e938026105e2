"""Helpers of the Clocktower tests on simcord: sign-ups, the deal, what a channel says."""

import re

from games.clocktower import load

CHARS = load()
SEATS = [3, 1, 7, 2, 9, 5, 4]
HOUR = 3600.0


def texts(channel, viewer=None):
    return [m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds)
            for m in channel.history(viewer=viewer)]


def character_names(text):
    return {c.name for c in CHARS.characters.values() if re.search(rf"\b{re.escape(c.name)}\b", text)}


async def sign_up(w, n=7):
    res = await w.host.slash(w.channel, "game new", kind="clocktower")
    assert not res.ephemeral and "sign-ups" in res.response.embeds[0].title
    members = w.players(n + 1)[1:]  # the host is the Storyteller, never seated
    for member, seat in zip(members, SEATS + list(range(10, 20)), strict=False):
        res = await member.slash(w.channel, "in", seat=seat)
        assert not res.ephemeral, res.response.content
    return members


async def dealt(w, n=7):
    members = await sign_up(w, n)
    res = await w.host.slash(w.channel, "st deal")
    assert res.ephemeral and "Dealt" in res.response.content, res.response.content
    await w.settle()
    return members


def game_row(w):
    return w.bot.service.game_here(w.channel.id)


async def begun(w, n=7):
    members = await dealt(w, n)
    res = await w.host.slash(w.channel, "st begin")
    assert "Night 1 has begun" in res.response.content
    await w.settle()
    return members


async def state_of(w):
    return (await w.bot.service.load((await game_row(w)).id)).state


async def advance(w, clock, hours):
    clock.advance(hours * HOUR)
    await w.bot.service.fire_due()
    await w.settle()


async def begun_script(w, name, n=7, *, pool=None, pool_size=None, **script):
    """Signed up, the script loaded (``edition=`` by name or ``file=`` a Script Tool file, the name it
    must report), the pool when given (``pool_size``: the count its answer must name), dealt, begun."""
    members = await sign_up(w, n)
    res = await w.host.slash(w.channel, "st script", **script)
    assert f"Script loaded: **{name}**" in res.response.content, res.response.content
    if pool is not None:
        res = await w.host.slash(w.channel, "st pool", characters=pool)
        if pool_size is not None:
            assert f"The pool ({pool_size})" in res.response.content, res.response.content
    res = await w.host.slash(w.channel, "st deal")
    assert "Dealt" in res.response.content, res.response.content
    res = await w.host.slash(w.channel, "st begin")
    assert "Night 1 has begun" in res.response.content
    await w.settle()
    return members


def thread_of(w, member):
    """The member's private thread of the game."""
    return next(t for t in w.channel.threads if t.name.startswith(f"🔒 {member.name} "))


def select_id(prompt, part):
    """The custom id of the prompt's select whose id holds ``part`` (the field's name)."""
    return next(c["custom_id"] for row in prompt.components for c in row["components"]
                if part in c.get("custom_id", ""))


async def choice_prompt(member, thread):
    """The member's latest night ask in their thread, opened with Make my choice: the private prompt."""
    ask = next(m for m in reversed(thread.history(viewer=member)) if any(
        "your choice" in (e.title or "") for e in m.embeds))
    prompt = (await member.click(ask, label="Make my choice")).response
    assert prompt.ephemeral
    return prompt


def storytellers_thread(w):
    return next(t for t in w.channel.threads if "Storytellers" in t.name)


async def copilot_panel(w, clock):
    """A begun game taken to the lock of night 1, and the copilot's panel opened from its "information
    due" message in the Storytellers' thread: (game id, that thread, the message, the panel)."""
    await advance(w, clock, 22)  # the lock of night 1
    gid = (await game_row(w)).id
    st_thread = storytellers_thread(w)
    due_message = next(m for m in st_thread.history() if any("information due" in (e.title or "") for e in m.embeds))
    panel = (await w.host.click(due_message, label="Review and send")).response
    return gid, st_thread, due_message, panel
