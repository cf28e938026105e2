"""The phases spoken aloud (issue 29): real speech, Opus-encoded as discord.py sends it and decoded
back here, and the narrator's queue on a fake voice client (simcord carries no audio)."""

import asyncio
import inspect
import io
import logging
import math
import sys
import threading
import wave
from array import array

import discord
import pytest
from support.audio import tone

from bot.voice.narrator import DiscordNarrator, Narrator, RecordingNarrator
from bot.voice.speech import (
    MAX_CHARS,
    NothingToSay,
    SpeechProcess,
    SpeechUnavailable,
    clean,
    opus_clip,
    pcm,
    speech_available,
    synthesize,
)

FRAME_BYTES = 3840  # 20 ms of 48 kHz stereo 16-bit


def frames_of(source: discord.AudioSource) -> list[bytes]:
    """Every frame that would be sent, read the way a player reads them."""
    frames = []
    try:
        while frame := source.read():
            frames.append(frame)
    finally:
        source.cleanup()
    return frames


def decoded(wav: bytes) -> list[bytes]:
    """The line's frames as a listener's client gets them: encoded, then decoded by Opus."""
    decoder = discord.opus.Decoder()
    return [decoder.decode(frame) for frame in frames_of(opus_clip(wav))]


def samples_of(frames: list[bytes]) -> array:
    samples = array("h", b"".join(frames))
    if sys.byteorder == "big":
        samples.byteswap()  # s16le
    return samples


def rms(samples) -> float:
    return math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0


def wav_seconds(wav: bytes) -> float:
    with wave.open(io.BytesIO(wav), "rb") as w:
        return w.getnframes() / w.getframerate()


# -- the speech itself


def test_this_machine_can_speak():
    assert speech_available() is None


def test_a_phase_line_becomes_seconds_of_audible_48khz_stereo():
    wav = synthesize("The Council opens: two minutes.")
    with wave.open(io.BytesIO(wav), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
    converted = pcm(wav)
    assert abs(len(converted) / (48000 * 4) - wav_seconds(wav)) < 0.01  # 48 kHz, 2 channels, 2 bytes
    frames = decoded(wav)
    assert frames and all(len(f) == FRAME_BYTES for f in frames)
    seconds = len(frames) * 0.02
    assert 0.8 <= seconds <= 6
    # decoded as 48 kHz stereo the clip lasts as long as espeak's own: the rate and layout are right
    assert abs(seconds - wav_seconds(wav)) < 0.05
    samples = samples_of(frames)
    left, right = samples[0::2], samples[1::2]
    assert rms(left) > 1000 and rms(right) > 1000  # well above silence (full scale is 32767)
    loud = [f for f in frames if rms(samples_of([f])) > 300]
    assert len(loud) >= 0.4 * len(frames)  # speech, not a click in a silent clip
    assert max(abs(s) for s in samples) < 32767  # not clipped


def test_a_longer_line_makes_a_longer_clip():
    short = len(opus_clip(synthesize("Night falls.")))
    long = len(opus_clip(synthesize(
        "Night falls. Everyone close your eyes; the Storyteller wakes each character in turn."
    )))
    assert 0.5 <= short * 0.02 <= 3
    assert long * 0.02 >= short * 0.02 + 1.5


@pytest.mark.slow
async def test_a_line_made_in_the_speech_process_is_the_same_speech():
    """The narrator makes its lines in a process of its own (issue 38: in a thread they held the
    event loop): what comes back is the line's whole clip, and it decodes to speech."""
    process = SpeechProcess(workers=1)
    try:
        clip = await process("The Council opens: two minutes.")
    finally:
        process.close()
    assert len(clip) == len(opus_clip(synthesize("The Council opens: two minutes.")))
    decoder = discord.opus.Decoder()
    frames = [decoder.decode(frame) for frame in clip.frames]
    assert rms(samples_of(frames)) > 1000


@pytest.mark.slow
async def test_a_speech_process_that_dies_is_started_again_for_the_next_line():
    import os
    import signal

    process = SpeechProcess(workers=1)
    try:
        await process("One.")
        pool = process._pool
        for child in list(pool._processes.values()):
            os.kill(child.pid, signal.SIGKILL)
        failed = 0
        for text in ("Two.", "Three."):
            try:
                await process(text)
            except SpeechUnavailable:
                failed += 1
        clip = await process("Four words said here.")
    finally:
        process.close()
    assert failed <= 1  # the line caught by the death fails (the game goes on in text)
    assert process._pool is None and len(clip) > 20  # closed; and the last line was made afresh


def test_an_empty_line_is_refused_by_name():
    with pytest.raises(NothingToSay):
        synthesize(" \n\t ")
    with pytest.raises(NothingToSay):
        synthesize("\x00\x07")


def test_a_long_line_is_cut_at_a_word():
    text = "The Council opens and everyone may speak freely. " * 10
    words = clean(text)
    assert len(words) <= MAX_CHARS
    assert text.startswith(words) and text[len(words)] == " "
    seconds = len(opus_clip(synthesize(text))) * 0.02
    assert 6 <= seconds <= 25


# -- the narrator, on a fake voice client


def words_as_tone(text: str) -> bytes:
    """The tests' speech: a tenth of a second per word, so the clip's length tells which line it was."""
    return tone(0.1 * len(text.split()))


class FakeVoice:
    """A voice client as the narrator uses it. Like discord.py's player it plays on its own thread:
    it reads every frame of the source, then (once released, when held) calls after(None)."""

    def __init__(self, channel_id: int, hold: bool):
        self.channel = discord.Object(id=channel_id)
        self.hold = hold
        self.started: list[int] = []  # the channel of each play()
        self.played: list[float] = []  # seconds of audio read from each source
        self.moves: list[int] = []
        self.stops = 0
        self.disconnected = False
        self._end: threading.Event | None = None
        self._playing = False

    def play(self, source, *, after):
        assert isinstance(source, discord.AudioSource)
        assert not self.disconnected and not self.is_playing()
        self.started.append(self.channel.id)
        end = self._end = threading.Event()
        if not self.hold:
            end.set()

        def run():
            self.played.append(round(len(frames_of(source)) * 0.02, 1))
            end.wait(10)
            self._playing = False  # (as discord.py's player: no longer playing when after() runs)
            after(None)

        self._playing = True
        threading.Thread(target=run, daemon=True).start()

    def is_playing(self):
        return self._playing

    def stop(self):
        self.stops += 1
        if self._end is not None:
            self._end.set()

    def release(self):
        """Let the held line end, and the next ones play through."""
        self.hold = False
        if self._end is not None:
            self._end.set()

    async def disconnect(self, *, force=False):
        self.disconnected = True

    async def move_to(self, channel):
        self.moves.append(channel.id)
        self.channel = discord.Object(id=channel.id)


class FakeDiscord:
    """connect() for the narrator: a FakeVoice per guild (held in the guilds listed in hold)."""

    def __init__(self, hold=(), fail: Exception | None = None):
        self.hold = set(hold)
        self.fail = fail
        self.voices: dict[int, FakeVoice] = {}
        self.connects: list[tuple[int, int]] = []

    async def connect(self, guild_id, channel_id):
        self.connects.append((guild_id, channel_id))
        await asyncio.sleep(0)
        if self.fail is not None:
            raise self.fail
        voice = self.voices[guild_id] = FakeVoice(channel_id, guild_id in self.hold)
        return voice


async def until(condition, what: str):
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never came: {what}")


def narrator(fake: FakeDiscord, synthesize=words_as_tone) -> DiscordNarrator:
    return DiscordNarrator(None, connect=fake.connect, synthesize=synthesize)


async def playing_one() -> tuple[FakeDiscord, DiscordNarrator, FakeVoice]:
    """A narrator in guild 1 playing game 7's line "one" in channel 10, held until released."""
    fake = FakeDiscord(hold={1})
    n = narrator(fake)
    n.say(1, 10, 7, "one")
    await until(lambda: 1 in fake.voices and fake.voices[1].is_playing(), "the first line playing")
    return fake, n, fake.voices[1]


async def test_lines_are_played_in_order_in_the_games_channel():
    fake = FakeDiscord()
    n = narrator(fake)
    n.say(1, 10, 7, "one")
    n.say(1, 10, 7, "three words here")
    n.say(1, 10, 7, "two words")
    await n.wait_quiet()
    voice = fake.voices[1]
    assert voice.played == [0.1, 0.3, 0.2]
    assert voice.started == [10, 10, 10]
    assert fake.connects == [(1, 10)]  # joined once
    assert not voice.disconnected


async def test_the_narrator_sends_the_spoken_line_as_real_audio():
    fake = FakeDiscord()
    n = narrator(fake, synthesize=synthesize)
    n.say(1, 10, 7, "The Council opens: two minutes.")
    await n.wait_quiet()
    [seconds] = fake.voices[1].played
    assert 0.8 <= seconds <= 6


async def test_say_returns_at_once_while_a_line_plays():
    assert not inspect.iscoroutinefunction(DiscordNarrator.say)
    _fake, n, voice = await playing_one()
    n.say(1, 10, 7, "two words")  # queued, not spoken: the first is still playing
    assert voice.is_playing() and voice.started == [10]
    voice.release()
    await n.wait_quiet()
    assert voice.played == [0.1, 0.2]


async def test_stop_drops_the_games_lines_and_leaves():
    fake, n, voice = await playing_one()
    n.say(1, 10, 7, "two words")
    n.say(1, 10, 7, "three words here")
    await n.stop(1, 7)
    assert voice.disconnected
    assert voice.stops == 1  # the line being spoken is cut
    n.say(1, 10, 7, "a late line")  # the game has ended: the bot does not come back
    await n.wait_quiet()
    assert voice.started == [10]
    assert fake.connects == [(1, 10)]


async def test_stop_drops_only_that_games_lines():
    _fake, n, voice = await playing_one()
    n.say(1, 10, 8, "two words")
    n.say(1, 10, 7, "three words here")
    await n.stop(1, 7)
    assert voice.stops == 1 and not voice.disconnected  # game 8 still speaks here
    voice.release()
    await n.wait_quiet()
    assert voice.played == [0.1, 0.2]


async def test_falling_behind_drops_the_oldest_lines():
    _fake, n, voice = await playing_one()
    for words in range(2, 7):
        n.say(1, 10, 7, " ".join(["word"] * words))
    voice.release()
    await n.wait_quiet()
    assert voice.played == [0.1, 0.4, 0.5, 0.6]


async def test_a_failed_join_is_logged_once_and_never_raised(caplog):
    fake = FakeDiscord(fail=TimeoutError())
    n = narrator(fake)
    with caplog.at_level(logging.DEBUG, logger="bot.voice.narrator"):
        n.say(1, 10, 7, "one")
        n.say(1, 10, 7, "two words")
        await n.wait_quiet()
        await n.stop(1, 7)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert "game 7" in warnings[0].getMessage() and "Connect" in warnings[0].getMessage()
    assert len(fake.connects) == 2  # each line tried: a passing failure does not silence the game


async def test_two_guilds_speak_independently():
    fake, n, _voice = await playing_one()
    n.say(2, 20, 8, "two words")
    n.say(2, 20, 8, "three words here")
    await until(lambda: 2 in fake.voices and len(fake.voices[2].played) == 2, "guild 2's lines")
    assert fake.voices[1].is_playing()  # still held
    await n.stop(1, 7)
    assert fake.voices[1].disconnected and not fake.voices[2].disconnected
    await n.wait_quiet()
    assert fake.voices[2].played == [0.2, 0.3]


async def test_two_games_share_a_guilds_voice_and_it_leaves_after_the_last():
    fake = FakeDiscord()
    n = narrator(fake)
    n.say(1, 10, 7, "one")
    await n.wait_quiet()
    n.say(1, 11, 8, "two words")
    await n.wait_quiet()
    voice = fake.voices[1]
    assert voice.moves == [11] and voice.started == [10, 11]
    await n.stop(1, 7)
    assert not voice.disconnected  # game 8 still speaks here
    n.say(1, 11, 8, "three words here")
    await n.wait_quiet()
    await n.stop(1, 8)
    assert voice.disconnected
    assert voice.played == [0.1, 0.2, 0.3]
    assert fake.connects == [(1, 10)]


async def test_the_recording_narrator_keeps_lines_and_stops_in_order():
    n: Narrator = RecordingNarrator()
    n.say(1, 10, 7, "Night falls.")
    n.say(1, 10, 8, "Day breaks.")
    await n.stop(1, 7)
    assert isinstance(n, RecordingNarrator)
    assert n.lines == [(7, 10, "Night falls."), (8, 10, "Day breaks.")]
    assert n.said(7) == ["Night falls."]
    assert n.stopped == [(1, 7)]


async def test_finish_says_the_last_words_then_leaves():
    _fake, n, voice = await playing_one()
    n.say(1, 10, 7, "the coven wins")
    n.finish(1, 7)
    n.say(1, 10, 7, "a late line")  # after the end: not said
    assert not voice.disconnected  # the last words are still to come
    voice.release()
    await n.wait_quiet()
    assert voice.played == [0.1, 0.3]
    assert voice.disconnected


async def test_finish_leaves_only_when_no_other_game_speaks_there():
    fake = FakeDiscord()
    n = narrator(fake)
    n.say(1, 10, 7, "one")
    n.say(1, 10, 8, "two words")
    n.finish(1, 7)
    await n.wait_quiet()
    voice = fake.voices[1]
    assert voice.played == [0.1, 0.2] and not voice.disconnected
    n.finish(1, 8)
    await n.wait_quiet()
    assert voice.disconnected
