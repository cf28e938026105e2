"""The bot as an AutoShardedBot on simcord's simulated Discord: one process running two shards plays a
game in a server of each, and a process that runs one shard only re-arms, sweeps and delivers the
games of that shard's servers, leaving the other shard's to the process that takes it over."""

import discord
import pytest
from support.sim import close_made_bots, new_bot


@pytest.fixture
def db_path(store_url):
    """The shared database: these tests run on SQLite and on PostgreSQL."""
    return store_url


@pytest.fixture
async def simcord_bot(db_path, clock):
    """A bot running both shards of two in this one process (SHARD_COUNT=2, no SHARD_IDS)."""
    bot = new_bot(db_path, clock, shard_count=2)
    yield bot
    await bot.close()
    await close_made_bots()  # every bot a test put in place: an open database thread would keep
    # the test process from exiting


class Table:
    """A server on one shard with a games channel and three members."""

    def __init__(self, env, shard_id):
        self.env = env
        self.guild = env.create_guild(f"Shard {shard_id} server", shard_id=shard_id)
        self.channel = self.guild.create_text_channel("games")
        self.host, self.ann, self.bo = (self.guild.add_member(env.create_user(f"{name}{shard_id}"))
                                        for name in ("host", "ann", "bo"))

    async def start_tally(self):
        res = await self.host.slash(self.channel, "game new", kind="tally", options="vote_seconds=60 rounds=1")
        lobby = res.response
        for member in (self.ann, self.bo):
            await member.click(lobby, label="Join")
        await self.host.click(lobby, label="Start")
        await self.env.bot.delivery.wait_idle()
        await self.env.settle()

    def texts(self):
        return [m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds)
                for m in self.channel.history()]

    def resolved(self):
        return any("Round 1: " in t and "wins" in t for t in self.texts())


async def settle(env):
    await env.bot.delivery.wait_idle()
    await env.settle()


async def switch_to(env, bot, old):
    """Put another process in place of ``old`` (simcord detaches a bot without closing its store)."""
    await env.restart_bot(bot)
    await old.store.close()
    old.service.timers.shutdown()


async def test_one_process_runs_two_shards_and_a_game_in_a_server_of_each(simcord_env, db_path, clock):
    env = simcord_env
    assert isinstance(env.bot, discord.AutoShardedClient)
    assert env.bot.settings.shards is None  # it owns every shard's games
    one, two = Table(env, 0), Table(env, 1)
    await env.settle()
    assert {env.bot.get_guild(one.guild.id).shard_id, env.bot.get_guild(two.guild.id).shard_id} == {0, 1}

    await one.start_tally()
    await two.start_tally()
    for table, pick in ((one, "blue"), (two, "red")):
        phase_msg = table.channel.last_message
        prompt = (await table.ann.click(phase_msg, label="Make my choice")).response
        await table.ann.select(prompt, [pick])
    game_one = await env.bot.service.game_in_channel(one.channel.id)
    game_two = await env.bot.service.game_in_channel(two.channel.id)
    assert (await env.bot.service.load(game_one.id)).state.votes == {str(one.ann.id): "blue"}
    assert (await env.bot.service.load(game_two.id)).state.votes == {str(two.ann.id): "red"}

    clock.advance(61)
    assert await env.bot.service.fire_due() == 2  # both timers, each phase closing in its own channel
    await settle(env)
    assert one.resolved() and two.resolved()
    assert not any(str(two.ann.id) in t or "ann1" in t for t in one.texts())
    assert not any(str(one.ann.id) in t or "ann0" in t for t in two.texts())


async def test_a_process_on_one_shard_takes_only_its_shards_games(simcord_env, db_path, clock):
    """Both shards' games are running when the process dies and stays down past their deadlines. The
    process that comes back on shard 0 alone resolves shard 0's game and leaves shard 1's overdue
    phase alone; the process that then takes shard 1 resolves that one, once."""
    env = simcord_env
    one, two = Table(env, 0), Table(env, 1)
    await env.settle()
    await one.start_tally()
    await two.start_tally()
    clock.advance(3600)  # down through both deadlines

    shard_zero = new_bot(db_path, clock, shard_count=2, shard_ids="0")
    await switch_to(env, shard_zero, env.bot)
    await settle(env)
    assert shard_zero.settings.shards.ids == frozenset({0})
    assert one.resolved()
    assert not two.resolved()
    assert (await shard_zero.store.game((await shard_zero.service.game_in_channel(two.channel.id)).id)).phase_seq == 1

    shard_one = new_bot(db_path, clock, shard_count=2, shard_ids="1")
    await switch_to(env, shard_one, shard_zero)
    await settle(env)
    assert two.resolved()
    assert sum("Round 1: " in t and "wins" in t for t in two.texts()) == 1
    assert sum("Round 1: " in t and "wins" in t for t in one.texts()) == 1
