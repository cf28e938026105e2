"""The twelve effects of a night: each ingredient's secondary and primary, in two declared tables
(``SECONDARIES``, ``PRIMARIES``; a test checks every ingredient has both). Each returns its events;
a primary that opens a choice phase (the Gaze, the Yew vote) pauses the resolution queue."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import Event, Rng, private, public

from .data import HEROES, INGREDIENT_ORDER
from .ending import check_end, game_over_event, revealed_counts
from .models import CauldronOptions, CauldronState, HeroChange, Knowledge, Step
from .terms import BLOOD, KIND_LABEL, MILK, ing, ing_list, thistle_threshold


def blocked(s: CauldronState) -> bool:
    return blocking(s.options, s.primary, s.secondaries) is not None


def blocking(options: CauldronOptions, primary: str | None, secondaries: list[str]) -> str | None:
    """The secondary that blocks this primary (option ``blocker``), if one does."""
    blockers = {"wolfbane": {"wolfbane"}, "thistle": {"thistle"},
                "both": {"wolfbane", "thistle"}}[options.blocker]
    return next((k for k in secondaries if k in blockers), None) if primary else None


def effect(s: CauldronState, key: str, role: str, text: str, **data: Any) -> Event:
    head = f"{ing(key)} ({role})"
    return public("effect", f"**{head}:** {text}", title=head, pause=2.0,
                  data={"ingredient": key, "role": role, **data,
                        "deck": len(s.deck), "revealed": revealed_counts(s),
                        "remaining": s.remaining()})


def casters_of(s: CauldronState, key: str) -> list[str]:
    return [pid for pid in s.active() if s.played_by.get(pid) == key]

# ----- secondaries


def secondary_brigid(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    if s.primary is None:
        text = "there is no primary to repeat."
    elif s.primary == "ceol":
        text = "Ceol needs only one song: the primary is not repeated."
    elif blocked(s):
        text = "the primary is blocked, so there is nothing to repeat."
    else:
        text = f"{ing(s.primary)} will happen twice."
    events.append(effect(s, "brigid", "secondary", text))
    return events


def secondary_gaze(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    casters = casters_of(s, "gaze")
    if not s.deck or not casters:
        events.append(effect(s, "gaze", "secondary", "no one can peek: the deck is empty."
                             if not s.deck else "no one is left to peek."))
        return events
    top = s.deck[0]
    for pid in casters:
        s.knowledge[pid].append(Knowledge(round=s.round, how="peek", card=top, kind=s.kinds[top]))
        events.append(private(pid, "peek", f"👁️ You peek at the top card of the cauldron: "
                                           f"**{KIND_LABEL[s.kinds[top]]}**. It stays on top.",
                              data={"kind": s.kinds[top]}))
    n = len(casters)
    events.append(effect(s, "gaze", "secondary",
                         f"{n} gaze{'s' if n != 1 else ''} fall on the top card; it stays where it is.",
                         peeks=n))
    return events


def secondary_ceol(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    events.append(effect(s, "ceol", "secondary", "the music fades; nothing happens."))
    return events


def secondary_thistle(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    block = " It also blocks the primary." if s.primary and s.options.blocker in ("thistle", "both") else ""
    if not s.deck:
        events.append(effect(s, "thistle", "secondary", "the deck is empty; nothing to discard." + block))
        return events
    card = s.deck.pop(0)
    s.out.append(card)
    events.append(effect(s, "thistle", "secondary",
                         "the top card is cast out of the game unseen." + block, discarded=1))
    events += check_end(s)
    return events


def secondary_wolfbane(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    if s.primary and s.options.blocker in ("wolfbane", "both"):
        text = f"the root chokes {ing(s.primary)}: the primary is blocked."
    else:
        text = "there is no primary to block." if not s.primary else "the root does nothing."
    events.append(effect(s, "wolfbane", "secondary", text, blocked=bool(s.primary) and blocked(s)))
    return events


def secondary_yew(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    if not s.deck:
        events.append(effect(s, "yew", "secondary", "the deck is empty; nothing is revealed."))
        return events
    top = s.deck[0]
    kind = s.kinds[top]
    casters = casters_of(s, "yew")
    if kind == "blood":
        for pid in casters:
            s.sit_out[pid] = s.round + 1
            events.append(private(pid, "poisoned", f"☠️ The draught was Blood: you cannot cast anything "
                                                   f"on night {s.round + 1}."))
        text = (f"the top card is **{BLOOD}**: everyone who drank Yew is poisoned and sits out "
                "next night. The card stays on top.")
    else:
        text = f"the top card is **{MILK}**: the Yew drinkers are safe. The card stays on top."
    events.append(effect(s, "yew", "secondary", text, top=kind,
                         poisoned=len(casters) if kind == "blood" else 0))
    return events

# ----- primaries


def primary_brigid(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    events: list[Event] = []
    cards = s.deck[:2]
    del s.deck[:2]
    kinds = [s.kinds[c] for c in cards]
    if len(cards) == 2 and kinds == ["milk", "milk"]:
        s.revealed.append(cards[0])
        s.deck.append(cards[1])
        text = f"the top two cards are {MILK} and {MILK}: one stays face up, the other goes to the bottom."
    else:
        s.deck.extend(cards)
        shown = " and ".join(KIND_LABEL[k] for k in kinds) or "nothing"
        text = f"the top cards are {shown}: they return to the bottom of the deck."
    events.append(effect(s, "brigid", "primary", text, shown=kinds, rep=step.rep))
    return events


def primary_gaze(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    events: list[Event] = []
    casters = casters_of(s, "gaze")
    candidates = list(s.deck)
    s.gaze_pending, s.gaze_choices = {}, {}
    for pid in casters:
        if not candidates:
            events.append(private(pid, "gaze_none", "👁️ The cauldron has no hidden card left for you."))
            continue
        card = rng.choice(candidates)
        candidates.remove(card)
        s.gaze_pending[pid] = card
        s.knowledge[pid].append(Knowledge(round=s.round, how="gaze", card=card, kind=s.kinds[card],
                                          fate="pending"))
        events.append(private(pid, "gaze", f"👁️ The Cailleach shows you a card of the cauldron: "
                                           f"**{KIND_LABEL[s.kinds[card]]}**. Put it at the bottom, "
                                           "or cast it out of the game?", data={"kind": s.kinds[card]}))
    if not s.gaze_pending:
        events.append(effect(s, "gaze", "primary", "no hidden card is left to see."))
        return events
    s.next_phase("gaze")
    n = len(s.gaze_pending)
    again = " again" if step.rep > 1 else ""
    events.append(public("gaze_open", f"👁️ **Cailleach's Gaze**{again}: {n} player{'s' if n != 1 else ''} "
                                      "each see a random card of the cauldron and choose: bottom, or out "
                                      "of the game.", title="Cailleach's Gaze", opens_phase=True,
                         data={"choosing": n, "rep": step.rep}))
    return events


def primary_ceol(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    events: list[Event] = []
    casters = casters_of(s, "ceol")
    if not casters:
        events.append(effect(s, "ceol", "primary", "no one is left to sing."))
        return events
    pool = [s.heroes[pid] for pid in casters]
    drew = bool(s.hero_deck)
    if drew:
        pool.append(s.hero_deck.pop(0))
    rng.shuffle(pool)
    for pid in casters:
        before = s.heroes[pid]
        after = pool.pop(0)
        s.heroes[pid] = after
        hero = HEROES[after]
        if after != before:
            s.hero_changes[pid].append(HeroChange(round=s.round, before=before, after=after))
            text = (f"🎶 The song of the cairn changes you. You are now **{hero.name}** "
                    f"({'Good' if hero.team == 'good' else 'Evil'}). _{hero.legend}_")
        else:
            text = f"🎶 The song passes over you: you are still **{hero.name}**."
        events.append(private(pid, "new_hero", text, title="Your hero",
                              data={"hero": after, "team": hero.team, "changed": after != before}))
    for leftover in pool:  # face down and unseen: back into the hero deck, or out of the game
        if s.options.ceol_leftover == "return":
            s.hero_deck.insert(rng.randrange(len(s.hero_deck) + 1), leftover)
        else:
            s.hero_discard.append(leftover)
    n = len(casters)
    singers = f"the heroes of {n} singer{'s' if n != 1 else ''} are"
    if not drew:
        text = f"{singers} shuffled and dealt back (the hero deck is empty)."
    elif s.options.ceol_leftover == "return":
        text = f"{singers} shuffled with one from the hero deck and dealt back; the leftover returns to the deck."
    else:
        text = f"{singers} shuffled with one from the hero deck and dealt back; the leftover is discarded."
    events.append(effect(s, "ceol", "primary", text, singers=n, spare=drew))
    return events


def primary_thistle(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    events: list[Event] = []
    cards = s.deck[:2]
    thistles = s.table.count("thistle")
    limit = thistle_threshold(len(s.active()))
    many = thistles > limit
    purge = "milk" if many else "blood"
    kinds = [s.kinds[c] for c in cards]
    gone = 0
    kept = False
    for c in cards:  # the cards stay counted in the deck until they are discarded
        if s.kinds[c] == purge and not s.finished:
            s.deck.remove(c)
            s.out.append(c)
            s.out_known.append(c)
            gone += 1
            events += check_end(s, announce=False)
        else:
            kept = True
    if kept:
        rng.shuffle(s.deck)
    shown = " and ".join(KIND_LABEL[k] for k in kinds) or "nothing"
    rule = (f"{thistles} Thistles, more than {limit}: the Milk is discarded, the Blood shuffled back"
            if many else f"{thistles} Thistle{'s' if thistles != 1 else ''}, not more than {limit}: "
                         "the Blood is discarded, the Milk shuffled back")
    events.append(effect(s, "thistle", "primary", f"revealed {shown}. {rule}.", shown=kinds,
                         thistles=thistles, threshold=limit, discarded=gone, rep=step.rep))
    if s.finished:
        events.append(game_over_event(s))
    return events


def primary_wolfbane(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    events: list[Event] = []
    lost = []
    for pid in s.active():
        hand = s.hands[pid]
        if not hand:
            continue
        card = rng.choice(sorted(hand, key=INGREDIENT_ORDER.index))
        hand.remove(card)
        s.discard.append(card)
        lost.append(card)
        events.append(private(pid, "wolfbane", f"🐺 The wolfbane bites: you discard {ing(card)}.",
                              data={"card": card}))
    rng.shuffle(lost)
    events.append(effect(s, "wolfbane", "primary",
                         f"every player discards a random card: {ing_list(lost)}.",
                         lost=lost, rep=step.rep))
    return events


def primary_yew(s: CauldronState, step: Step, rng: Rng) -> list[Event]:
    events: list[Event] = []
    voters = casters_of(s, "yew")
    if not voters:
        events.append(effect(s, "yew", "primary", "no one is left to vote."))
        return events
    already = s.poison if s.poison_round == s.round + 1 else []
    s.yew_voters = voters
    s.yew_options = [k for k in INGREDIENT_ORDER if k != "yew" and k not in already]
    s.yew_votes = {}
    s.next_phase("yew")
    n = len(voters)
    again = " again" if step.rep > 1 else ""
    events.append(public("yew_open", f"🍵 **Yew's Quiet Draught**{again}: {n} drinker{'s' if n != 1 else ''} "
                                     "vote in secret for the ingredient to poison next night.",
                         title="Yew's Quiet Draught", opens_phase=True,
                         data={"voters": n, "options": list(s.yew_options), "rep": step.rep}))
    return events


SECONDARIES: dict[str, Callable[[CauldronState, Rng], list[Event]]] = {
    "brigid": secondary_brigid, "gaze": secondary_gaze, "ceol": secondary_ceol,
    "thistle": secondary_thistle, "wolfbane": secondary_wolfbane, "yew": secondary_yew,
}
PRIMARIES: dict[str, Callable[[CauldronState, Step, Rng], list[Event]]] = {
    "brigid": primary_brigid, "gaze": primary_gaze, "ceol": primary_ceol,
    "thistle": primary_thistle, "wolfbane": primary_wolfbane, "yew": primary_yew,
}
