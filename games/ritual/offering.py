"""The Offering (each witch's secret ingredient, the Hollow's whispers to the Corrupted) and the
Ritual Unfolds it leads to: the reading, the verdict, the deaths and the visions."""

from __future__ import annotations

from typing import Any, Literal

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
)

from . import records, voice
from . import ritual as rit
from .circle import (
    LIGHT,
    SHADOW,
    alive,
    all_acted,
    check_acting,
    ingredient_label,
    kill,
    line,
    living_corrupted,
    role_reveal,
    team,
)
from .council import open_council
from .data import load
from .ending import check_win, end_round
from .models import Offer, RitualState
from .words import ordinal


def close_offering(state: RitualState, rng: Rng) -> list[Event]:
    """The Ritual Unfolds: the offerings are read, told and revealed; then the Council or the round's end."""
    data = load()
    living = alive(state)
    idle: list[str] = []
    if state.options.idle_offering == "random":
        for p in living:
            if p not in state.offerings:
                state.offerings[p] = rng.choice(data.roles[state.roles[p]].pool)
                idle.append(p)
    offered = [(p, state.offerings[p]) for p in living if p in state.offerings]
    moon = state.moon
    opts = state.options
    reading = rit.read(data, [i for _, i in offered], moon=moon, amplify_tainted=opts.amplify_tainted,
                       amp_and_sup=opts.amp_and_sup)
    state.moon = False
    performer = state.performer
    pname = state.name(performer)
    q = reading.quality
    record: dict[str, Any] = {
        "round": state.round, "performer": performer, "offerings": dict(offered), "idle": idle,
        "corruption": reading.corruption, "dominant": reading.dominant, "base": reading.base_quality,
        "quality": q, "intensity": reading.intensity, "moon": moon, "warded": reading.warded,
        "deaths": [], "spite": "", "visions": [], "burned": "",
    }
    nar = data.narration
    if performer and state.is_alive(performer):
        opening = f"🔥 **The Ritual Unfolds.** {pname} raises the ladle in the 13th Chair."
    else:
        opening = "🔥 **The Ritual Unfolds.** The 13th Chair stands empty, but the rite goes on."
    if moon:
        opening += "\n" + nar.moon
    events = [public("ritual_started", opening, title="The Ritual Unfolds", pause=2.0)]
    reveal_at = len(events)  # the ingredients go here, in an order drawn last (see below)
    if not offered:
        events.append(public("cauldron_reaction", nar.empty, pause=3.0))
    else:
        reaction = line(getattr(nar.reaction, q), state)
        if reading.intensity != "normal":
            reaction += "\n" + nar.intensity[reading.intensity]  # type: ignore[index]  # keys checked at load
        events.append(public("cauldron_reaction", reaction, pause=3.0))
    events.append(verdict(state, reading, pname))
    died, deaths = ritual_deaths(state, reading, living, rng, record)
    events += deaths
    candidates = [p for p in living if p != performer]
    # ----- visions
    seen = visions(state, reading, candidates, rng)
    record["visions"] = seen
    for v in seen:
        events.append(public("vision", v.pop("text"), data={"targets": v["targets"]}, pause=2.0))
    if not died:  # a backfire kills no one only when the Performer has left the circle
        events.append(public("no_death", nar.death["nobody"], pause=1.0, say="No one dies."))
    if reading.dominant == "protection" and q == rit.PURE and reading.intensity != "muted" \
            and performer and state.is_alive(performer) and state.options.wards_shield_council:
        state.warded = performer
    # The reveal order is drawn after every other draw of the ritual, so a test's scripted
    # randomness (spite, visions) is not spent by the shuffle.
    order = [i for _, i in offered]
    rng.shuffle(order)
    reveals = []
    for k, iid in enumerate(order):
        ing = data.ingredients[iid]
        reveals.append(public(
            "ingredient_revealed",
            line(nar.reveal, state, k).format(icon=ing.icon, name=ing.name),
            data={"ingredient": iid, "name": ing.name, "icon": ing.icon}, pause=2.5,
        ))
    events[reveal_at:reveal_at] = reveals
    state.history.append(records.encode(record))
    events += check_win(state)
    if state.finished:
        return events
    return events + (end_round(state, rng) if died else open_council(state))


def verdict(state: RitualState, reading: rit.Reading, pname: str) -> Event:
    """The ritual's outcome: pure, tainted or backfired, counted and told."""
    nar = load().narration
    q = reading.quality
    if q == rit.PURE:
        state.pure += 1
        said = f"✨ **The ritual is PURE**: the coven's {ordinal(state.pure)} pure ritual."
    elif q == rit.BACKFIRED:
        state.backfired += 1
        said = f"💥 **The ritual BACKFIRES**: the Hollow has fed for the {ordinal(state.backfired)} time."
    else:
        said = "🌘 **The ritual is TAINTED.**"
    body = ""
    if reading.dominant:
        shown_q = rit.BACKFIRED if reading.warded else q  # the wards broke a backfire
        templates = nar.outcome[reading.dominant]  # type: ignore[index]  # keys checked at load
        body = line(getattr(templates, shown_q), state).format(performer=pname) + "\n"
    return public("ritual_outcome", body + said, data={"quality": q}, pause=3.0, say=voice.SAY_QUALITY[q])


def ritual_deaths(state: RitualState, reading: rit.Reading, living: list[str], rng: Rng,
                  record: dict[str, Any]) -> tuple[list[str], list[Event]]:
    """Who a backfire kills: the Performer (or a witch astray), and perhaps one more out of spite;
    with the events that tell it."""
    nar = load().narration
    q = reading.quality
    performer = state.performer
    pname = state.name(performer)
    died: list[str] = []
    events: list[Event] = []
    if q == rit.BACKFIRED:
        if reading.dominant == "misdirection":
            victim = rng.choice(living)
            kill(state, victim)
            died.append(victim)
            kind: Literal["performer", "astray"] = "performer" if victim == performer else "astray"
            events.append(public("death", nar.death[kind].format(victim=state.name(victim)),
                                 data={"player": victim, "cause": "ritual"}, pause=2.0,
                                 say=f"{state.name(victim)} is dead."))
        elif performer and state.is_alive(performer):
            kill(state, performer)
            died.append(performer)
            events.append(public("death", nar.death["performer"].format(victim=pname),
                                 data={"player": performer, "cause": "ritual"}, pause=2.0,
                                 say=f"{pname} is dead."))
        chance = 0.0
        if reading.dominant in ("corruption", "misdirection"):
            chance = 0.25
        if state.round >= 4 and state.infection >= 5:
            chance = 0.5
        if chance:
            pool = [p for p in alive(state) if team(state, p) != "corrupted"]
            if pool and rng.random() < chance:
                victim = pool[0] if len(pool) == 1 else rng.choice(pool)
                kill(state, victim)
                died.append(victim)
                record["spite"] = victim
                events.append(public("death", nar.death["spite"].format(victim=state.name(victim)),
                                     data={"player": victim, "cause": "spite"}, pause=2.0,
                                     say=f"{state.name(victim)} is dead too."))
    for victim in died:
        if state.options.reveal_on_death:
            events.append(role_reveal(state, victim))
    record["deaths"] = died
    return died, events


def visions(state: RitualState, reading: rit.Reading, candidates: list[str],
             rng: Rng) -> list[dict[str, Any]]:
    """The ritual's visions (Divination, and Misdirection's false ones). Draw order of randomness:
    target(s) by ``choice``, then one ``random()`` per scrambled clue."""
    nar = load().narration.vision
    q = reading.quality
    out: list[dict[str, Any]] = []
    pool = [p for p in candidates if state.is_alive(p)]

    def truth(pid: str) -> str:
        return SHADOW if team(state, pid) == "corrupted" else LIGHT

    def flip(a: str) -> str:
        return LIGHT if a == SHADOW else SHADOW

    def scramble(a: str) -> str:
        if state.options.misdirection == "invert":
            return flip(a)
        return a if rng.random() < 0.5 else flip(a)

    if reading.dominant == "divination":
        if q == rit.TAINTED and reading.intensity == "muted":
            return [{"text": nar["closed"], "targets": [], "shown": "", "true": ""}]
        if not pool:
            return [{"text": nar["closed"], "targets": [], "shown": "", "true": ""}]
        first = rng.choice(pool)
        if q == rit.PURE and reading.intensity == "muted" and len(pool) >= 2:
            second = rng.choice([p for p in pool if p != first])
            real = SHADOW if SHADOW in (truth(first), truth(second)) else LIGHT
            shown = scramble(real) if reading.misdirected else real
            text = nar["pair_shadow" if shown == SHADOW else "pair_light"].format(
                a=state.name(first), b=state.name(second))
            return [{"text": text, "targets": [first, second], "shown": shown, "true": real}]
        targets = [first]
        if q == rit.PURE and reading.intensity == "vivid" and len(pool) >= 2:
            targets.append(rng.choice([p for p in pool if p != first]))
        for t in targets:
            real = truth(t)
            if q == rit.PURE:
                shown = scramble(real) if reading.misdirected else real
            elif q == rit.BACKFIRED:
                shown = flip(real)
            else:
                shown = ""
            text = nar[shown or "uncertain"].format(target=state.name(t))  # type: ignore[index]  # keys checked at load
            out.append({"text": text, "targets": [t], "shown": shown, "true": real})
    elif reading.dominant == "misdirection" and q == rit.TAINTED and pool:
        t = rng.choice(pool)
        shown = LIGHT if rng.random() < 0.5 else SHADOW
        text = nar[shown].format(target=state.name(t))  # type: ignore[index]  # keys checked at load
        out.append({"text": text, "targets": [t], "shown": shown, "true": truth(t)})
    return out


def offer(state: RitualState, action: Offer, rng: Rng) -> Outcome:
    check_acting(state, action)
    events: list[Event] = []
    if state.phase != "offering":
        raise IllegalAction("You can only offer an ingredient during The Offering.", code="wrong_phase")
    data = load()
    pool = data.roles[state.roles[action.player]].pool
    iid = action.ingredient
    if iid not in pool:
        for cand in pool:
            if data.ingredients[cand].name.lower() == iid.lower():
                iid = cand
                break
        else:
            names = ", ".join(data.ingredients[i].name for i in pool)
            raise IllegalAction(f"That ingredient is not in your pool. You can offer: {names}.",
                                code="not_your_ingredient")
    first = action.player not in state.offerings
    state.offerings[action.player] = iid
    label = ingredient_label(iid)
    reply = (f"You offer {label}; you can change it until the Offering closes." if first
             else f"You now offer {label} instead; you can change it until the Offering closes.")
    if team(state, action.player) == "corrupted":
        for mate in living_corrupted(state):
            if mate in state.offerings and (mate != action.player or first):
                ev = whisper(state, mate)
                if ev is not None:
                    events.append(ev)
    if all_acted(state, state.offerings):
        events += close_offering(state, rng)
        reply = f"You offer {label}. Every witch has offered: the ritual begins."
    return Outcome(state=state, events=events, reply=reply)


def whispers_after_removal(state: RitualState) -> list[Event]:
    """A Corrupted witch left during the Offering: each teammate who has offered hears the new window."""
    out = []
    for mate in living_corrupted(state):
        if mate in state.offerings:
            ev = whisper(state, mate)
            if ev is not None:
                out.append(ev)
    return out


def teammate_selections(state: RitualState, pid: str) -> dict[str, str | None]:
    return {m: state.offerings.get(m) for m in living_corrupted(state) if m != pid}


def whisper(state: RitualState, pid: str) -> Event | None:
    sel = teammate_selections(state, pid)
    if not sel:
        return None
    if state.options.corrupted_know_each_other:
        parts = [f"**{state.name(m)}** offers {ingredient_label(i)}" if i else
                 f"**{state.name(m)}** has not chosen yet" for m, i in sel.items()]
        payload: dict[str, Any] = {"teammates": sel}
    else:
        chosen = sorted(i for i in sel.values() if i)
        waiting = sum(1 for i in sel.values() if not i)
        parts = [f"another channel offers {ingredient_label(i)}" for i in chosen]
        if waiting:
            parts.append("one channel is still silent" if waiting == 1 else f"{waiting} channels are still silent")
        payload = {"selections": chosen, "waiting": waiting}
    # each whisper restates the whole coordination window of this Offering: the bot may send
    # only the newest of a quick burst of changes (``slot`` on a private event)
    return private(pid, "hollow_whisper", "🩸 The Hollow whispers: " + "; ".join(parts) + ".", data=payload,
                   slot=f"hollow:{state.phase_seq}")


def prompt(state: RitualState, player_id: str) -> Prompt:
    data = load()
    current = state.offerings.get(player_id)
    return Prompt(
        action="offer", title="Offer an ingredient",
        text=f"Your offering for {state.name(state.performer)}'s ritual." + (
            f" Now: **{ingredient_label(current)}** (you can change it)." if current else ""),
        fields=[PromptField(name="ingredient", placeholder="Choose your ingredient", choices=[
            Choice(value=i, label=data.ingredients[i].name, description=data.ingredients[i].flavour,
                   emoji=data.ingredients[i].icon)
            for i in data.roles[state.roles[player_id]].pool])],
    )


def legal_actions(state: RitualState, living: list[str]) -> list[Action]:
    """Every ingredient each living witch may offer (their role's pool)."""
    roles = load().roles
    acts: list[Action] = []
    for p in living:
        acts.extend(Offer.model_construct(player=p, ingredient=i) for i in roles[state.roles[p]].pool)
    return acts
