"""DM clicks reach the process that owns the game: two bot processes on one PostgreSQL database,
each running one shard of two. Discord sends every direct-message interaction to shard 0 (simcord
too: an event without a server goes to shard 0, ``simcord.gateway.ShardRouter._event_shard_id``),
so a DM click for a game in a shard-1 server lands on shard 0's process. That process commits the
choice and answers the player, but arms no timer and sends nothing: it hands the game to its owner
with a NOTIFY, and the owner arms and delivers at once, with no sweep.

simcord attaches one bot per test, so the second process (shard 0) is joined to the same simulated
Discord by hand (``join_as_shard_zero``): its own REST client and its own gateway, fed by
simcord's own router. Each process has its own database pool and its own listening connection.
"""

import asyncio

import asyncpg
import pytest
from simcord import _dpy_internals
from simcord.backend import serializers
from simcord.gateway import ShardRouter
from simcord.http import FakeHTTPClient
from support.sim import close_made_bots, new_bot

from bot.postgres import GAME_CHANNEL, GameListener, game_channel
from bot.stores import open_store
from games.engine import IllegalAction


@pytest.fixture
def db_path(request, tmp_path):
    """NOTIFY is PostgreSQL's: these tests run there, unless one asks for SQLite."""
    if getattr(request, "param", "postgresql") == "sqlite":
        return tmp_path / "bot.db"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def simcord_bot(db_path, clock):
    """The process attached to simcord: shard 1 of 2, owner of the shard-1 server's game."""
    bot = new_bot(db_path, clock, shard_count=2, shard_ids="1")
    yield bot
    if bot.listener is not None:
        await bot.listener.stop()
    await close_made_bots()


@pytest.fixture
async def shard_zero(simcord_env, db_path, clock):
    bot = new_bot(db_path, clock, shard_count=2, shard_ids="0")
    await join_as_shard_zero(simcord_env, bot)
    yield bot
    if bot.listener is not None:
        await bot.listener.stop()


async def join_as_shard_zero(env, bot):
    """Run ``bot`` as a second process on the env's simulated Discord, on shard 0 (of 2)."""
    loop = asyncio.get_running_loop()
    _dpy_internals.install_http(bot, FakeHTTPClient(env.backend, loop, message_content_access=True))
    _dpy_internals.set_guild_ready_timeout(bot, 0.0)
    state = _dpy_internals.get_state(bot)
    state.shard_count, state.shard_ids = 2, [0]
    router = ShardRouter(env.backend, state, bot.dispatch, 2, (0,))

    def feed(event, payload):
        with env._bot_scope():  # its work counts as the bot's: env.settle() waits for it too
            router.feed(event, payload)

    env.backend.subscribers.append(feed)
    with env._bot_scope():
        await bot.login("simcord.fake.token")  # setup_hook: the store, the service, the listener
        bot.shard_count = 2
        _dpy_internals.install_shards(bot, router.shards)
        router.identify(0)
        for guild in list(env.backend.guilds.values()):
            router.feed("GUILD_CREATE", serializers.guild_create_payload(env.backend, guild))
    await env.settle()


def rest_calls(bot):
    """Every REST call ``bot`` makes to Discord (interaction answers go by another way)."""
    seen = []
    real = bot.http.request

    async def request(route, **kwargs):
        seen.append((route.method, route.path))
        return await real(route, **kwargs)

    bot.http.request = request
    return seen


class Table:
    """A server on shard 1 with a games channel and a game of Tally (host, ann, bo) under way."""

    def __init__(self, env):
        self.env = env
        self.guild = env.create_guild("Shard 1 server", shard_id=1)
        self.channel = self.guild.create_text_channel("games")
        self.host, self.ann, self.bo = (self.guild.add_member(env.create_user(name)) for name in ("host", "ann", "bo"))

    async def start(self):
        lobby = (await self.host.slash(self.channel, "game new", kind="tally",
                                       options="vote_seconds=60 rounds=2")).response
        for member in (self.ann, self.bo):
            await member.click(lobby, label="Join")
        await self.host.click(lobby, label="Start")
        await self.settle()
        return (await self.env.bot.service.game_in_channel(self.channel.id)).id

    async def settle(self):
        await self.env.bot.delivery.wait_idle()
        await self.env.settle()

    async def vote_in_channel(self, member, colour):
        prompt = (await member.click(self.channel.last_message, label="Make my choice")).response
        return (await member.select(prompt, [colour])).response

    async def vote_by_dm(self, member, colour):
        """Choose from the buttons under the role card in the member's DM: shard 0's process gets it."""
        card = next(m for m in member.user.dm_channel.history() if m.components)
        prompt = (await member.user.click(card, label="Make my choice")).response
        return (await member.user.select(prompt, [colour])).response

    def texts(self):
        return [m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds)
                for m in self.channel.history()]


def watch_handovers(bot):
    """The ids of the games ``bot`` is told of (and adopts)."""
    handed, adopt = [], bot.service.adopt

    async def told(game_id):
        handed.append(game_id)
        return await adopt(game_id)

    bot.listener.on_game = told
    return handed


async def until(check, env, seconds=5.0):
    """Wait (in real time, the game's clock standing still) until ``check()`` holds."""
    for _ in range(int(seconds / 0.02)):
        await env.bot.delivery.wait_idle()
        await env.settle()
        if check():
            return True
        await asyncio.sleep(0.02)
    return check()


@pytest.mark.slow
async def test_a_dm_click_for_another_shards_game_is_armed_and_delivered_by_its_owner(
        simcord_env, shard_zero, clock):
    env, owner = simcord_env, simcord_env.bot
    table = Table(env)
    await env.settle()
    assert owner.listener.listening.is_set() and shard_zero.listener.listening.is_set()
    game_id = await table.start()
    assert env.bot.get_guild(table.guild.id).shard_id == 1 and shard_zero.get_guild(table.guild.id) is None
    await table.vote_in_channel(table.host, "red")
    await table.vote_in_channel(table.ann, "red")
    sent_by_zero = rest_calls(shard_zero)
    handed = watch_handovers(owner)

    # bo's vote, the last one, closes round 1: the commit is shard 0's, the rest the owner's
    answer = await table.vote_by_dm(table.bo, "blue")
    assert answer.ephemeral and "vote is in" in answer.content
    assert await until(lambda: any("Round 2" in t for t in table.texts()), env)
    assert handed == [game_id]
    assert any("Round 1: red wins" in t for t in table.texts())
    # the owner posted round 2's message and started its clock there; nothing was swept
    row = await owner.store.game(game_id)
    assert row.phase_seq == 2 and row.deadline == clock.now() + 60
    assert owner.service.timers.armed[game_id] == (2, row.deadline)
    # shard 0's process armed nothing and sent nothing, not even the game's DMs
    assert game_id not in shard_zero.service.timers.armed
    assert sent_by_zero == []
    assert not shard_zero.delivery._tasks


@pytest.mark.parametrize("db_path", ["sqlite"], indirect=True)
async def test_on_sqlite_the_other_process_only_commits_and_the_owners_sweep_delivers(
        simcord_env, shard_zero, clock):
    env, owner = simcord_env, simcord_env.bot
    assert owner.listener is None and shard_zero.listener is None  # nothing to listen with
    table = Table(env)
    await env.settle()
    game_id = await table.start()
    await table.vote_in_channel(table.host, "red")
    await table.vote_in_channel(table.ann, "red")
    sent_by_zero = rest_calls(shard_zero)

    answer = await table.vote_by_dm(table.bo, "blue")
    assert "vote is in" in answer.content
    await asyncio.sleep(0.1)
    await table.settle()
    assert not any("Round 1: red wins" in t for t in table.texts())  # no one told the owner
    await owner.sweep()
    await table.settle()
    assert any("Round 1: red wins" in t for t in table.texts())
    assert owner.service.timers.armed[game_id][0] == 2
    assert sent_by_zero == [] and game_id not in shard_zero.service.timers.armed

    # round 2: a vote in the channel (the owner caches the game), one by DM; the owner's timeout
    # counts both (it reads the game again: another process may have committed to it)
    await table.vote_in_channel(table.host, "blue")
    assert "Your vote is in; you can change it" in (await table.vote_by_dm(table.bo, "blue")).content
    clock.advance(61)
    assert await owner.service.fire_due() == 1
    await table.settle()
    assert any("Round 2: blue wins" in t for t in table.texts())
    assert sent_by_zero == []


@pytest.mark.slow
async def test_the_player_is_told_their_dm_choice_counted_and_the_owner_counts_on_from_it(
        simcord_env, shard_zero, clock):
    env, owner = simcord_env, simcord_env.bot
    table = Table(env)
    await env.settle()
    game_id = await table.start()
    await table.vote_in_channel(table.host, "blue")
    assert (await owner.service.load(game_id)).state.votes  # the owner has the game cached
    handed = watch_handovers(owner)

    answer = await table.vote_by_dm(table.bo, "red")
    assert answer.ephemeral and "Your vote is in; you can change it" in answer.content
    assert await until(lambda: handed == [game_id], env)
    # the owner read the game again: the next vote in the channel counts, with bo's, and closes the round
    answer = await table.vote_in_channel(table.ann, "red")
    assert "vote is in" in answer.content and "NOT" not in answer.content
    assert await until(lambda: any("Round 1: red wins" in t for t in table.texts()), env)


@pytest.mark.slow
async def test_a_game_handed_over_while_its_owner_is_down_is_recovered_at_start(
        simcord_env, shard_zero, db_path, clock):
    env, owner = simcord_env, simcord_env.bot
    table = Table(env)
    await env.settle()
    game_id = await table.start()
    await table.vote_in_channel(table.host, "red")
    await table.vote_in_channel(table.ann, "red")
    await owner.listener.stop()  # the owner is down: nobody hears the notice

    await table.vote_by_dm(table.bo, "blue")
    await asyncio.sleep(0.2)
    await env.settle()
    assert not any("Round 1: red wins" in t for t in table.texts())

    back = new_bot(db_path, clock, shard_count=2, shard_ids="1")
    await env.restart_bot(back)
    await owner.store.close()
    await back.delivery.wait_idle()
    await env.settle()
    assert any("Round 1: red wins" in t for t in table.texts())
    assert back.service.timers.armed[game_id][0] == 2


async def test_the_listener_listens_again_after_its_connection_is_lost(postgres_url):
    heard, caught_up = asyncio.Queue(), []

    async def again():
        caught_up.append(True)

    listener = GameListener(postgres_url, heard.put, on_again=again, retry_seconds=0.05)
    assert await listener.start()
    try:
        conn = await asyncpg.connect(postgres_url)
        try:
            await conn.execute("SELECT pg_notify($1, '7')", GAME_CHANNEL)
            assert await asyncio.wait_for(heard.get(), 5) == 7
            # the server ends its connection: it is made again at once, and the sweep catches up
            await conn.execute("SELECT pg_terminate_backend($1)", listener.connection.get_server_pid())
            await asyncio.wait_for(until_true(lambda: caught_up and listener.listening.is_set()), 5)
            await conn.execute("SELECT pg_notify($1, 'not a game')", GAME_CHANNEL)
            await conn.execute("SELECT pg_notify($1, '8')", GAME_CHANNEL)
            assert await asyncio.wait_for(heard.get(), 5) == 8
            # a connection found dead by the sweep's check is made again too
            listener.connection.terminate()
            await listener.check()
            await asyncio.wait_for(until_true(lambda: len(caught_up) == 2 and listener.listening.is_set()), 5)
            assert await listener.check()
            await conn.execute("SELECT pg_notify($1, '9')", GAME_CHANNEL)
            assert await asyncio.wait_for(heard.get(), 5) == 9
        finally:
            await conn.close()
    finally:
        await listener.stop()
    assert listener.connection is None


async def until_true(check):
    while not check():
        await asyncio.sleep(0.01)


async def test_a_notice_wakes_only_the_process_that_runs_the_games_shard(postgres_url):
    """Each process listens on its own shards' channels: a hand-over costs one read, by the owner,
    not one by every process."""
    heard = {0: asyncio.Queue(), 1: asyncio.Queue()}
    listeners = {shard: GameListener(postgres_url, heard[shard].put, channels=(game_channel(shard),))
                 for shard in (0, 1)}
    for listener in listeners.values():
        assert await listener.start()
    store = await open_store(postgres_url)
    try:
        await store.notify_game(11, 1)
        assert await asyncio.wait_for(heard[1].get(), 5) == 11
        await store.notify_game(12, 0)
        assert await asyncio.wait_for(heard[0].get(), 5) == 12
        assert heard[0].empty() and heard[1].empty()  # neither heard the other's notice
    finally:
        await store.close()
        for listener in listeners.values():
            await listener.stop()


@pytest.mark.parametrize("db_path", ["sqlite"], indirect=True)
async def test_a_refused_dm_action_caches_nothing_in_the_process_that_does_not_own_the_game(
        simcord_env, shard_zero, clock):
    env = simcord_env
    table = Table(env)
    await env.settle()
    game_id = await table.start()
    with pytest.raises(IllegalAction):  # refused where it landed: shard 0's process
        await shard_zero.service.act(game_id, table.bo.id, {"type": "no such action"})
    # the owner moves the game on: round 1 closes there
    for member, colour in ((table.host, "red"), (table.ann, "red"), (table.bo, "blue")):
        await table.vote_in_channel(member, colour)
    assert (await env.bot.store.game(game_id)).phase_seq == 2
    # shard 0's process reads the game as it is now, not as it was when the action was refused
    assert (await shard_zero.service.load(game_id)).state.phase_seq == 2
