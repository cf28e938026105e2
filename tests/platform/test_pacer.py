"""The pacer's windows and order, on a clock the test moves."""

import asyncio

from support.seconds import SimulatedSeconds

from bot.pacer import COSMETIC, NARRATION, URGENT, Pacer, Window


def test_a_window_allows_its_limit_in_any_stretch_of_its_length():
    window = Window(2, 1.0)
    assert window.free_at(0.0) == 0.0
    window.take(0.0)
    window.take(0.4)
    assert window.free_at(0.5) == 1.0  # the third waits until the first is a second old
    assert window.free_at(1.0) == 1.0
    window.take(1.0)
    assert window.free_at(1.2) == 1.4


async def test_the_most_urgent_goes_first_and_a_full_channel_lets_others_pass():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(per_second=2, per_channel=1, channel_seconds=10.0, clock=seconds.now, sleep=seconds.sleep)
    order = []

    async def call(name, priority, channel):
        await pacer.turn(priority, channel)
        order.append((name, seconds.t))

    tasks = [asyncio.ensure_future(call(n, p, c)) for n, p, c in [
        ("edit", COSMETIC, "a"), ("story", NARRATION, "b"), ("opener", URGENT, "c"),
        ("card", URGENT, "c"), ("prompt", URGENT, "d")]]
    await asyncio.gather(*tasks)
    # the first two arrivals go at once (the window was empty); then by urgency, each second two,
    # and the card waits ten seconds behind the opener in channel c while the others pass it
    assert order[:2] == [("edit", 0.0), ("story", 0.0)]
    assert order[2:4] == [("opener", 1.0), ("prompt", 1.0)]
    assert order[4] == ("card", 11.0)
    assert pacer.served == [3, 1, 1]


async def test_a_servers_member_edits_have_their_own_window_of_ten_in_ten_seconds():
    """The voice table's server mutes: a table of ten goes at once, the eleventh waits ten seconds;
    a channel's messages keep their own window."""
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(per_second=50, per_channel=5, channel_seconds=5.0, clock=seconds.now, sleep=seconds.sleep)
    times: list[float] = []

    async def mute():
        await pacer.turn(URGENT, (("voice", 1), "edit_member"))
        times.append(seconds.t)

    await asyncio.gather(*[mute() for _ in range(11)])
    assert times[:10] == [0.0] * 10 and times[10] == 10.0
    sends: list[float] = []

    async def send():
        await pacer.turn(URGENT, (("channel", 1), "send"))
        sends.append(seconds.t)

    await asyncio.gather(*[send() for _ in range(6)])
    assert sends.count(sends[0]) == 5 and sends[5] == sends[0] + 5.0


async def test_the_budget_is_pressed_from_half_a_second_used_or_anyone_waiting():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(per_second=4, per_channel=100, clock=seconds.now, sleep=seconds.sleep)
    assert not pacer.pressed()
    await pacer.turn(URGENT, "a")
    assert not pacer.pressed()  # one of four
    await pacer.turn(URGENT, "b")
    assert pacer.pressed()  # half of the second's budget used
    await seconds.sleep(1.0)
    assert not pacer.pressed()  # that second is over
    for channel in "abcd":
        await pacer.turn(URGENT, channel)
    late = asyncio.ensure_future(pacer.turn(URGENT, "e"))
    await asyncio.sleep(0)
    assert pacer.waiting == 1 and pacer.pressed()
    await late
    pacer.ease(0.6)  # Discord's invalid requests many: pressed whatever the second holds
    await seconds.sleep(5.0)
    assert pacer.pressed()
