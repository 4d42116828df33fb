"""The "shown" watermark's bookkeeping (bot/telegram/shown.py), without a bot: futures noted while a step
is presented hold the watermark until they resolve, in log order; a task started during a step
adds nothing to it once the step is over."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.telegram.shown import KEY, SAVE_LAG, Watermarks, note


@dataclass
class G:
    id: int = 1
    ui: dict = field(default_factory=dict)


async def test_the_watermark_waits_for_every_future_of_the_steps_before_it():
    loop = asyncio.get_running_loop()
    marks, g = Watermarks(), G()
    first, second = loop.create_future(), loop.create_future()
    with marks.step(g, 1):
        note(first)
    with marks.step(g, 2):
        note(second)
    with marks.step(g, 3):
        pass  # a step that sends nothing
    assert KEY not in g.ui
    second.set_result("sent")
    await asyncio.sleep(0)
    assert KEY not in g.ui  # step 1 is still out
    first.set_result(None)  # dropped for good counts as gone
    await asyncio.sleep(0)
    assert g.ui[KEY] == 3


async def test_a_task_started_in_a_step_adds_nothing_after_it():
    loop = asyncio.get_running_loop()
    marks, g = Watermarks(), G()
    later, go = loop.create_future(), asyncio.Event()

    async def countdown():
        await go.wait()
        note(later)  # e.g. a countdown's edit, long after its step

    with marks.step(g, 1):
        task = loop.create_task(countdown())
    assert g.ui[KEY] == 1
    go.set()
    await task
    with marks.step(g, 2):
        pass
    assert g.ui[KEY] == 2  # the countdown's pending edit holds nothing


async def test_unsaved_and_lagging_follow_the_stored_ui():
    marks, g = Watermarks(), G(ui={KEY: 5})
    for n in range(6, 6 + SAVE_LAG - 1):
        with marks.step(g, n):
            pass
    assert not marks.lagging(g) and marks.unsaved([g]) == [g]
    with marks.step(g, 5 + SAVE_LAG):
        pass
    assert marks.lagging(g)
    marks.stored(g)
    assert not marks.lagging(g) and marks.unsaved([g]) == []
