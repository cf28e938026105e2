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
