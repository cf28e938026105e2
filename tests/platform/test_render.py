"""Messages fit Discord's limits: 2,000 characters, 25 options per select, 5 rows."""

from bot.render import EMBED_TOTAL_LIMIT, chunks, message_parts
from bot.views import ChoiceButton, ChoiceSelect, prompts_view
from games.engine import Choice, Event, Prompt, PromptField


def test_chunks_split_at_line_breaks_within_the_limit():
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(200))
    parts = chunks(text, 2000)
    assert all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == text
    assert chunks("", 2000) == [""]
    assert chunks("a" * 4500, 2000) == ["a" * 2000, "a" * 2000, "a" * 500]


def test_long_event_becomes_several_messages_each_within_every_limit():
    text = "word " * 2000
    parts = message_parts(Event(type="x", title="T" * 300, text=text), "The Ritual", 4)
    assert len(parts) == 3 and parts[0].title == "T" * 256
    assert all(len(e.description) <= 4096 and len(e) <= EMBED_TOTAL_LIMIT for e in parts)  # len(): as Discord counts
    assert [e.footer.text for e in parts] == [f"The Ritual · game #4 · {i}/3" for i in (1, 2, 3)]
    assert " ".join(e.description for e in parts).split() == text.split()  # nothing dropped
    one = message_parts(Event(type="x", text="short"), "The Ritual", 4)
    assert len(one) == 1 and one[0].footer.text == "The Ritual · game #4"


async def test_prompts_view_respects_option_and_row_limits():
    many = [Choice(value=str(i), label=f"Option {i} " + "y" * 120, description="d" * 150) for i in range(40)]
    prompts = [Prompt(action="pick", title="Pick", fields=[PromptField(name="a", placeholder="A", choices=many),
                                                           PromptField(name="b", placeholder="B", choices=many)],
                      submit_label="Confirm")] * 3
    view = prompts_view(7, 3, prompts)
    selects = [i for i in view.children if isinstance(i, ChoiceSelect)]
    buttons = [i for i in view.children if isinstance(i, ChoiceButton)]
    assert len(selects) == 2 and len(buttons) == 1  # the second prompt would need rows 4-6
    for s in selects:
        assert len(s.item.options) == 25
        assert all(len(o.label) <= 100 and len(o.description) <= 100 for o in s.item.options)
        assert len(s.item.custom_id) <= 100 and s.item.custom_id.startswith("g:7:s:3:pick:")
    assert buttons[0].item.custom_id == "g:7:b:3:pick"
    assert prompts_view(7, 3, []) is None
