"""The narration's audio sender (issue 38, item 5): one thread sends every guild's line, a frame of
each every 20 ms, where discord.py starts a player thread per voice client. Counted, not timed: the
threads a narrating process runs, the frames each client gets, and the schedule's sleeps."""

import asyncio
import threading

import discord
import pytest
from support.audio import tone

from bot.voice.narrator import DiscordNarrator
from bot.voice.sender import FRAME_SECONDS, OPUS_SILENCE, SILENCE_FRAMES, AudioSender, SharedVoice
from bot.voice.speech import OpusClip


class Client:
    """What the sender uses of a voice client: the packets it was handed, in order."""

    def __init__(self, fail_at: int | None = None):
        self.sent: list[bytes] = []
        self.connected = True
        self.fail_at = fail_at
        self.encoded: list[bool] = []

    def is_connected(self):
        return self.connected

    def send_audio_packet(self, data, *, encode=True):
        if self.fail_at is not None and len(self.sent) == self.fail_at:
            raise OSError("the socket went away")
        self.sent.append(data)
        self.encoded.append(encode)


def clip(name: str, frames: int) -> OpusClip:
    return OpusClip([f"{name}{i}".encode() for i in range(frames)])


class Ends:
    """Each line's after(): the errors it was called with, and an event per call."""

    def __init__(self):
        self.errors: list = []
        self.done = threading.Event()
        self.wanted = 1

    def __call__(self, error):
        self.errors.append(error)
        if len(self.errors) >= self.wanted:
            self.done.set()


def audio_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(("audio-sender", "audio-player"))]


def test_twenty_lines_play_whole_from_one_thread():
    sender = AudioSender(sleep=lambda s: None)  # (no real waiting: the frames' order is what counts)
    clients = [Client() for _ in range(20)]
    ends = Ends()
    ends.wanted = 20
    try:
        for n, client in enumerate(clients):
            sender.play(client, clip(f"g{n}-", 30 + n), ends)
        assert audio_threads() == ["audio-sender"]  # one, where discord.py would start 20
        assert ends.done.wait(10)
    finally:
        sender.close()
    assert ends.errors == [None] * 20
    for n, client in enumerate(clients):
        frames = [f"g{n}-{i}".encode() for i in range(30 + n)]
        assert client.sent == frames + [OPUS_SILENCE] * SILENCE_FRAMES
        assert not any(client.encoded)  # the clip is Opus already: nothing is encoded while sending
    assert sender.playing() == 0


def test_the_thread_keeps_discords_20_ms_cadence_without_waking_when_idle():
    now = [0.0]
    sleeps: list[float] = []

    def sleep(seconds):
        sleeps.append(seconds)
        now[0] += seconds

    sender = AudioSender(clock=lambda: now[0], sleep=sleep)
    ends = Ends()
    try:
        sender.play(Client(), clip("a", 50), ends)
        assert ends.done.wait(10)
    finally:
        sender.close()
    # 50 frames and the step that finds the end: each waits out its 20 ms; nothing more is slept
    # (idle, the thread waits on an event: no wake-ups)
    assert len(sleeps) == 51 and all(s == pytest.approx(FRAME_SECONDS) for s in sleeps)
    assert now[0] == pytest.approx(51 * FRAME_SECONDS)


def test_a_stopped_line_ends_at_the_next_frame_and_its_after_is_called():
    release = threading.Event()
    sender = AudioSender(sleep=lambda s: release.wait(5))
    client, ends = Client(), Ends()
    try:
        sender.play(client, clip("a", 1000), ends)
        assert sender.is_playing(client)
        sender.stop(client)
        assert not sender.is_playing(client)
        release.set()
        assert ends.done.wait(10)
    finally:
        sender.close()
    assert ends.errors == [None]
    assert len(client.sent) < 1000  # cut short


def test_a_failing_client_ends_its_own_line_only():
    sender = AudioSender(sleep=lambda s: None)
    bad, good = Client(fail_at=3), Client()
    ends = Ends()
    ends.wanted = 2
    try:
        sender.play(bad, clip("b", 10), ends)
        sender.play(good, clip("g", 10), ends)
        assert ends.done.wait(10)
    finally:
        sender.close()
    assert sorted(type(e).__name__ for e in ends.errors) == ["NoneType", "OSError"]
    assert good.sent[:10] == [f"g{i}".encode() for i in range(10)]


def test_a_lost_connection_ends_the_line_with_an_error():
    sender = AudioSender(sleep=lambda s: None)
    client, ends = Client(), Ends()
    client.connected = False
    try:
        sender.play(client, clip("a", 10), ends)
        assert ends.done.wait(10)
    finally:
        sender.close()
    assert isinstance(ends.errors[0], discord.ClientException) and client.sent == []


def test_a_second_line_on_a_playing_client_is_refused():
    release = threading.Event()
    sender = AudioSender(sleep=lambda s: release.wait(5))
    client = Client()
    try:
        sender.play(client, clip("a", 100), Ends())
        with pytest.raises(discord.ClientException):
            sender.play(client, clip("b", 1), Ends())
    finally:
        release.set()
        sender.close()


class Socket:
    def __init__(self):
        self.speaking: list[discord.SpeakingState] = []

    async def speak(self, state):
        self.speaking.append(state)


class VoiceClient(Client):
    """A discord.VoiceClient as SharedVoice uses it."""

    def __init__(self, channel_id):
        super().__init__()
        self.ws = Socket()
        self.channel = discord.Object(id=channel_id)
        self.disconnected = False

    async def disconnect(self, *, force=False):
        self.disconnected = True

    async def move_to(self, channel):
        self.channel = channel


async def test_twenty_guilds_narrating_run_one_audio_thread_and_say_when_they_speak():
    """The narrator's whole path: 20 guilds' lines synthesized, encoded and sent, speaking flagged
    before and after each, by one audio thread (discord.py's players would be 20 threads)."""
    voices: dict[int, VoiceClient] = {}
    n = DiscordNarrator(None, synthesize=lambda text: tone(0.2))
    sender = n._sender

    async def connect(guild_id, channel_id):
        voice = voices[guild_id] = VoiceClient(channel_id)
        return SharedVoice(voice, sender)  # as _connect_discord wraps a joined client

    n._connect = connect
    seen_threads: set[str] = set()
    for guild in range(1, 21):
        n.say(guild, 100 + guild, guild, f"Game {guild} begins.")
    for _ in range(4000):  # (a bound, not a timing: the lines end after 0.2 s of audio)
        if len(voices) == 20 and not sender.playing():
            break
        seen_threads.update(audio_threads())
        await asyncio.sleep(0.005)
    await n.wait_quiet()
    await asyncio.sleep(0)  # (the last "not speaking" runs on the loop)
    await n.close()
    assert seen_threads == {"audio-sender"}
    for voice in voices.values():
        assert len(voice.sent) == 10 + SILENCE_FRAMES  # a 0.2 s clip: 10 frames, then the silence
        assert voice.ws.speaking == [discord.SpeakingState.voice, discord.SpeakingState.none]
        assert voice.disconnected
