"""The offline table's pieces in-process: the world, the clock pump, the hub, a restart."""

import asyncio
import json
import sqlite3
import time

import aiohttp
import discord
import pytest

from bot.delivery import player_key
from bot.offline import OfflineTable
from bot.offline.table import AlreadyRunning
from bot.offline.world import NameError_, player_names, stable_id


def test_player_names():
    assert player_names(3, "") == ["Ann", "Bo", "Cy"]
    assert player_names(None, "Zed, Ann") == ["Zed", "Ann"]
    assert player_names(4, "Zed,Ann") == ["Zed", "Ann", "Bo", "Cy"]  # topped up, no duplicate Ann
    assert len(player_names(None, "")) == 5
    with pytest.raises(NameError_, match="same name"):
        player_names(None, "ann,Ann")
    with pytest.raises(NameError_, match="not a usable name"):
        player_names(None, "<script>")
    with pytest.raises(NameError_, match="at most"):
        player_names(26, "")
    for bad in ("<@123>", "a\tb", "#table", "x" * 33):
        with pytest.raises(NameError_, match="not a usable name"):
            player_names(None, bad)


def test_a_name_with_an_emoji_or_any_script_is_welcome():
    assert player_names(None, "Ann 🎲, 李雷, José, 👩‍👩‍👧") == ["Ann 🎲", "李雷", "José", "👩‍👩‍👧"]


async def test_a_player_named_with_an_emoji_sits_and_plays(open_table, start_tally, texts):
    async with open_table(("Ann 🎲", "李雷", "🎯")) as table:
        w = table.world
        assert [m.user.global_name for m in w.players] == ["Ann 🎲", "李雷", "🎯"]
        await start_tally(table, "vote_seconds=5 rounds=1")
        assert any("Ann 🎲" in t for t in texts(w.channel.history())), texts(w.channel.history())


def test_ids_depend_only_on_names():
    assert stable_id("user", "Ann") == stable_id("user", "ann") != stable_id("user", "Bo")
    assert stable_id("user", "Ann") != stable_id("guild", "Ann")
    assert 0 < stable_id("user", "Ann") < 1 << 63


async def test_world_ids_are_stable_across_runs(open_table):
    seen = []
    for names in (("Ann", "Bo", "Cy"), ("Cy", "Ann", "Bo")):
        async with open_table(names, open_preview=False, announce=False) as table:
            w = table.world
            ids = {m.user.global_name: m.id for m in w.players}
            assert ids["Ann"] == stable_id("user", "Ann")
            seen.append((w.guild.id, w.channel.id, ids))
            # the bot sees the world as on Discord
            assert table.bot.get_channel(w.channel.id).name == "table"
            member = await table.bot.get_guild(w.guild.id).fetch_member(ids["Bo"])
            assert member.display_name == "Bo"
    assert seen[0] == seen[1]


async def test_the_pump_fires_a_phase_timer_in_real_time(open_table, start_tally, texts):
    async with open_table(pump_interval=0.2) as table:
        w = table.world
        await start_tally(table, "vote_seconds=5 rounds=1")
        started = time.monotonic()
        row = (await table.bot.store.active_games(w.guild.id))[0]
        assert row.deadline == pytest.approx(time.time() + 5, abs=1.5)  # the bot's real clock
        assert not any("Round 1: " in t and "wins" in t for t in texts(w.channel.history()))
        refreshes = table.refreshes
        while not any("Game over" in t for t in texts(w.channel.history())):
            assert time.monotonic() - started < 12, "the phase timer did not fire"
            await asyncio.sleep(0.1)
        elapsed = time.monotonic() - started
        assert 4 <= elapsed <= 8, elapsed
        # simulated time kept up with real time, so timestamps read like the wall clock
        assert abs(table.env.now().timestamp() - time.time()) < 2
        last = w.channel.history()[-1]  # the game's board, its last events edited in just now
        assert abs((last.edited_at or last.created_at).timestamp() - time.time()) < 3
        # ...and the browser's pages were republished for a change nobody clicked
        await asyncio.sleep(0.6)
        assert table.refreshes > refreshes
        async with table.acting():
            snap = await table.preview.snapshot()
        assert "Game over" in str(snap)


async def test_hub_shows_each_player_their_private_messages_escaped(open_table, start_tally):
    async with open_table() as table:
        w = table.world
        ann, bo = w.players[0], w.players[1]
        await start_tally(table)
        async with table.acting():
            await (await table.bot.fetch_user(ann.id)).send(
                f"<script>alert('x')</script> **bold** *soft* `code` for <@{bo.id}> "
                f"ends <t:{int(time.time()) + 90}:R>")
            # a private thread, as the Clocktower game will open: only its members see it
            channel = table.bot.get_channel(w.channel.id)
            thread = await channel.create_thread(name="whisper-ann", type=discord.ChannelType.private_thread)
            await thread.add_user(discord.Object(ann.id))
            await thread.send("only for <b>Ann</b>")
        base = table.hub_url
        async with aiohttp.ClientSession() as http:
            async with http.get(base) as r:
                assert r.status == 200
                index = await r.text()
            assert "Ann" in index and "Bo" in index and table.preview_url in index
            async with http.get(f"{base}p/{ann.id}") as r:
                page = await r.text()
            async with http.get(f"{base}p/{bo.id}") as r:
                other = await r.text()
            async with http.get(base.replace(table.secret, "x" * 43)) as r:
                assert r.status == 404
            async with http.get(base.replace(table.secret, "x" * 43) + f"p/{ann.id}") as r:
                assert r.status == 404
            async with http.get(f"{base}p/12345") as r:
                assert r.status == 404
            async with http.get(f"{base}version") as r:
                assert (await r.text()).isdigit()
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
        assert "<script>alert" not in page
        assert "<strong>bold</strong>" in page and "<em>soft</em>" in page and "<code>code</code>" in page
        assert "@Bo" in page and "in 1 minute" in page
        assert "secret animal" in page  # the game's DM
        assert "whisper-ann" in page and "only for &lt;b&gt;Ann&lt;/b&gt;" in page
        assert "alert" not in other and "whisper-ann" not in other
        assert "secret animal" in other  # Bo's own card


async def test_a_restart_with_the_same_database_resumes_the_game(open_table, start_tally, texts, settings):
    async with open_table(announce=True) as table:
        w = table.world
        await start_tally(table, "vote_seconds=600 rounds=2")
        phase = [m for m in w.channel.history() if m.components][-1]
        async with table.acting():
            prompt = (await w.players[1].click(phase, label="Make my choice")).response
            await w.players[1].select(prompt, ["blue"])
        old_ids = (w.channel.id, [m.id for m in w.players])
        secret = table.secret

    async with open_table(announce=True) as table:
        w = table.world
        assert (w.channel.id, [m.id for m in w.players]) == old_ids
        assert table.secret == secret  # the same URLs after a restart
        channel = texts(w.channel.history())
        assert any("goes on" in t and "Round 1" in t for t in channel), channel
        resumed = [m for m in w.channel.history() if m.components][-1]
        async with table.acting():
            res = await w.players[2].click(resumed, label="Make my choice")
            assert res.ephemeral
            await w.players[2].select(res.response, ["red"])
        game_id = (await table.bot.store.active_games(w.guild.id))[0].id
        state = (await table.bot.service.load(game_id)).state
        assert state.votes == {str(w.players[1].id): "blue", str(w.players[2].id): "red"}


async def test_private_threads_per_player_and_after_a_restart(open_table, start_tally):
    """Forum games send secrets to a private thread per player (a host who plays is in their own only)."""
    async with open_table() as table:
        w = table.world
        ann, bo, cy = w.players
        await start_tally(table, "vote_seconds=600", kind="tally_threads")
        async with table.acting():
            await table.env.settle()
        assert len(w.threads()) == 3
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{table.hub_url}p/{bo.id}") as r:
                bo_page = await r.text()
            async with http.get(f"{table.hub_url}p/{ann.id}") as r:
                host_page = await r.text()
        assert "Bo · game 1" in bo_page and "secret animal" in bo_page and "private thread" in bo_page
        assert "Cy · game 1" not in bo_page
        # Ann hosts and plays: a seated player never sits in another player's thread
        assert "Ann · game 1" in host_page and not any(f"{n} · game 1" in host_page for n in ("Bo", "Cy"))
        game = (await table.bot.store.active_games(w.guild.id))[0]
        old_thread, _members = await table.bot.store.group_thread(game.id, player_key(bo.id))

    async with open_table() as table:  # the simulated Discord starts with no threads
        w = table.world
        assert w.threads() == []
        assert await table.bot.store.group_thread(game.id, player_key(w.players[1].id)) is None
        async with table.acting():  # the next private message opens a new thread
            uid = w.players[1].id
            thread = await table.bot.delivery._group_thread(game, player_key(uid), [uid])
            await thread.send("again")
        assert thread.id != old_thread and [t.id for t in w.threads()] == [thread.id]


async def test_an_overdue_phase_resolves_at_restart(open_table, start_tally, texts, settings):
    async with open_table() as table:
        await start_tally(table, "vote_seconds=600 rounds=1")
    # the table was down through the deadline
    with sqlite3.connect(settings.database_path) as db:
        db.execute("UPDATE games SET deadline = deadline - 700")
    async with open_table() as table:
        w = table.world
        assert any("Game over" in t for t in texts(w.channel.history()))


class PageClient:
    """What the preview's page does over HTTP (see simcord's static/app.js)."""

    def __init__(self, http, url, viewer_id):
        self.http = http
        self.base, capability = url.split("/#")
        self.headers = {"X-Simcord-Capability": capability, "Origin": self.base}
        self.viewer_id = str(viewer_id)
        self.sequence = 0

    async def open(self):
        async with self.http.post(self.base + "/api/pages", json={"viewer_id": self.viewer_id},
                                  headers=self.headers) as r:
            page = await r.json()
        self.headers["X-Simcord-Context"] = page["context"]["id"]
        async with self.http.get(self.base + "/api/commands", headers=self.headers) as r:
            self.catalog = await r.json()
        return page["context"]["id"]

    async def state(self):
        async with self.http.get(self.base + "/api/state", headers=self.headers) as r:
            return await r.json()

    async def command(self, invocation, options, state=None):
        entry = next(e for e in self.catalog["entries"] if e["invocation"] == invocation)
        state = state or await self.state()
        self.sequence += 1
        body = {
            "protocol_version": 3, "sequence": self.sequence, "request_id": f"t-{self.sequence}",
            "generation": state["context"]["generation"], "bot_generation": state["botGeneration"],
            "published_revision": state["publishedRevision"], "kind": "run_command",
            "command_id": entry["commandId"], "path": entry["path"],
            "schema_fingerprint": entry["schemaFingerprint"], "options": options,
        }
        async with self.http.post(self.base + "/api/action", json=body, headers=self.headers) as r:
            assert r.status == 200, await r.text()
            return await r.json()

    async def send(self, content):
        """What the message box sends on Enter."""
        state = await self.state()
        self.sequence += 1
        body = {
            "protocol_version": 3, "sequence": self.sequence, "request_id": f"t-{self.sequence}",
            "generation": state["context"]["generation"], "bot_generation": state["botGeneration"],
            "published_revision": state["publishedRevision"], "kind": "send_message", "content": content,
        }
        async with self.http.post(self.base + "/api/action", json=body, headers=self.headers) as r:
            assert r.status == 200, await r.text()
            return await r.json()


async def test_browser_actions_and_the_pump_do_not_collide(open_table):
    """The page's actions over HTTP while the pump advances time and refreshes every 10 ms."""
    async with open_table(pump_interval=0.01) as table:
        async with aiohttp.ClientSession() as http:
            page = PageClient(http, table.preview_url, table.world.players[1].id)
            await page.open()
            results = []
            for _ in range(8):
                results.append(await page.command("game rules", {"kind": "tally"}))
                await asyncio.sleep(0.05)
        assert [r.get("settlement") for r in results] == ["settled"] * 8, results
        assert table.gate.actions == 8


async def test_every_tab_sees_what_another_tab_did_and_only_stale_tabs_are_republished(open_table):
    async with open_table(pump_interval=0.05) as table, aiohttp.ClientSession() as http:
        ann = PageClient(http, table.preview_url, table.world.players[0].id)
        bo = PageClient(http, table.preview_url, table.world.players[1].id)
        await ann.open()
        await bo.open()
        result = await bo.command("game new", {"kind": "tally"})
        assert result["settlement"] == "settled", result
        bo_revision = (await bo.state())["publishedRevision"]
        for _ in range(40):  # Ann's tab learns of Bo's lobby without doing anything
            if "gathering players" in json.dumps(await ann.state()):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("Ann's tab never showed Bo's lobby")
        await asyncio.sleep(0.3)
        assert (await bo.state())["publishedRevision"] == bo_revision  # Bo's tab was already current


async def test_a_click_is_not_refused_because_the_table_refreshed_meanwhile(open_table):
    async with open_table(pump_interval=0.05) as table, aiohttp.ClientSession() as http:
        page = PageClient(http, table.preview_url, table.world.players[1].id)
        await page.open()
        seen = await page.state()  # what the page shows...
        for n in range(3):  # ...while the bot posts in the background (a timer, another tab)
            refreshes = table.refreshes
            async with table.acting():
                await table.bot.get_channel(table.world.channel.id).send(f"background {n}")
            while table.refreshes == refreshes:
                await asyncio.sleep(0.05)
        assert (await page.state())["publishedRevision"] > seen["publishedRevision"]
        result = await page.command("game rules", {"kind": "tally"}, state=seen)
        assert result["settlement"] == "settled", result
        assert table.gate.rebased == 1
        # a revision the player's own action superseded still binds, as simcord means it to
        result = await page.command("game rules", {"kind": "tally"}, state=seen)
        assert result.get("settlement") != "settled"
        assert "stale-revision" in str(result)


async def test_the_table_reopens_when_the_preview_is_ended_from_the_browser(open_table):
    async with open_table() as table:
        url = table.preview_url
        await table.preview.close()
        for _ in range(50):
            await asyncio.sleep(0.1)
            if table.preview_url:
                break
        assert table.preview_url is not None
        assert table.preview_url.split("#")[1] == url.split("#")[1]  # same secret


async def test_a_tab_left_alone_for_an_hour_still_works(open_table):
    async with open_table() as table, aiohttp.ClientSession() as http:
        page = PageClient(http, table.preview_url, table.world.players[0].id)
        context = await page.open()
        table.preview._pages[context].last_activity -= 3600  # simcord's lease is 10 minutes
        assert (await page.command("game rules", {"kind": "tally"}))["settlement"] == "settled"


async def test_many_tabs_never_lock_anyone_out(open_table):
    async with open_table() as table, aiohttp.ClientSession() as http:
        first = PageClient(http, table.preview_url, table.world.players[0].id)
        await first.open()
        for _ in range(20):  # simcord allows 16 pages; the oldest tab is released instead
            await PageClient(http, table.preview_url, table.world.players[1].id).open()
        async with http.get(first.base + "/api/state", headers=first.headers) as r:
            assert r.status == 410  # the page says "reload"; a reload opens a new one


async def test_one_table_per_database(open_table):
    async with open_table(open_preview=False):
        with pytest.raises(AlreadyRunning, match="already running"):
            async with open_table(open_preview=False):
                pass
    async with open_table(open_preview=False):  # free again once the first one stopped
        pass


async def test_stop_closes_everything(settings):
    table = OfflineTable(settings, ["Ann", "Bo"], port=0, hub_port=0)
    await table.start()
    hub = table.hub_url
    await table.stop()
    assert table.preview_url is None
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.ClientConnectionError):
            await http.get(hub)
    assert table.bot.is_closed()


def two_ports_side_by_side() -> list:
    """Two bound sockets on neighbouring ports (P, P + 1), held busy by the caller."""
    import socket

    for _ in range(50):
        first = socket.socket()
        first.bind(("127.0.0.1", 0))
        port = first.getsockname()[1]
        second = socket.socket()
        try:
            second.bind(("127.0.0.1", port + 1))
        except OSError:
            first.close()
            second.close()
            continue
        for s in (first, second):
            s.listen()
        return [first, second]
    raise AssertionError("no two neighbouring free ports in 50 tries")


async def test_busy_ports_are_named_for_the_table_and_the_hub(open_table):
    """--port P with P and P + 1 taken: the notes say where the table and its hub went."""
    busy = two_ports_side_by_side()
    port = busy[0].getsockname()[1]
    try:
        async with open_table(port=port, hub_port=None) as table:
            table_port = int(table.preview_url.split(":")[2].split("/")[0])
            assert table_port != port and table.hub.port != port + 1
            notes = " ".join(table.notes)
            assert f"Port {port} was busy, so the table uses port {table_port}" in notes
            assert f"Port {port + 1} was busy, so the table hub uses port {table.hub.port}" in notes
    finally:
        for s in busy:
            s.close()


async def test_a_command_typed_and_sent_with_enter_runs(open_table):
    """``/game new ritual`` typed in the box and sent (what the welcome card invites) opens the
    game, as picking /game new from the list would; it is not posted as chat."""
    async with open_table() as table, aiohttp.ClientSession() as http:
        w = table.world
        page = PageClient(http, table.preview_url, w.host.id)
        await page.open()
        result = await page.send("/game new ritual speaking_turns=true")
        assert not result["rejected"], result
        [row] = await table.bot.store.active_games(w.guild.id)
        assert (row.kind, row.status, row.host_id) == ("ritual", "lobby", w.host.id)
        assert "speaking_turns" in row.options
        assert not [m for m in w.channel.history() if m.content.startswith("/game")]

        result = await page.send("/game join")  # Ann is in it already: the bot says so
        assert not result["rejected"], result


async def test_a_typed_command_that_cannot_run_is_answered_with_how(open_table):
    async with open_table() as table, aiohttp.ClientSession() as http:
        w = table.world
        page = PageClient(http, table.preview_url, w.host.id)
        await page.open()
        for typed, words in (("/game nwe ritual", "/game new"), ("/dance", "There is no /dance command"),
                             ("/game new", "/game new needs kind")):
            result = await page.send(typed)
            assert not result["rejected"], result
            last = w.channel.history()[-1]
            assert last.author.id == table.bot.user.id and words in last.content, (typed, last.content)
        assert await table.bot.store.active_games(w.guild.id) == []
        # plain chat stays chat
        await page.send("hello / there")
        assert w.channel.history()[-1].content == "hello / there"
