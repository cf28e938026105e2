"""The copilot's "Write the answer" form on simcord: its placeholder says the shape of the
informant's answer, and a written answer of another shape is refused in words."""

from support.clocktower_helpers import CHARS, begun, copilot_panel, state_of, texts


async def test_the_answer_forms_placeholder_says_the_shape_of_the_answer(world, clock):
    from games.clocktower.copilot import proposals

    w = world
    await begun(w)
    gid, st_thread, _due, panel = await copilot_panel(w, clock)
    found = proposals(await state_of(w), CHARS)
    assert found
    for due in found:
        edit = (await w.host.select(panel, [due.player], custom_id=f"g:{gid}:cs:1:edit")).response
        assert f"Written answers: {due.form.shape}" in edit.content
        form = await w.host.click(edit, label="Write the answer")
        placeholder = form.modal["components"][0]["components"][0]["placeholder"]
        assert placeholder == due.form.shape[:100] != "Your answer, in words"
    # words of no informant's shape are refused, in words, and change nothing
    res = (await w.host.submit_modal(form, {"answer": "Name the pair you like"})).response
    assert "is not an answer the rules allow here" in res.content
    assert not (await state_of(w)).accepted
    assert not any("learns at dawn" in t for t in texts(st_thread))
