"""The night: each player casts one ingredient; the casts are ranked and revealed, and the resolution
queue runs the night's effects (``effects.py``) until a choice phase pauses it or the day opens."""

from __future__ import annotations

from collections import Counter

from games.engine import (
    Action,
    Choice,
    Event,
    IllegalAction,
    Outcome,
    Prompt,
    PromptField,
    Rng,
    private,
    public,
    record,
)

from . import voice
from .checks import eligible_players, need_active, need_phase, need_player
from .data import INGREDIENT_ORDER, INGREDIENTS
from .effects import PRIMARIES, SECONDARIES, blocked, blocking
from .ending import revealed_counts
from .models import CauldronState, PlayCard, Step
from .terms import BLOOD, MILK, ing, ing_list, rank


def play(s: CauldronState, a: PlayCard, rng: Rng) -> Outcome:
    need_player(a)
    need_phase(s, "night", "Casting an ingredient")
    need_active(s, a.player)
    if s.sit_out.get(a.player) == s.round:
        raise IllegalAction("You are poisoned: you cannot cast anything this night.", code="poisoned")
    if a.card not in INGREDIENTS:
        raise IllegalAction(f"There is no ingredient called {a.card!r}.", code="unknown_card")
    if a.card not in s.hands[a.player]:
        raise IllegalAction(f"You have no {INGREDIENTS[a.card].name} in your hand.", code="not_in_hand")
    changed = a.player in s.chosen
    s.chosen[a.player] = a.card
    if all(pid in s.chosen for pid in eligible_players(s)):
        return Outcome(state=s, events=close_night(s, rng, timed_out=False),
                       reply=f"You cast {ing(a.card)} into the cauldron. The night closes.")
    verb = "You changed your casting to" if changed else "You cast"
    return Outcome(state=s, events=[], reply=f"{verb} {ing(a.card)}; you can change it until the night closes.")


def open_night(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    s.round += 1
    s.discard.extend(s.table)
    s.table = []
    s.played_by = {}
    s.chosen = {}
    s.primary, s.secondaries, s.tie_note = None, [], ""
    s.sit_out = {pid: r for pid, r in s.sit_out.items() if r >= s.round}
    reshuffled = False
    for pid in s.active():
        while len(s.hands[pid]) < 3:
            if not s.draw:
                if not s.discard:
                    break
                s.draw = list(s.discard)
                s.discard = []
                rng.shuffle(s.draw)
                reshuffled = True
            s.hands[pid].append(s.draw.pop(0))
    if reshuffled:
        events.append(public("reshuffle", "The ingredient pile ran dry: the discards are shuffled "
                                          "into a fresh draw pile.",
                             data={"draw": len(s.draw), "discard": len(s.discard)}))
    s.next_phase("night")
    eligible = eligible_players(s)
    sitting = [pid for pid in s.active() if pid not in eligible]
    lines = [f"🌙 **Night {s.round}.** Choose one ingredient from your hand and cast it, unseen."]
    if s.poison and s.poison_round == s.round:
        lines.append(f"☠️ Poisoned tonight: {ing_list(s.poison)}. Whoever casts it will sit out "
                     "the night after.")
    if sitting:
        lines.append(f"{len(sitting)} poisoned player{'s' if len(sitting) != 1 else ''} "
                     "cannot cast tonight.")
    lines.append(f"The cauldron: {s.remaining()} cards ({len(s.deck)} in the deck, "
                 f"{len(s.revealed)} face up).")
    if s.options.night_quiet:
        lines.append("🤫 A quiet night: everyone is muted in the voice channel until the day breaks.")
    events.append(public("night", "\n".join(lines), title=f"Night {s.round}", opens_phase=bool(eligible),
                         data={"round": s.round, "casting": len(eligible), "poisoned_players": len(sitting),
                               "poisoned_ingredients": list(s.poison) if s.poison_round == s.round else [],
                               "deck": len(s.deck), "revealed": revealed_counts(s)},
                         say=voice.say_night(s)))
    for pid in sitting:
        events.append(private(pid, "sit_out", "☠️ The poison holds you: you cannot cast an ingredient "
                                              "this night. Your hand waits for tomorrow."))
    if not eligible:
        events += close_night(s, rng, timed_out=False)
    return events


def close_night(s: CauldronState, rng: Rng, timed_out: bool) -> list[Event]:
    events: list[Event] = []
    eligible = eligible_players(s)
    if timed_out and s.options.night_timeout == "random":
        for pid in eligible:
            if pid not in s.chosen and s.hands[pid]:
                card = rng.choice(sorted(s.hands[pid], key=INGREDIENT_ORDER.index))
                s.chosen[pid] = card
                events.append(private(pid, "auto_cast", f"The night ran out: the mist took your "
                                                        f"{ing(card)} into the cauldron."))
    played_by: dict[str, str] = {}
    for pid in eligible:
        cast = s.chosen.get(pid)
        if cast is not None:
            s.hands[pid].remove(cast)
            played_by[pid] = cast
    s.chosen = {}
    s.played_by = played_by
    # the poison of this round strikes whoever cast a poisoned ingredient
    struck = []
    if s.poison and s.poison_round == s.round:
        for pid, card in played_by.items():
            if card in s.poison:
                s.sit_out[pid] = s.round + 1
                struck.append(pid)
                events.append(private(pid, "poisoned", f"☠️ Your {ing(card)} was poisoned. You cannot "
                                                       f"cast anything on night {s.round + 1}."))
    s.poison = []
    table = list(played_by.values())
    rng.shuffle(table)
    s.table = table
    counts = Counter(table)
    s.primary, s.secondaries, s.tie_note = rank(counts, rng)
    events.append(reveal_event(s, counts, len(struck)))
    sat_out = {pid: "poisoned" if s.sit_out.get(pid) == s.round else "cast nothing"
               for pid in s.active() if pid not in played_by}
    events.append(record("night", {"round": s.round, "cast": played_by, "primary": s.primary,
                                   "secondaries": list(s.secondaries), "sat_out": sat_out,
                                   "blocked_by": blocking(s.options, s.primary, s.secondaries)}))
    s.queue = [Step(ingredient=k, role="secondary") for k in s.secondaries]
    if s.primary is not None:
        if blocked(s):
            pass  # the blocking secondary says so when it resolves
        else:
            reps = 2 if "brigid" in s.secondaries and s.primary != "ceol" else 1
            s.queue += [Step(ingredient=s.primary, role="primary", rep=r + 1) for r in range(reps)]
    events += run_queue(s, rng)
    return events


def ruled(primary: str | None, blocker: str | None) -> str:
    """What ruled a night, in words: a blocked primary did nothing."""
    if primary is None:
        return "nothing ruled"
    if blocker is not None:
        return f"{ing(primary)} was primary but was blocked by {ing(blocker)}, so it did nothing"
    return f"{ing(primary)} ruled"


def recap(s: CauldronState, records: list[Event]) -> list[Event]:
    """The end screen's chronicle: who cast what, night by night, and what ruled the night."""
    nights = []
    for rec in records:
        if rec.type != "night":
            continue
        data = rec.data
        blocker = data.get("blocked_by")
        if "blocked_by" not in data:  # a record from before blocked_by was kept
            blocker = blocking(s.options, data["primary"], data.get("secondaries", []))
        said = ruled(data["primary"], blocker)
        lines = [f"• {s.name(pid)}: {ing(card)}" for pid, card in data["cast"].items()]
        if lines:  # (a night nobody cast says so once, not once per player)
            lines += [f"• {s.name(pid)}: sat out ({why})" for pid, why in data.get("sat_out", {}).items()]
        nights.append(f"**Night {data['round']}** · {said}\n" + ("\n".join(lines) or "nobody cast"))
    if not nights:
        return []
    return [public("chronicle", "\n\n".join(nights), title="🌙 Who cast what, night by night")]


def reveal_event(s: CauldronState, counts: Counter[str], struck: int) -> Event:
    if not s.table:
        text = "🫕 Nothing falls into the cauldron tonight."
    else:
        tally = ", ".join(f"{ing(k)} ×{counts[k]}" for k in INGREDIENT_ORDER if counts[k])
        text = f"🫕 The cauldron takes {len(s.table)} ingredients, shuffled: {ing_list(s.table)}.\n({tally})"
    blocker = blocking(s.options, s.primary, s.secondaries)
    if s.primary and blocker:
        text += f"\n**Primary:** {ing(s.primary)}, blocked by {ing(blocker)}: it does nothing."
    elif s.primary:
        text += f"\n**Primary:** {ing(s.primary)}."
    if s.tie_note == "primary_tie":
        text += f"\nA tie for the most: no primary. Both are **secondary**: {ing_list(s.secondaries)}."
    elif s.tie_note == "no_effects":
        text += "\nThree or more ingredients tie for the most: no primary, and no secondary stirs."
    if s.secondaries and s.tie_note != "primary_tie":
        text += f"\n**Secondary:** {ing_list(s.secondaries)}"
        text += " (drawn at random among the tied)." if s.tie_note == "secondary_random" else "."
    if struck:
        text += (f"\n☠️ The poison finds {struck} caster{'s' if struck != 1 else ''}: "
                 "they will sit out next night.")
    return public("reveal", text, title=f"Night {s.round}: the cauldron", pause=3.0,
                  data={"round": s.round, "played": list(s.table),
                        "counts": {k: counts[k] for k in INGREDIENT_ORDER if counts[k]},
                        "primary": s.primary, "secondaries": list(s.secondaries),
                        "tie": s.tie_note, "poison_struck": struck})


def run_queue(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    while s.queue and not s.finished:
        step = s.queue.pop(0)
        seq = s.phase_seq
        events += do_step(s, step, rng)
        if s.phase_seq != seq and not s.finished:
            return events  # a choice phase opened; the queue continues when it closes
    if not s.finished:
        events += open_day(s)
    return events


def do_step(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    """Resolve one effect (its entry in the declared tables ``secondaries`` and ``primaries``)."""
    k, role = step.ingredient, step.role
    if role == "secondary":
        return SECONDARIES[k](s, rng)
    return PRIMARIES[k](s, step, rng)


def open_day(s: CauldronState) -> list[Event]:
    s.next_phase("day")
    s.ended_discussion = []
    rc = revealed_counts(s)
    text = (f"☀️ **Day {s.round}.** On the table: {ing_list(s.table)}.\n"
            f"The cauldron: {s.remaining()} cards ({len(s.deck)} in the deck; face up: "
            f"{rc['milk']} {MILK}, {rc['blood']} {BLOOD}). The game ends at {s.options.end_remaining}.")
    if s.poison and s.poison_round == s.round + 1:
        text += f"\n☠️ Poisoned for night {s.round + 1}: {ing_list(s.poison)}."
    text += "\nTalk it over, then press **End discussion** below when you are ready."
    return [public("day", text, title=f"Day {s.round}", opens_phase=True,
                   data={"round": s.round, "table": list(s.table), "deck": len(s.deck),
                         "revealed": rc, "remaining": s.remaining(),
                         "poisoned_next": list(s.poison) if s.poison_round == s.round + 1 else []},
                   say=voice.say_day(s))]


def prompt(s: CauldronState, player_id: str) -> Prompt | None:
    """The night's choice of an ingredient, for each player who may cast tonight."""
    if player_id not in eligible_players(s):
        return None
    counts = Counter(s.hands[player_id])
    choices = []
    for k in INGREDIENT_ORDER:
        if counts[k]:
            i = INGREDIENTS[k]
            label = i.name + (f" ×{counts[k]}" if counts[k] > 1 else "")
            choices.append(Choice(value=k, label=label, description=i.short, emoji=i.emoji))
    current = s.chosen.get(player_id)
    text = "Cast one ingredient into the cauldron. No one will know it was yours."
    if current:
        text += f" Now: {ing(current)} (you can change it)."
    return Prompt(action="play", title=f"Night {s.round}: your ingredient", text=text,
                  fields=[PromptField(name="card", placeholder="Choose an ingredient", choices=choices)])


def legal_actions(s: CauldronState) -> list[Action]:
    out: list[Action] = []
    for pid in eligible_players(s):
        out += [PlayCard(player=pid, card=k) for k in sorted(set(s.hands[pid]), key=INGREDIENT_ORDER.index)]
    return out
