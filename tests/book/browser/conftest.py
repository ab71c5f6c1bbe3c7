"""Fixtures of the rendered-book tests: one loopback server and one Chromium
per test process (``pytest -n 2`` runs two), and one tab per reader set-up
(window size x colour scheme), reused from page to page."""

from __future__ import annotations

import pytest

from tools import book


def require_build() -> None:
    if not (book.BUILD / "index.html").is_file():
        pytest.fail(
            f"{book.BUILD} has no built book: run `make book` first",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def origin():
    require_build()
    with book.serve(book.BUILD) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not book.CHROMIUM.is_file():
        pytest.fail(
            f"{book.CHROMIUM} not found: the rendered-book test needs "
            "Debian's "
            "Chromium (`apt-get update && apt-get install -y chromium`).",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = book.launch(pw)
        try:
            yield chromium
        finally:
            chromium.close()


class PageEvents:
    """What the browser reported while one page loaded."""

    def __init__(self, origin: str):
        self.origin = origin
        self.clear()

    def clear(self) -> None:
        self.foreign: list[str] = []
        self.failed: list[str] = []
        self.http_errors: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []

    def on_request(self, request) -> None:
        url = request.url
        if url.startswith(("data:", "blob:", "about:")):
            return
        if not url.startswith(self.origin + "/"):
            self.foreign.append(url)

    def on_request_failed(self, request) -> None:
        # ERR_ABORTED is the browser cancelling a request itself, e.g. the
        # previous page's favicon when the tab navigates on; a missing file
        # shows up as an HTTP error from the local server instead.
        if "ERR_ABORTED" in str(request.failure):
            return
        self.failed.append(f"{request.url} ({request.failure})")

    def on_response(self, response) -> None:
        if response.status >= 400:
            self.http_errors.append(f"{response.status} {response.url}")

    def on_console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} @ {message.location}")

    def on_page_error(self, error) -> None:
        self.page_errors.append(str(error))


class Reader:
    """A tab at one window size and colour scheme."""

    def __init__(self, browser, origin: str, viewport: str, theme: str):
        self.origin = origin
        self.viewport = viewport
        self.theme = theme
        self.context = book.new_context(browser, viewport, theme)
        self.tab = self.context.new_page()
        self.events = PageEvents(origin)
        self.tab.on("request", self.events.on_request)
        self.tab.on("requestfailed", self.events.on_request_failed)
        self.tab.on("response", self.events.on_response)
        self.tab.on("console", self.events.on_console)
        self.tab.on("pageerror", self.events.on_page_error)

    def open(self, page: str) -> str:
        """Load ``page``, wait for images, MathJax and fonts; return
        MathJax's state ('not needed', 'missing' or its version)."""
        self.events.clear()
        response = self.tab.goto(f"{self.origin}/{page}", wait_until="load")
        assert response is not None and response.ok, (
            f"{page}: HTTP {response and response.status}"
        )
        return self.tab.evaluate(book.WAIT_FOR_PAGE)


@pytest.fixture(scope="session")
def readers(browser, origin):
    opened: dict[tuple[str, str], Reader] = {}

    def get(viewport: str, theme: str = "light") -> Reader:
        key = (viewport, theme)
        if key not in opened:
            opened[key] = Reader(browser, origin, viewport, theme)
        return opened[key]

    yield get
    for reader in opened.values():
        reader.context.close()
