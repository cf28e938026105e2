"""Twenty tables narrating at once: the event loop's longest stall, beside a quiet loop, in one run.

Each table speaks real lines back to back (espeak-ng speech, converted by ffmpeg) to a voice
client that does what discord.py's does with each frame: Opus-encode it when it is PCM, encrypt it
(PyNaCl's AEAD, as in the ``aead_xchacha20_poly1305_rtpsize`` mode), and send it by UDP (to a
local socket). Meanwhile the loop does a game's work: about 1 ms of Python every 10 ms.

Modes, each in a process of its own, interleaved round by round:
  quiet        no narration: the floor
  per-thread   discord.py's way, and the narrator's before issue 38: a streaming ffmpeg source
               (a process and a pipe thread a line) played by discord.py's AudioPlayer, a thread
               per voice client
  shared       the narrator now: each line synthesized, converted and Opus-encoded in the speech
               process before it plays, every table's frames sent by the one AudioSender thread
  sender-only  the sending alone: the lines' clips made before the run

    .venv/bin/python bench/narration.py [--tables 20] [--seconds 15] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import wave
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord  # noqa: E402
import nacl.secret  # noqa: E402
from discord.player import AudioPlayer  # noqa: E402

from bot.voice import speech  # noqa: E402
from bot.voice.sender import AudioSender, SharedVoice  # noqa: E402

LINES = ["The Council opens: two minutes to talk.", "Choosing: pick your ingredient now.",
         "The vote is open.", "Night falls; close your eyes."]


class BenchVoice:
    """A voice client doing discord.py's per-frame work, sending to a local UDP socket."""

    def __init__(self, loop: asyncio.AbstractEventLoop, target: tuple[str, int]) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.target = target
        self.box = nacl.secret.Aead(os.urandom(32))
        self.encoder = discord.opus.Encoder()
        self.sequence = self.nonce = 0
        self.client = SimpleNamespace(loop=loop)  # (AudioPlayer tells the loop it speaks)
        self.ws = SimpleNamespace(speak=self._speak)
        self.channel = discord.Object(id=1)

    async def _speak(self, state: object) -> None:
        return None

    def is_connected(self) -> bool:
        return True

    def send_audio_packet(self, data: bytes, *, encode: bool = True) -> None:
        if encode:
            data = self.encoder.encode(data, self.encoder.SAMPLES_PER_FRAME)
        self.sequence = (self.sequence + 1) % 65536
        header = bytearray(12)
        header[0], header[1] = 0x80, 0x78
        header[2:4] = self.sequence.to_bytes(2, "big")
        self.nonce += 1
        nonce = self.nonce.to_bytes(4, "big") + bytes(20)
        packet = bytes(header) + self.box.encrypt(bytes(data), bytes(header), nonce).ciphertext + nonce[:4]
        self.sock.sendto(packet, self.target)


#: (shared) the narrator's speech process
PROCESS = speech.SpeechProcess()
#: (sender-only) every line's clip, made before the run
READY: dict[str, list[bytes]] = {}


def streaming_source(wav: bytes) -> discord.AudioSource:
    """The narrator's source before issue 38: ffmpeg streaming PCM through a pipe."""
    with wave.open(io.BytesIO(wav), "rb") as w:
        rate, samples = w.getframerate(), w.readframes(w.getnframes())
    return discord.FFmpegPCMAudio(io.BytesIO(samples), pipe=True, executable=speech.ffmpeg_path(),
                                  before_options=f"-f s16le -ar {rate} -ch_layout mono")


async def table(mode: str, voice: BenchVoice, sender: AudioSender, until: float, n: int) -> int:
    loop = asyncio.get_running_loop()
    said = 0
    link = SharedVoice(voice, sender)  # type: ignore[arg-type]  # (a bench client, duck-typed)
    while time.monotonic() < until:
        text = LINES[(n + said) % len(LINES)]
        done: asyncio.Future[None] = loop.create_future()

        def after(error: Exception | None, done: asyncio.Future[None] = done) -> None:
            loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

        if mode == "per-thread":
            wav = await asyncio.to_thread(speech.synthesize, text)
            source = await asyncio.to_thread(streaming_source, wav)
            AudioPlayer(source, voice, after=after).start()  # type: ignore[arg-type]
        elif mode == "sender-only":
            link.play(speech.OpusClip(list(READY[text])), after=after)
        else:
            link.play(await PROCESS(text), after=after)
        await done
        said += 1
    return said


async def game_work(until: float) -> None:
    """About 1 ms of Python every 10 ms: the loop's own work."""
    state = {"seats": [{"player": f"p{i}", "votes": list(range(20))} for i in range(15)]}
    while time.monotonic() < until:
        start = time.perf_counter()
        while time.perf_counter() - start < 0.001:
            json.loads(json.dumps(state))
        await asyncio.sleep(0.01)


async def monitor(until: float, lateness: list[float]) -> None:
    while time.monotonic() < until:
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        lateness.append(time.perf_counter() - start - 0.001)


async def run(mode: str, tables: int, seconds: float) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.bind(("127.0.0.1", 0))
    sink.setblocking(False)
    sender = AudioSender()
    lateness: list[float] = []
    voices = [BenchVoice(loop, sink.getsockname()) for _ in range(tables)]
    if mode == "sender-only":
        for text in LINES:
            clip = speech.opus_clip(speech.synthesize(text))
            READY[text] = [clip.read() for _ in range(len(clip))]
    if mode == "shared":  # the speech process is started before the measure (once a bot's life)
        await asyncio.gather(*(PROCESS(text) for text in LINES))
    until = time.monotonic() + seconds
    jobs = [monitor(until, lateness), game_work(until)]
    if mode != "quiet":
        jobs += [table(mode, v, sender, until, n) for n, v in enumerate(voices)]
    results = await asyncio.gather(*jobs)
    sender.close()
    PROCESS.close()
    lines = sum(r for r in results[2:] if isinstance(r, int))
    lateness.sort()
    return {"longest_stall_ms": lateness[-1] * 1000, "p99_ms": lateness[int(len(lateness) * 0.99)] * 1000,
            "lines": lines}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--modes", default="quiet,per-thread,shared,sender-only")
    parser.add_argument("--one", choices=["quiet", "per-thread", "shared", "sender-only"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    discord.opus._load_default()
    if args.one:  # (one mode, in this process)
        print(json.dumps(asyncio.run(run(args.one, args.tables, args.seconds))))
        return
    found: dict[str, list[dict[str, float]]] = {m: [] for m in args.modes.split(",")}
    for _ in range(args.rounds):
        for mode in found:
            out = subprocess.run([sys.executable, __file__, "--one", mode, "--tables", str(args.tables),
                                  "--seconds", str(args.seconds)], capture_output=True, text=True, check=True)
            found[mode].append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(mode, found[mode][-1], flush=True)
    for mode, runs in found.items():
        stalls = [r["longest_stall_ms"] for r in runs]
        print(f"{mode}: longest stall {min(stalls):.1f}-{max(stalls):.1f} ms, "
              f"p99 lateness {statistics.median(r['p99_ms'] for r in runs):.2f} ms, "
              f"lines said {statistics.median(r['lines'] for r in runs):.0f}")


if __name__ == "__main__":
    main()
