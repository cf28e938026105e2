"""The order of a server's member edits (issue 36): the pacer's ranks within a priority, the
reserve a window keeps for the urgent ranks, and how many tables' turns a server's window keeps."""

import asyncio

from support.seconds import SimulatedSeconds

from bot.pacer import URGENT, Pacer
from bot.voice.mutes import MUTE, PREVIOUS, SPEAKER, UNMUTE, keeps, unmutes_per_window, voice_key

KEY = voice_key(1)


async def test_a_full_window_lets_the_speakers_unmute_go_first_whatever_came_first():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(clock=seconds.now, sleep=seconds.sleep)
    sent = []

    async def edit(name, rank):
        await pacer.turn(URGENT, KEY, rank)
        sent.append((name, seconds.t))

    filler = [asyncio.ensure_future(edit(f"first mute {n}", MUTE)) for n in range(10)]
    await asyncio.gather(*filler)  # the window of ten is full until second 10
    waiting = [asyncio.ensure_future(edit(name, rank)) for name, rank in [
        ("a first mute", MUTE), ("an unmute", UNMUTE), ("previous speaker's mute", PREVIOUS),
        ("speaker's unmute", SPEAKER)]]
    await asyncio.gather(*waiting)
    assert [name for name, _t in sent[10:]] == [
        "speaker's unmute", "previous speaker's mute", "an unmute", "a first mute"]


async def test_a_reserve_keeps_room_for_the_speakers_and_only_for_them():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(clock=seconds.now, sleep=seconds.sleep)
    pacer.reserve(KEY, 3)
    sent = []

    async def edit(name, rank):
        await pacer.turn(URGENT, KEY, rank)
        sent.append((name, seconds.t))

    mutes = [asyncio.ensure_future(edit(f"first mute {n}", MUTE)) for n in range(9)]
    await asyncio.sleep(0)
    speakers = [asyncio.ensure_future(edit(f"speaker {n}", SPEAKER)) for n in range(3)]
    await asyncio.gather(*mutes, *speakers)
    at_once = [name for name, t in sent if t == 0.0]
    # seven first mutes at once (ten less the three kept), the three speakers too; two mutes wait
    assert sorted(at_once) == sorted([f"first mute {n}" for n in range(7)] + [f"speaker {n}" for n in range(3)])
    assert all(t >= 10.0 for name, t in sent if name not in at_once)


def test_a_server_keeps_the_turns_its_window_can_carry():
    # a window of ten edits in ten seconds: a table of 8-second turns may start two turns in it
    # (two unmutes, two mutes); one of 14-second turns one
    assert unmutes_per_window([8.0, 8.0]) == 4 and unmutes_per_window([14.0]) == 1
    assert keeps([8.0, 8.0]) and not keeps([8.0, 8.0, 8.0])
    assert keeps([14.0] * 5) and not keeps([14.0] * 6)
    assert keeps([20.0, 8.0, 10.0]) and not keeps([20.0, 8.0, 10.0, 8.0])
