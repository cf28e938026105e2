"""The offline table as a Storyteller's practice room (issue 27, items 12-14): every thread of a
Clocktower game opens on the table from the hub, where its members press its buttons, pick in its
selects, fill its forms and write; nobody else can; the hub's hints say what works."""

import json
import re

import aiohttp
import discord
import pytest

import bot.service
from games.clocktower import load
from games.clocktower.copilot import proposals

CHARS = load()

NAMES = ["Sam", "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture(autouse=True)
def same_deal(monkeypatch):
    monkeypatch.setattr(bot.service, "new_seed", lambda: 27)  # the same characters every run


class RoomPage:
    """What a browser tab on a thread's room does over HTTP (see simcord's static/app.js)."""

    def __init__(self, http, url):
        self.http = http
        self.base, capability = url.split("/#")
        self.headers = {"X-Simcord-Capability": capability, "Origin": self.base}
        self.sequence = 0

    async def open(self, viewer_id=None):
        body = {} if viewer_id is None else {"viewer_id": str(viewer_id)}
        async with self.http.post(self.base + "/api/pages", json=body, headers=self.headers) as r:
            if r.status != 200:
                return r.status, await r.text()
            page = await r.json()
        self.headers["X-Simcord-Context"] = page["context"]["id"]
        return r.status, page

    async def state(self):
        async with self.http.get(self.base + "/api/state", headers=self.headers) as r:
            return await r.json()

    async def command(self, invocation, options):
        """Type a slash command in the page's message box."""
        async with self.http.get(self.base + "/api/commands", headers=self.headers) as r:
            catalog = await r.json()
        entry = next(e for e in catalog["entries"] if e["invocation"] == invocation)
        return await self.act("run_command", command_id=entry["commandId"], path=entry["path"],
                              schema_fingerprint=entry["schemaFingerprint"], options=options)

    async def act(self, kind, **fields):
        state = await self.state()
        self.sequence += 1
        body = {"protocol_version": 3, "sequence": self.sequence, "request_id": f"t-{self.sequence}",
                "generation": state["context"]["generation"], "bot_generation": state["botGeneration"],
                "published_revision": state["publishedRevision"], "kind": kind, **fields}
        async with self.http.post(self.base + "/api/action", json=body, headers=self.headers) as r:
            assert r.status == 200, await r.text()
            result = await r.json()
        assert result.get("settlement") == "settled", result
        return result

    async def control(self, label):
        """The newest message showing a button or select with this label or placeholder."""
        state = await self.state()
        for message in sorted(state["messages"].values(), key=lambda m: int(m["id"]), reverse=True):
            for row in message.get("components") or []:
                for item in row.get("components") or []:
                    if label in (item.get("label"), item.get("placeholder")):
                        return message, item
        raise AssertionError(f"no {label!r} on the page")

    async def click(self, label):
        message, item = await self.control(label)
        return await self.act("click", target_id=message["id"], control_key=item["control_key"])

    async def select(self, placeholder, values):
        message, item = await self.control(placeholder)
        return await self.act("select", target_id=message["id"], control_key=item["control_key"],
                              values=values)

    async def said(self):
        """Every message the page shows, as text (its ephemeral answers included)."""
        state = await self.state()
        return [m["content"] + " " + " ".join(e.get("description") or "" for e in m["embeds"])
                for m in sorted(state["messages"].values(), key=lambda m: int(m["id"]))]


async def _game_at(table, skips):
    """Sam is the Storyteller of a dealt and begun game; then ``skips`` /mod skip."""
    w = table.world
    st, players = w.host, w.players[1:]
    async with table.acting():
        await st.slash(w.channel, "game new", kind="clocktower", options="announce_anywhere=true")
        for seat, member in enumerate(players, start=1):
            await member.slash(w.channel, "in", seat=seat)
        await st.slash(w.channel, "st deal")
        await st.slash(w.channel, "st begin")
        await table.env.settle()
        for _ in range(skips):
            await st.slash(w.channel, "mod skip")
            await table.env.settle()
        return (await table.bot.store.active_games(w.guild.id))[0]


def _thread(table, name):
    return next(t for t in table.world.threads() if name in (t.name or ""))


async def _room_url(http, table, member, thread):
    """The hub's Open on the table link of ``thread`` on ``member``'s page, followed."""
    async with http.get(f"{table.hub_url}p/{member.id}") as r:
        page = await r.text()
    link = f"/p/{member.id}/t/{thread.id}"
    assert f'{link}" target="_blank" rel="noopener">Open on the table</a>' in page
    async with http.get(f"{table.hub_url}{link[1:]}", allow_redirects=False) as r:
        assert r.status == 303, await r.text()
        return r.headers["Location"]


async def test_the_storyteller_reviews_and_sends_on_the_table(open_table):
    """Item 12: Review and send, its selects and the Write the answer form, in the Storytellers'
    thread opened on the table."""
    async with open_table(NAMES) as table, aiohttp.ClientSession() as http:
        w = table.world
        st = w.host
        game = await _game_at(table, 2)  # the night's lock: the information due is in the thread
        state = (await table.bot.service.load(game.id)).state
        chars = (await table.bot.service.load(game.id)).game.chars_of(state)
        due = [p for p in proposals(state, chars) if p.ready]
        assert len(due) >= 2, due
        room = RoomPage(http, await _room_url(http, table, st, _thread(table, "Storytellers")))
        status, page = await room.open()
        assert status == 200 and page["viewerId"] == str(st.id)  # opened as the Storyteller
        assert page["channel"]["canSendMessages"] and page["channel"]["canUseApplicationCommands"]

        await room.click("Review and send")  # the ephemeral panel, only for the Storyteller
        panel, _ = await room.control("Accept as proposed…")
        assert panel["ephemeral"] and "information due" in " ".join(await room.said())
        first, second = due[0], due[1]
        await room.select("Accept as proposed…", [first.player])
        state = (await table.bot.service.load(game.id)).state
        assert state.accepted[first.player].answer == first.answer

        await room.click("Review and send")
        await room.select("Edit one answer…", [second.player])
        await room.click("Write the answer")  # the form opens on the page
        form = (await room.state())["modal"]
        assert form is not None and '"custom_id": "answer"' in json.dumps(form)
        await room.act("modal_submit", modal_handle=form["handle"], values={"answer": second.answer})
        state = (await table.bot.service.load(game.id)).state
        assert state.accepted[second.player].answer == second.answer
        assert (await room.state())["modal"] is None


async def test_players_write_in_their_thread_and_a_whisper_and_nobody_else_can(open_table):
    """Item 13: a player writes in their own thread and in a declared whisper's thread on the
    table; a player outside either can neither open it from the hub nor view it as themselves."""
    async with open_table(NAMES) as table, aiohttp.ClientSession() as http:
        w = table.world
        ann, bo, cy = w.players[1:4]
        game = await _game_at(table, 3)  # day 1
        before = {t.id for t in w.threads()}
        # Ann declares the whisper in the announcement thread, opened on the table
        square = RoomPage(http, await _room_url(http, table, ann, _thread(table, "Announcements")))
        await square.open()
        await square.command("whisper", {"player": str(bo.id)})
        assert any("Your whisper with" in text for text in await square.said())
        own = _thread(table, "Ann ·")
        state = (await table.bot.service.load(game.id)).state
        mine = CHARS[state.seat_of(str(ann.id)).shown].name
        [whisper] = [t for t in w.threads() if t.id not in before]

        room = RoomPage(http, await _room_url(http, table, ann, own))
        status, page = await room.open()
        assert status == 200 and page["viewerId"] == str(ann.id) and page["channel"]["canSendMessages"]
        await room.act("send_message", content="Storyteller, a question about my card")
        assert "Storyteller, a question about my card" in [m.content for m in own.history()]
        await room.click("My hand")  # her thread's buttons answer her, privately
        answer = [m for m in (await room.state())["messages"].values() if m["ephemeral"]]
        assert answer and any(mine in json.dumps(m) for m in answer), answer
        status, storyteller = await RoomPage(http, room.base + "/#" + table.secret).open(w.host.id)
        assert status == 200 and not any(m["ephemeral"] for m in storyteller["messages"].values())

        room = RoomPage(http, await _room_url(http, table, bo, whisper))
        status, page = await room.open()
        assert status == 200 and page["viewerId"] == str(bo.id)
        await room.act("send_message", content="Ann, I am the Chef")
        assert "Ann, I am the Chef" in [m.content for m in whisper.history()]

        # Cy is in neither: the hub has no link for him and refuses the address...
        for thread in (own, whisper):
            async with http.get(f"{table.hub_url}p/{cy.id}/t/{thread.id}", allow_redirects=False) as r:
                assert r.status == 404 and "That thread is not one of yours." in await r.text()
        # ...and the room does not let anyone view it as him
        status, text = await RoomPage(http, room.base + "/#" + table.secret).open(viewer_id=cy.id)
        assert status != 200 and "Chef" not in text


async def test_the_hub_points_a_storyteller_to_what_works(open_table):
    """Item 14: no "My hand" for a Storyteller's grimoire picture; `/st grimoire` instead, and
    the picture itself in the thread opened on the table."""
    async with open_table(NAMES) as table, aiohttp.ClientSession() as http:
        w = table.world
        st, ann = w.host, w.players[1]
        await _game_at(table, 0)
        async with http.get(f"{table.hub_url}p/{st.id}") as r:
            page = await r.text()
        async with http.get(table.hub_url) as r:
            index = await r.text()
        async with http.get(f"{table.hub_url}p/{ann.id}") as r:
            player = await r.text()
        assert "with My hand]" not in page
        assert "a picture: open this thread on the table to see it" in page
        assert "<code>/st grimoire</code>, typed on the table, shows you the grimoire" in page
        assert "/st grimoire" not in player  # a player is no Storyteller
        assert "<code>/st grimoire</code> shows them the whole truth" in index
        assert "Read-only" not in index and "Open on the table" in index
        # the hint is true: the grimoire picture is on the Storytellers' thread's page...
        room = RoomPage(http, await _room_url(http, table, st, _thread(table, "Storytellers")))
        _, shown = await room.open()
        images = [e["image"] for m in shown["messages"].values() for e in m["embeds"] if e.get("image")]
        assert images and all(i["available"] for i in images)
        # ...and /st grimoire, typed there, answers the Storyteller with the picture
        async with table.acting():
            res = await st.slash(_thread(table, "Storytellers"), "st grimoire")
        assert res.ephemeral and res.response.attachments
        assert re.search(r"Grimoire", res.response.content)


async def test_a_room_follows_its_threads_members(open_table):
    """Someone added to a thread (a co-Storyteller, a whisper) gets into its room at the same
    address; someone removed is shut out of the room they had open."""
    async with open_table() as table, aiohttp.ClientSession() as http:
        w = table.world
        ann, bo = w.players[0], w.players[1]
        async with table.acting():
            thread = await table.bot.get_channel(w.channel.id).create_thread(
                name="whisper-ann", type=discord.ChannelType.private_thread)
            await thread.add_user(discord.Object(ann.id))
        handle = _thread(table, "whisper-ann")
        url = await _room_url(http, table, ann, handle)
        async with http.get(f"{table.hub_url}p/{bo.id}/t/{handle.id}", allow_redirects=False) as r:
            assert r.status == 404
        async with table.acting():
            await thread.add_user(discord.Object(bo.id))
        assert await _room_url(http, table, bo, handle) == url  # reopened for Ann and Bo
        page = RoomPage(http, url)
        status, shown = await page.open()
        assert status == 200 and shown["viewerId"] == str(bo.id)
        await page.act("send_message", content="hello Ann")
        assert "hello Ann" in [m.content for m in handle.history()]
        ann_page = RoomPage(http, url)
        await ann_page.open(ann.id)
        async with table.acting():
            await thread.send("the bot speaks")
        await table.pump_once()  # a room's open pages learn of what happened without a click
        assert any("the bot speaks" in text for text in await ann_page.said())
        async with table.acting():
            await thread.remove_user(discord.Object(bo.id))
        await table.pump_once()
        assert (await page.state())["status"] == "access_denied"
        async with http.get(f"{table.hub_url}p/{bo.id}/t/{handle.id}", allow_redirects=False) as r:
            assert r.status == 404
