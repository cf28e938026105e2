"""Delivers the outbox: public events to the game's channel, private ones by DM (with the
same "Make my choice" and "My hand" buttons, so a player can act from the DM) or to private threads.

Rows are delivered in order per destination (the channel, each player's DM or thread, each group
thread) and marked delivered only after Discord accepted them, so
a crash between commit and send re-sends after restart rather than losing a message; each send
carries a nonce made from the outbox id, so Discord drops the second copy of such a re-send.

What Discord refuses is sorted by whether trying again can help:
- a passing fault (5xx, a rate limit, the network) keeps the row pending and is retried with
  back-off, across restarts too; the rows behind it for the same destination wait, so order holds,
  and other destinations go on: a private message that waits never delays the channel, whose
  timing would otherwise tell everyone that someone was just sent a secret;
- a missing permission also stays pending, and the host is told in words what to grant;
- only what cannot change is given up (a closed DM, a deleted channel, a malformed message), with
  the game id in the log.
A closed DM is never a dead end: the player can press "My hand", which answers ephemerally. The
channel is told about closed DMs only for the deal, when every player gets a private message,
so the notice never reveals who was just sent a secret.

Living messages: a commit's consecutive channel events go out as one Discord message, shown in a
few beats (a send, then edits, cut at the game's longest pauses), so the theatre keeps its
suspense for a fraction of the calls. A phase's opening message is a slot: its clock starts
when it is posted (``GameService.start_clock``), and later refresh rows edit it (a new countdown
after a pause or an extension; "closed" and no buttons once the phase is over). Every call goes
through one ``Pacer``.

A private line that restates its whole state (a private event's ``slot``: the Ritual's Hollow
whisper) waits ``living_edit_seconds`` from its first change and only the newest is sent, at the
window's end or at once when its phase closes; it is sent beside the channel, which never waits
for it (whether one was held tells of a secret change).

The package, by job:
- ``_drain``: ``Delivery``, the drain loop (units, lanes, order, retries) and what the bot calls;
- ``_rules``: the outbox's rules with no Discord in them (units, priority, beats, countdowns);
- ``_board``: the channel's board, a phase's opening message and the game's living slots;
- ``_send``: one row as a message of its own (the channel, a DM, a player's or a group's thread);
- ``_private``: rides on a player's open interaction, their open prompts, the closed-DM notice;
- ``_threads``: group and public threads, the night's closing of talk, a substitute's handover,
  and telling the host or the Storytellers what Discord refused;
- ``_calls``: every call through the pacer, and a refusal sorted into Retry or GiveUp;
- ``_reads``: what a message reads of its game now; ``_ports``: the bot, as delivery sees it.
"""

from ._drain import Delivery
from ._rules import PROMPT_CLOSED, PUBLIC_THREAD, paused_ends, player_key, schedule_of

__all__ = ["PROMPT_CLOSED", "PUBLIC_THREAD", "Delivery", "paused_ends", "player_key", "schedule_of"]
