"""A person plays a whole game of The Ritual at the offline table, in headless Chromium.

Everything is done in the page as a person would: the slash command from the message box, the
lobby buttons, "Make my choice" and its select, "My hand", and "Viewing as" to become the next
player. The checks are on what each player sees in the page. It needs Debian's ``chromium``
(CI installs it) and the Python ``playwright`` package (no browser download).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bot.offline import OfflineTable

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PLAYERS = ["Ann", "Bo", "Cy"]
# Phases close early once everyone has acted; the timers only need to outlast three people
# clicking in turn (a slow CI machine included), and /mod skip moves on where a person would wait.
OPTIONS = "choosing_seconds=45 offering_seconds=45 council_seconds=45"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)"),
]
async_api = pytest.importorskip("playwright.async_api", reason="needs the playwright package (the test extra)")


class TablePage:
    """One browser tab on the table, driven through its visible controls only."""

    def __init__(self, page, shots: Path) -> None:
        self.page = page
        self.shots = shots
        self.step = 0
        self.retries: list[str] = []

    async def shot(self, name: str) -> None:
        self.step += 1
        await self.page.screenshot(path=str(self.shots / f"{self.step:02d}-{name}.png"))

    # ----- reading -----
    def messages(self):
        return self.page.locator("article.channel-message")

    def message_with(self, text: str):
        return self.messages().filter(has_text=text).last

    async def viewer(self) -> str:
        return await self.page.locator("#viewer-picker option:checked").inner_text()

    async def text(self) -> str:
        return await self.page.locator("#channel-message-list").inner_text()

    async def wait_for_text(self, text: str | re.Pattern, timeout: float = 20) -> None:
        await async_api.expect(self.page.locator("#channel-message-list")).to_contain_text(
            text, timeout=timeout * 1000)

    # ----- acting -----
    async def view_as(self, name: str) -> None:
        if await self.viewer() == name:
            return
        await self.page.locator("#viewer-picker").select_option(label=name)
        await async_api.expect(self.page.locator("#viewer-picker option:checked")).to_have_text(name)
        await self.idle()

    async def idle(self) -> None:
        """Wait until the page has no action in flight and shows the latest published state."""
        await self.page.wait_for_function(
            "() => document.getElementById('preview-app')?.getAttribute('aria-busy') !== 'true'"
            " && !(document.getElementById('action-status')?.textContent || '').endsWith('\u2026')")

    async def status(self) -> str:
        return await self.page.locator("#action-status").inner_text()

    async def page_text(self) -> str:
        return await self.page.locator("body").inner_text()

    async def command(self, name: str, *steps: tuple[str, str]) -> None:
        """Type ``/name`` in the message box, then fill each (option, value) and send."""
        box = self.page.locator("#channel-composer-input")
        await box.click()
        await box.type("/" + name)
        await self.page.locator(".command-entry", has_text="/" + name).first.wait_for()
        await self.page.keyboard.press("Enter")
        for option, value in steps:
            field = self.page.locator(f'input.command-option-input[data-option="{option}"]')
            if not await field.count():
                await self.page.locator(".command-ghost").click()
                await self.page.locator(f'.command-suggestion[data-value="{option}"]').click()
            await field.click()
            await field.type(value)
            if option == "kind":  # autocomplete: pick the suggestion, as a person would
                await self.page.locator(".command-suggestion", has_text="The Ritual").click()
        await self.page.keyboard.press("Enter")
        await self.idle()

    async def press(self, message, label: str) -> None:
        await message.get_by_role("button", name=label).click()
        await self.idle()

    async def ids(self) -> list[str]:
        return await self.messages().evaluate_all("els => els.map(e => e.dataset.messageId)")

    async def press_for_private_answer(self, message, label: str):
        """Press a button whose answer only this player sees; return that new ephemeral message.

        A person whose click was refused (the page was a moment behind the table) clicks again.
        """
        before = set(await self.ids())
        for _attempt in range(3):
            await self.press(message, label)
            answer = await self.new_private_message(before)
            if answer is not None:
                return answer
            self.retries.append(await self.status())
        raise AssertionError(f"no private answer to {label!r}; status: {await self.status()}")

    async def new_private_message(self, before: set[str], timeout: float = 5.0):
        private = self.messages().filter(has_text="Only you can see this")
        for _ in range(int(timeout * 10)):
            for message_id in await private.evaluate_all("els => els.map(e => e.dataset.messageId)"):
                if message_id not in before:
                    return self.page.locator(f'article.channel-message[data-message-id="{message_id}"]')
            await self.page.wait_for_timeout(100)
        return None

    async def answer_to(self, prompt, before: set[str], old: str, timeout: float = 5.0) -> str | None:
        """The bot's private answer to a pick in ``prompt``: the prompt itself, updated to say it
        (a choice made in a private message is answered there), or a new private message."""
        for _ in range(int(timeout * 10)):
            if await prompt.count() and (await prompt.inner_text()) != old:
                return await prompt.inner_text()
            answer = await self.new_private_message(before, timeout=0.1)
            if answer is not None:
                return await answer.inner_text()
        return None

    async def choose(self, prompt, prefer: list[str] = ()) -> str:
        """Open the select in an ephemeral prompt, pick the first of ``prefer`` it offers (or its
        first choice) and wait for the bot's private answer; a refused pick is made again."""
        for _attempt in range(3):
            before = set(await self.ids())
            old = await prompt.inner_text()
            options = self.page.locator('[role="option"][data-value]').locator("visible=true")
            for _ in range(3):  # a page update can close an open list; a person opens it again
                await prompt.locator(".preview-select").first.locator("button").first.click()
                try:
                    await options.first.wait_for(timeout=3000)
                    break
                except async_api.TimeoutError:
                    self.retries.append("the list closed")
            labels = [(await o.inner_text()).strip().splitlines()[0] for o in await options.all()]
            index = next((labels.index(p) for p in prefer if p in labels), 0)
            await options.nth(index).click()
            await self.idle()
            answer = await self.answer_to(prompt, before, old)
            if answer is not None:
                return answer
            self.retries.append(await self.status())
        raise AssertionError(f"the choice was never taken; status: {await self.status()}")


@pytest.fixture
async def table(tmp_path):
    from bot.config import Settings

    settings = Settings(_env_file=None, database_path=str(tmp_path / "browser.db"), pause_scale=0.1)
    async with OfflineTable(settings, PLAYERS, port=0, hub_port=0, pump_interval=0.25) as table:
        yield table


@pytest.fixture
async def browser():
    async with async_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        await browser.close()


async def test_a_full_game_of_the_ritual_in_the_browser(table, browser, tmp_path):
    started = time.monotonic()
    shots = tmp_path / "shots"
    shots.mkdir()
    tab = TablePage(await browser.new_page(viewport={"width": 1280, "height": 900}), shots)
    await tab.page.goto(table.preview_url)
    await tab.wait_for_text("Welcome to the offline table")
    assert await tab.viewer() == "Ann"
    try:
        await play(table, tab, browser, shots)
    except BaseException:
        await tab.shot("failure")
        print("screenshots in", shots)
        raise
    print(f"browser game took {time.monotonic() - started:.1f} s")


async def play(table, tab: TablePage, browser, shots: Path) -> None:
    global T0
    T0 = time.monotonic()
    # Ann opens a game with the slash command, options included
    await tab.command("game new", ("kind", "rit"), ("options", OPTIONS))
    await tab.wait_for_text("The Ritual: gathering players")
    lobby = tab.message_with("gathering players")
    # Bo and Cy join by the lobby's button, each as themselves
    for name in ("Bo", "Cy"):
        await tab.view_as(name)
        await tab.press(tab.message_with("gathering players"), "Join")
        await tab.wait_for_text(f"• {name}")
    # only the host may start
    await tab.press(lobby, "Start")
    await tab.wait_for_text("Only the host can start")
    await tab.view_as("Ann")
    assert "Only the host can start" not in await tab.text()  # Cy's ephemeral answer is Cy's alone
    await tab.press(tab.message_with("gathering players"), "Start")
    await tab.wait_for_text("The game has begun")
    await tab.wait_for_text("closes in")  # the first phase, with its countdown ("⏳ The Choosing: closes in …")
    await tab.shot("started")

    # each player's hand is theirs alone: "My hand" answers privately, and the next player
    # (picked with "Viewing as") sees neither the answer nor anything of it
    hands: dict[str, tuple[str, str]] = {}
    for name in PLAYERS:
        await tab.view_as(name)
        phase = tab.messages().filter(has=tab.page.get_by_role("button", name="My hand")).last
        hand = await tab.press_for_private_answer(phase, "My hand")
        role = next(line for line in (await hand.inner_text()).splitlines() if "You are the" in line)
        hands[name] = (await hand.get_attribute("data-message-id"), role)
    for name in PLAYERS:
        await tab.view_as(name)
        await tab.wait_for_text(hands[name][1])
        visible, text = await tab.ids(), await tab.page_text()
        assert hands[name][0] in visible
        for other, (message_id, role) in hands.items():
            if other != name:
                assert message_id not in visible, f"{name} sees {other}'s hand"
                if role != hands[name][1]:
                    assert role not in text, f"{name} sees {other}'s role"
    await tab.shot("hands")

    # a second tab is a second player: Bo watches there while the first tab plays on
    watcher = TablePage(await browser.new_page(viewport={"width": 1000, "height": 800}), shots)
    await watcher.page.goto(table.preview_url)
    await watcher.view_as("Bo")
    await watcher.wait_for_text(hands["Bo"][1])

    # rounds: every living player makes their choice; the phase closes when all have acted
    for _round in range(40):
        if "Game over" in await tab.text() or await finished(table):
            break
        phase = tab.messages().filter(has=tab.page.get_by_role("button", name="Make my choice")).last
        # a phase is the message that carries its buttons and how many events it shows: in a quiet
        # channel the next phase is edited into the same message
        phase_id = (await phase.get_attribute("data-message-id"), await phase.locator(".embed-card").count())
        acted = False
        for name in PLAYERS:
            await tab.view_as(name)
            current = tab.messages().filter(has=tab.page.get_by_role("button", name="Make my choice")).last
            if (await current.get_attribute("data-message-id"),
                    await current.locator(".embed-card").count()) != phase_id:
                break  # the phase closed early: everyone had acted
            prompt = await tab.press_for_private_answer(current, "Make my choice")
            text = await prompt.inner_text()
            if "nothing to choose" in text:
                continue
            # at the Council all prefer to burn Cy, else Bo: two votes of three burn someone,
            # which ends a three-player game
            answer = await tab.choose(prompt, ["Cy", "Bo", "Ann"] if "Vote to burn" in text else [])
            log(f"{name}: {text.splitlines()[2] if len(text.splitlines()) > 2 else text!r} -> {answer!r}")
            acted = True
        if not acted:
            # no one could act (a reveal is still playing out): the host moves the game on
            await tab.view_as("Ann")
            await tab.command("mod skip")
        await tab.page.wait_for_timeout(200)
    # the end is public: every player sees the reveal, and it names the role each one was shown
    for name in PLAYERS:
        await tab.view_as(name)
        await tab.wait_for_text("The Ritual is over", timeout=30)
        reveal = await tab.message_with("The witches were").inner_text()
        for player, (_, role) in hands.items():
            role_name = re.search(r"You are the ([A-Z][\w' -]*\w)", role)
            assert role_name and f"{player}, the {role_name[1]}" in reveal.replace("**", ""), (role, reveal)
    await tab.shot("game-over")
    assert await finished(table)
    # Bo's tab followed the whole game by itself, and never showed anyone else's secrets
    await watcher.wait_for_text("The Ritual is over", timeout=10)
    assert await watcher.viewer() == "Bo"
    visible, text = await watcher.ids(), await watcher.page_text()
    for other in ("Ann", "Cy"):
        assert hands[other][0] not in visible
        if hands[other][1] != hands["Bo"][1]:
            assert hands[other][1] not in text
    await watcher.shot("watcher")
    # the table hub shows each player the role card the bot sent them privately
    hub = await browser.new_page()
    await hub.goto(table.hub_url)
    await hub.get_by_role("link", name="Bo").click()
    await async_api.expect(hub.locator("body")).to_contain_text("Your role")
    bo_role = re.search(r"You are the ([A-Z][\w' -]*\w)", hands["Bo"][1])[1]
    await async_api.expect(hub.locator("body")).to_contain_text(f"You are the {bo_role}")
    print(f"retried clicks: {tab.retries}")


T0 = time.monotonic()


def log(text: str) -> None:
    print(f"[{time.monotonic() - T0:6.1f}s] {text}")


async def finished(table) -> bool:
    rows = await table.bot.store.active_games(table.world.guild.id)
    return not rows


async def test_the_hub_draws_every_name_in_the_fonts_it_serves(tmp_path, browser):
    """李雷 and Ann 🎲 on the hub, at phone width, on a machine with no CJK font (this one has
    none): the hub serves the pictures' Noto faces, and the browser draws the names with them."""
    from bot.config import Settings

    settings = Settings(_env_file=None, database_path=str(tmp_path / "fonts.db"))
    async with OfflineTable(settings, ["李雷", "Ann 🎲", "Юля"], port=0, hub_port=0, open_preview=False) as table:
        hub = await browser.new_page(viewport={"width": 390, "height": 800})
        await hub.goto(table.hub_url)
        await async_api.expect(hub.locator("body")).to_contain_text("李雷")
        for family, text in (("Table CJK", "李雷"), ("Table Sans", "Юля"), ("Table Emoji", "🎲")):
            loaded = await hub.evaluate(
                "async ([family, text]) => (await document.fonts.load(`15px \"${family}\"`, text))"
                ".map(f => f.status)", [family, text])
            assert loaded == ["loaded"], (family, loaded)
            assert await hub.evaluate("([family, text]) => document.fonts.check(`15px \"${family}\"`, text)",
                                      [family, text])
        # drawn, not boxes: the page's own font draws 李 and 雷 as two different pictures (a
        # missing glyph is the same box for both)
        differ = await hub.evaluate("""() => {
            const font = getComputedStyle(document.body).fontFamily;
            const ink = ch => { const c = document.createElement('canvas'); c.width = c.height = 48;
                const g = c.getContext('2d'); g.font = `40px ${font}`; g.fillText(ch, 2, 40);
                return Array.from(g.getImageData(0, 0, 48, 48).data).join(); };
            return ink('李') !== ink('雷');
        }""")
        assert differ
        await hub.close()


async def test_the_tables_countdown_ticks(table, browser):
    """A phase's ``<t:...:R>`` countdown counts down in the page every second, as in Discord's
    client, with nothing else happening at the table (no republish)."""
    w = table.world
    async with table.acting():
        lobby = (await w.host.slash(w.channel, "game new", kind="tally", options="vote_seconds=50 rounds=1")).response
        for member in w.players[1:]:
            await member.click(lobby, label="Join")
        await w.host.click(lobby, label="Start")
        await table.env.settle()
    page = await browser.new_page(viewport={"width": 390, "height": 800})
    await page.goto(table.preview_url)
    countdown = page.locator("time.discord-timestamp", has_text=re.compile(r"^in \d+ (seconds|minutes)$")).last
    await async_api.expect(countdown).to_be_visible(timeout=20_000)
    first = await countdown.inner_text()
    refreshes = table.refreshes
    await async_api.expect(countdown).not_to_have_text(first, timeout=20_000)
    assert table.refreshes == refreshes  # the page ticked by itself, nothing was republished
    await page.close()


async def test_a_command_typed_whole_and_sent_with_enter_opens_the_game(table, browser):
    """What the welcome card invites, as a newcomer does it: ``/game new ritual`` typed in the box
    and Enter. The lobby opens (not a chat line); a typo gets the table's answer."""
    tab = TablePage(await browser.new_page(viewport={"width": 390, "height": 800}), Path("."))
    await tab.page.goto(table.preview_url)
    await tab.wait_for_text("Welcome to the offline table")
    box = tab.page.locator("#channel-composer-input")
    await box.click()
    await box.type("/game new ritual")
    await tab.page.keyboard.press("Enter")
    await tab.wait_for_text("gathering players")
    [row] = await table.bot.store.active_games(table.world.guild.id)
    assert row.kind == "ritual"
    await box.click()
    await box.type("/game nwe ritual")
    await tab.page.keyboard.press("Enter")
    await tab.wait_for_text("/game nwe is not a command")
    await tab.page.close()
