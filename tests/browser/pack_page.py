"""The Lesson pack (``lesson_pack``) in a Chromium tab opened from ``file://`` with every other request aborted:
shared by its browser test and its benchmark."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

#: Milliseconds from a key press or a click until the open step's charts are drawn and the next frame painted.
_SWITCH = """async (how) => {
    const start = performance.now();
    if (how === 'Next' || how === 'Back') document.getElementById(how.toLowerCase()).click();
    else document.dispatchEvent(new KeyboardEvent('keydown', {key: how, bubbles: true}));
    await window.lessonPack.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now() - start;
}"""
#: Whether every chart of every step is drawn (the page draws them ahead, after the open step's).
_ALL_DRAWN = "() => [...document.querySelectorAll('.chart')].every((chart) => chart.querySelector('.main-svg'))"


@dataclass
class PackTab:
    """A tab on the pack: its page, the requests it tried outside the folder and its script errors."""

    page: object
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, folder: Path, fragment: str = "", *, all_drawn: bool = False, timeout_ms: float = 60_000) -> None:
        """Open ``folder``'s index.html (at ``#fragment``) and wait until the open step's charts are drawn (and,
        if ``all_drawn``, every step's)."""
        self.page.goto((Path(folder) / "index.html").resolve().as_uri() + (f"#{fragment}" if fragment else ""))
        self.page.evaluate("window.lessonPack.ready")
        if all_drawn:
            self.page.wait_for_function(_ALL_DRAWN, timeout=timeout_ms)

    def switch_ms(self, how: str) -> float:
        """Milliseconds a step switch takes: ``how`` is "Next", "Back" (the buttons) or an arrow key's name."""
        return self.page.evaluate(_SWITCH, how)

    def open_step(self) -> int:
        """The number of the step on screen (from its heading)."""
        return int(self.page.locator("section:not(.parked) h2").inner_text().split(" · ")[0])


def pack_tab(browser, width: int, height: int) -> PackTab:
    """A fresh tab (own context) of ``width`` × ``height`` that lets only ``file://`` requests through and
    records the rest and every console error or uncaught exception."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    tab = PackTab(page)

    def route(request_route):
        if request_route.request.url.startswith("file://"):
            request_route.continue_()
        else:
            tab.outside.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    page.on("console", lambda message: tab.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: tab.errors.append(str(error)))
    return tab
