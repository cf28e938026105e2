"""The health port against clients that misbehave (issue 36, item 11), on a real ``python -m bot
--offline`` process: a client trickling its headers is cut after HEALTH_TIMEOUT_SECONDS, the
connections are capped (HEALTH_CONNECTIONS), and a malformed request is one log line with no
traceback. Every wait is a generous bound, never a timing: the test does not depend on the
machine's speed."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.error
import urllib.request

from support.offline_process import Child, offline_table

#: how long a connection may stay open before the test calls it held forever (the timeout is 1 s)
BOUND = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(tmp_path, port: int, **env: str):
    """The offline table with its health port on ``port``, killed at the block's end whatever happens."""
    return offline_table(tmp_path / "table.db", "--names", "Ann,Bo,Cy", "--players", "3",
                         env={"HEALTH_PORT": str(port), "HEALTH_TIMEOUT_SECONDS": "1", "PAUSE_SCALE": "0",
                              "LOG_LEVEL": "INFO", **env},
                         until="Health and metrics:")


def stop(proc: Child) -> str:
    """End the process, and return what it logged."""
    proc.end()
    return proc.stderr()


def healthz(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:  # (refused or reset: the cap was still full)
        return 0


def closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    """Whether the server closes ``sock`` within ``seconds``, while the client sends ``trickle`` one
    byte at a time (a slow client's headers that never end)."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < deadline:
        try:
            if trickle:
                sock.send(trickle[sent % len(trickle):sent % len(trickle) + 1])
                sent += 1
            if sock.recv(1024) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:  # reset, broken pipe: closed by the server
            return True
    return False


def one_closed(socks: list[socket.socket], seconds: float) -> socket.socket | None:
    """The first of ``socks`` the server closes within ``seconds`` (None: it closed none)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for sock in socks:
            if closed_within(sock, 0.05):
                return sock
    return None


def test_a_client_trickling_its_headers_is_cut_and_the_port_still_answers(tmp_path):
    port = free_port()
    with start(tmp_path, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            assert closed_within(sock, BOUND, trickle=b"X-Slow: aaaaaaaa"), "a trickling client was held open"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as idle:  # says nothing at all
            assert closed_within(idle, BOUND), "a silent client was held open"
        assert healthz(port) == 200


def test_connections_beyond_the_cap_are_closed_at_once_and_the_port_answers_after(tmp_path):
    port = free_port()
    with start(tmp_path, port, HEALTH_CONNECTIONS="3", HEALTH_TIMEOUT_SECONDS="60"):
        with contextlib.ExitStack() as held:  # four at once, in one burst: one of them is closed
            burst = [held.enter_context(socket.create_connection(("127.0.0.1", port), timeout=10))
                     for _ in range(4)]
            cut = one_closed(burst, BOUND)
            assert cut is not None, "a connection beyond the cap was kept"
            assert not [s for s in burst if s is not cut and closed_within(s, 0.2)], "more than one was closed"
        deadline = time.monotonic() + BOUND  # the server sees the three close, then answers again
        while healthz(port) != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert healthz(port) == 200


def test_a_malformed_request_is_one_log_line_without_a_traceback(tmp_path):
    port = free_port()
    with start(tmp_path, port) as (proc, _):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nthis is no header\r\n\r\n")
            sock.settimeout(10)
            try:
                answer = sock.recv(1024)
            except ConnectionResetError:  # (closed with the rest unread: the answer may be lost)
                answer = b""
        assert answer == b"" or answer.split(b"\r\n")[0].endswith(b" 400 Bad Request"), answer
        assert healthz(port) == 200
        err = stop(proc)
    told = [line for line in err.splitlines() if "bad request" in line.lower() or "error handling" in line.lower()]
    assert len(told) == 1, err
    assert "Traceback" not in err and "ERROR" not in err, err
    assert "127.0.0.1" in told[0] and "INFO" in told[0], told
