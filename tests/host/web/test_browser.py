"""The live table page in a real browser: Debian's Chromium driven by
Selenium through chromedriver, on a table of four simulated boards.

Without chromium and chromedriver these tests skip with one line saying how
to install them (.ci/run installs them). The event-to-page latency of button
flips is printed (figures, not an assertion beyond the issue's 1 s goal
being reported). DECKAHEDRON_WEB_SHOTS=DIR writes the page's screenshots
(laptop.png and phone.png) into DIR, e.g. DECKAHEDRON_WEB_SHOTS=docs/web."""

import os
import re
import shutil
import time

import pytest

from host_tools.commands.table import PAGE_POLL
from tests.host.web.web_table import NAMES, flip_to_the_end, live_table, press_flip

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip("the live page's browser tests need Chromium: apt-get install chromium chromium-driver "
                "(Debian/Ubuntu; .ci/run does it)", allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver", reason="pip install selenium (make setup does it)")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

LAPTOP = (1280, 1000)
PHONE = (390, 844)
FLIPS = 36  # button flips timed


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with live_table(tmp_path_factory.mktemp("webui")) as t:
        yield t


@pytest.fixture(scope="module")
def browser(table):
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=%d,%d" % LAPTOP):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(table.page)
        # app.js may not have run yet when the page has loaded: no window.deckahedron then
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return (window.deckahedron || {}).views || 0") > 0)
        yield driver
    finally:
        driver.quit()


def click(browser, element):
    """Click as a person does: with the element in the middle of the window,
    once it stays where it is (the page redraws as the table changes: a
    click aimed while a card grows or a screen image loads lands on
    something else)."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    where = "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height]"
    end, last = time.monotonic() + 5, None
    while time.monotonic() < end:
        now = browser.execute_script(where, element)
        if now == last:
            break
        last = now
        time.sleep(0.1)
    element.click()


def card(browser, name):
    return browser.find_element(By.CSS_SELECTOR, 'article.player[data-player="%s"]' % name)


def seen(browser, name):
    return browser.execute_script("return window.deckahedron.flipSeen[arguments[0]] || []", name)


def test_the_page_shows_four_players_with_screens_state_and_the_table(browser):
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "article.player .name")]
    assert names == list(NAMES)
    for name in NAMES:
        c = card(browser, name)
        assert c.find_element(By.CSS_SELECTOR, ".conn").text == "connected"
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth", c.find_element(By.CSS_SELECTOR, "img.screen")))
        assert c.find_element(By.CSS_SELECTOR, "img.screen").get_property("naturalWidth") == 296 * 2
        state = c.find_element(By.CSS_SELECTOR, ".state").text
        assert "20 to draw, 0 discarded, 0 exhausted" in state and "incapacitated\nno" in state
    assert " earned, " in browser.find_element(By.ID, "shadow").text
    assert browser.find_element(By.ID, "supply").text.startswith("Blessings: ")


def test_the_token_leaves_the_address_bar_and_the_page_keeps_working_on_its_cookie(browser, table):
    assert table.server.token not in browser.current_url and browser.current_url == table.url
    assert browser.execute_script("return document.cookie") == "", "the cookie is HttpOnly: no script reads it"
    assert browser.find_element(By.ID, "link").text == "live"


def test_a_low_battery_is_on_the_players_card_and_warned_once(browser, table):
    """Issue 27: each device's battery on its card; the GM warned once when one runs low."""
    warning = browser.find_element(By.ID, "battery-warning")
    assert warning.text == ""
    table.sims.boards[1].set_power(3.4)
    try:
        table.on_hub(lambda hub: hub.refresh(hub.player("Bo")))
        WebDriverWait(browser, 20).until(lambda d: warning.text)
        assert warning.text == "Battery low: Bo's device (12% (3.40 V), low). Charge it soon."
        assert "battery\n12% (3.40 V), low" in card(browser, "Bo").find_element(By.CSS_SELECTOR, ".state").text
        browser.execute_script("arguments[0].textContent = ''", warning)  # read; still low: not said again
        table.on_hub(lambda hub: hub.refresh(hub.player("Bo")))
        time.sleep(1)
        assert warning.text == ""
    finally:
        table.sims.boards[1].set_power()
        table.on_hub(lambda hub: hub.refresh(hub.player("Bo")))


def test_a_console_line_that_loses_a_game_asks_first(browser, table):
    field, box = browser.find_element(By.ID, "line"), browser.find_element(By.ID, "line-confirm")
    for answer in ("no", "yes"):
        field.clear()
        field.send_keys("newgame Zed yes")
        click(browser, browser.find_element(By.CSS_SELECTOR, "#line-form button"))
        WebDriverWait(browser, 20).until(lambda d: box.is_displayed())
        assert box.find_element(By.CSS_SELECTOR, ".ask").text == (
            "this would run newgame Zed yes: it starts a new character on the device: the old one is lost "
            "(its backups stay); confirm to do it")
        click(browser, box.find_element(By.CSS_SELECTOR, "button." + answer))
        assert not box.is_displayed()
    # confirmed: the console ran it, and says there is no Zed
    WebDriverWait(browser, 20).until(lambda d: d.find_element(By.ID, "answer").get_attribute("data-ok") == "no")
    assert browser.find_element(By.CSS_SELECTOR, "#answer .refused").text.startswith("no player named 'Zed'")


def test_a_flip_from_the_page_reaches_the_device(browser, table):
    before = table.on_hub(lambda hub: hub.player("Bo").link.state()["discard"])
    c = card(browser, "Bo")
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip select option[value='dex']"))
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip button"))
    WebDriverWait(browser, 20).until(lambda d: "Bo flips Dex" in d.find_element(By.ID, "answer").text)
    assert browser.find_element(By.ID, "answer").get_attribute("data-ok") == "yes"
    assert table.on_hub(lambda hub: hub.player("Bo").link.state()["discard"]) > before
    WebDriverWait(browser, 10).until(lambda d: "(GM)" in card(d, "Bo").find_element(By.CSS_SELECTOR, ".flips").text)


def test_a_flips_reason_from_the_page_is_on_the_players_last_flips(browser, table):
    c = card(browser, "Di")
    field = c.find_element(By.CSS_SELECTOR, "form.flip input[name='reason']")
    field.send_keys("climb the wall")
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip button"))
    WebDriverWait(browser, 20).until(lambda d: "climb the wall" in card(d, "Di").find_element(
        By.CSS_SELECTOR, ".flips").text)
    assert card(browser, "Di").find_element(By.CSS_SELECTOR, ".flips q.reason").text == "climb the wall"
    assert field.get_attribute("value") == ""  # a reason is one flip's


def test_the_gm_asks_one_player_then_everyone_from_the_page(browser, table):
    c = card(browser, "Cy")
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip select option[value='dex']"))
    c.find_element(By.CSS_SELECTOR, "form.flip input[name='reason']").send_keys("climb the wall")
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip button.ask-flip"))
    WebDriverWait(browser, 20).until(lambda d: "asked Cy to flip Dex +0" in d.find_element(By.ID, "answer").text)
    table.on_hub(lambda hub: hub.command("Cy", "press", button="C"))  # Cy declines
    form = browser.find_element(By.ID, "ask-all-form")
    click(browser, form.find_element(By.CSS_SELECTOR, "button"))
    WebDriverWait(browser, 20).until(lambda d: "asked Di to flip Str +0" in d.find_element(By.ID, "answer").text)
    assert all("asked %s" % n in browser.find_element(By.ID, "answer").text for n in NAMES)
    for name in NAMES:
        table.on_hub(lambda hub: hub.command(name, "press", button="C"))


def test_the_boards_buttons_on_the_page_press_the_device(browser, table):
    c = card(browser, "Cy")
    home = c.find_element(By.CSS_SELECTOR, "img.screen").get_attribute("data-tag")
    click(browser, c.find_element(By.CSS_SELECTOR, "button[data-button='C']"))  # the menu
    WebDriverWait(browser, 20).until(lambda d: "Cy presses C: the screen shows" in d.find_element(By.ID, "answer").text)
    shown = browser.find_element(By.ID, "answer").text.split("the screen shows ", 1)[1].split()[0]
    assert shown != "home"
    WebDriverWait(browser, 10).until(
        lambda d: card(d, "Cy").find_element(By.CSS_SELECTOR, "img.screen").get_attribute("data-tag") != home)
    click(browser, c.find_element(By.CSS_SELECTOR, "button[data-button='A']"))  # back, in a menu
    WebDriverWait(browser, 20).until(lambda d: "Cy presses A: the screen shows home" in d.find_element(By.ID, "answer").text)
    WebDriverWait(browser, 10).until(
        lambda d: card(d, "Cy").find_element(By.CSS_SELECTOR, "img.screen").get_attribute("data-tag") == home)


def test_a_teamwork_flip_from_the_page(browser, table):
    form = browser.find_element(By.ID, "team-form")
    click(browser, form.find_element(By.CSS_SELECTOR, "select[name=lead] option[value='Di']"))
    for name in ("Ann", "Cy"):
        click(browser, form.find_element(By.CSS_SELECTOR, "#team-supporters input[value='%s']" % name))
    click(browser, form.find_element(By.CSS_SELECTOR, "button"))
    WebDriverWait(browser, 30).until(lambda d: "teamwork led by Di" in d.find_element(By.ID, "answer").text)
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.ID, "teamwork").text.startswith("Di leads, with Ann, Cy: resolved by "))


def test_a_refusal_from_the_page_is_the_consoles_sentence(browser, table):
    left = table.view()["shadow"]["left"]
    field = browser.find_element(By.CSS_SELECTOR, "#shadow-form input[name=points]")
    field.clear()
    field.send_keys(str(left + 5))
    click(browser, browser.find_element(By.CSS_SELECTOR, "#shadow-form button"))
    WebDriverWait(browser, 20).until(lambda d: d.find_element(By.ID, "answer").get_attribute("data-ok") == "no")
    refused = browser.find_element(By.CSS_SELECTOR, "#answer .refused").text
    assert refused == "only %d Shadow points available" % left
    assert table.view()["shadow"]["left"] == left


def test_button_flips_appear_on_the_page_and_their_latency_is_measured(browser, table, record_property):
    latencies, tries = [], 0
    while len(latencies) < FLIPS:
        tries += 1
        assert tries < FLIPS * 3, "button flips kept failing: %d timed of %d" % (len(latencies), tries)
        name = NAMES[tries % len(NAMES)]
        count = len(seen(browser, name))
        flipped = table.on_hub(lambda hub: _press_and_check(hub, name))
        if flipped is None:  # a menu opened (a card asked for a choice): a fresh game, and on
            table.on_hub(lambda hub: hub.command(name, "new_game", confirm=True, seed=tries))
            continue
        end = time.monotonic() + 10
        while len(seen(browser, name)) == count:
            assert time.monotonic() < end, "%s's button flip did not appear on the page within 10 s" % name
            time.sleep(0.01)
        latencies.append(seen(browser, name)[-1]["at"] / 1000.0 - flipped)
    latencies.sort()
    p50 = latencies[len(latencies) // 2]
    p99 = latencies[min(len(latencies) - 1, int(round(0.99 * (len(latencies) - 1))))]
    # printed after the run, from any worker (tests/conftest.py)
    record_property("figure", "live page: a button flip's event in the hub to the page showing it, %d flips: "
                    "p50 %.0f ms, p99 %.0f ms, max %.0f ms (a real button's event first waits for the next device "
                    "poll, every %g s)" % (len(latencies), p50 * 1000, p99 * 1000, latencies[-1] * 1000, PAGE_POLL))
    text = card(browser, NAMES[-1]).find_element(By.CSS_SELECTOR, ".flips").text
    assert "(buttons)" in text


def _press_and_check(hub, name):
    """A button flip on ``name``'s board: the time it was made, or None when
    it did not flip (the board is not on its home screen)."""
    link = hub.player(name).link
    count = link.state()["count"]
    screen, at = press_flip(hub, name)
    if screen != "home" or link.state()["count"] <= count:
        return None
    return at


def _digest(table, name):
    """The device's own state digest (not the hub's mirror)."""
    return table.on_hub(lambda hub: hub.player(name).link.state()["digest"])


def _confirm_box(browser, name):
    return card(browser, name).find_element(By.CSS_SELECTOR, ".confirm")


def _until_flip_shown(browser, name, count):
    """Wait for the page to show ``name``'s flip after ``count`` shown: its
    card grows a line then, and a click aimed at a button below that line
    while it grows lands on something else (a person, too, waits for it)."""
    WebDriverWait(browser, 20).until(lambda d: len(seen(d, name)) > count)


def _until_asked(browser, box, words):
    """Wait for the undo box to show ``words``; a timeout says what it showed."""
    try:
        WebDriverWait(browser, 20).until(lambda d: box.is_displayed() and words in box.find_element(
            By.CSS_SELECTOR, ".ask").text)
    except TimeoutException:
        raise AssertionError("the undo box did not say %r within 20 s; it showed %r (displayed: %s), the answer %r, "
                             "the page's actions %r" % (words, box.find_element(By.CSS_SELECTOR, ".ask").text,
                                                        box.is_displayed(), browser.find_element(By.ID, "answer").text,
                                                        browser.execute_script("return window.deckahedron.acts"))) from None


def test_undo_from_the_page_asks_first_then_puts_the_device_back(browser, table):
    before, shown = _digest(table, "Ann"), len(seen(browser, "Ann"))
    c = card(browser, "Ann")
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip select option[value='str']"))
    click(browser, c.find_element(By.CSS_SELECTOR, "form.flip button"))
    WebDriverWait(browser, 20).until(lambda d: "Ann flips Str" in d.find_element(By.ID, "answer").text)
    flipped = _digest(table, "Ann")
    assert flipped != before
    _until_flip_shown(browser, "Ann", shown)
    click(browser, c.find_element(By.CSS_SELECTOR, "button.undo"))
    box = _confirm_box(browser, "Ann")
    _until_asked(browser, box, "Undo puts Ann back to before flip")
    asked = box.find_element(By.CSS_SELECTOR, ".ask").text
    # what the button beneath does, in the page's words (not the console's "type undo Ann yes"), and
    # nothing changed yet
    assert asked == "Undo puts Ann back to before flip. Confirm undo does it; Cancel keeps the game as it is.", asked
    assert "type undo" not in asked
    assert _digest(table, "Ann") == flipped
    click(browser, box.find_element(By.CSS_SELECTOR, "button.yes"))
    WebDriverWait(browser, 20).until(lambda d: box.find_element(By.CSS_SELECTOR, ".ask").text.startswith("undone: "))
    assert box.find_element(By.CSS_SELECTOR, ".ask").text == "undone: " + asked[len("Undo puts "):].split(". Confirm")[0]
    assert not box.find_element(By.CSS_SELECTOR, "button.yes").is_displayed()
    assert _digest(table, "Ann") == before
    WebDriverWait(browser, 10).until(lambda d: "undone" in card(d, "Ann").find_element(
        By.CSS_SELECTOR, ".flips li").get_attribute("class"))
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "#history-list li").text.endswith(
        "Ann undo: back to before flip"))
    click(browser, box.find_element(By.CSS_SELECTOR, "button.no"))
    assert not box.is_displayed()


def test_an_undo_the_page_cannot_do_is_refused_in_a_sentence(browser, table):
    shown = len(seen(browser, "Bo"))
    table.on_hub(lambda hub: hub.flip("Bo", attr="str"))
    _until_flip_shown(browser, "Bo", shown)
    c = card(browser, "Bo")
    click(browser, c.find_element(By.CSS_SELECTOR, "button.undo"))
    box = _confirm_box(browser, "Bo")
    _until_asked(browser, box, "Undo puts Bo back to before flip")
    assert table.on_hub(lambda hub: press_flip(hub, "Bo"))[0] == "home"  # Bo flips with the buttons meanwhile
    table.on_hub(lambda hub: hub.poll(0))
    now = _digest(table, "Bo")
    click(browser, box.find_element(By.CSS_SELECTOR, "button.yes"))
    ask = box.find_element(By.CSS_SELECTOR, ".ask")
    WebDriverWait(browser, 20).until(lambda d: "refused" in ask.get_attribute("class"))
    assert ask.text == ("Bo has acted since that undo was shown: it would now put Bo back to before flip; "
                        "ask again"), ask.text
    assert browser.find_element(By.ID, "answer").get_attribute("data-ok") == "no"
    assert _digest(table, "Bo") == now
    click(browser, box.find_element(By.CSS_SELECTOR, "button.no"))


def _history_players(browser):
    return browser.execute_script(  # at once: the list is redrawn as the record grows
        "return [...document.querySelectorAll('#history-list li b')].map(b => b.textContent)")


def _choose_history(browser, name):
    select = browser.find_element(By.ID, "history-player")
    click(browser, select.find_element(By.CSS_SELECTOR, "option[value='%s']" % name))


def test_the_history_is_filtered_by_player(browser, table):
    WebDriverWait(browser, 10).until(lambda d: len(set(_history_players(d))) == 4)
    _choose_history(browser, "Di")
    WebDriverWait(browser, 10).until(lambda d: set(_history_players(d)) == {"Di"})
    for fmt in ("md", "csv", "json"):
        assert browser.find_element(By.ID, "export-" + fmt).get_attribute("href").endswith(
            "/record.%s?player=Di" % fmt)
    _choose_history(browser, "")
    WebDriverWait(browser, 10).until(lambda d: len(set(_history_players(d))) == 4)


def _download(browser, tmp_path, link_id):
    """Click an export link; the file it downloaded."""
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    before = set(os.listdir(tmp_path))
    click(browser, browser.find_element(By.ID, link_id))
    end = time.monotonic() + 20
    while True:
        new = [n for n in set(os.listdir(tmp_path)) - before if not n.endswith(".crdownload")]
        if new:
            return tmp_path / new[0]
        assert time.monotonic() < end, "nothing downloaded within 20 s: %s" % os.listdir(tmp_path)
        time.sleep(0.1)


def test_the_markdown_export_downloads_and_names_the_flips(browser, table, tmp_path):
    for who in ("Ann", "Bo", "Di"):  # the record it reads is made here too: the test also runs alone
        flip_to_the_end(table, who)
    status, plan = table.post({"action": "undo", "player": "Ann"})
    assert status == 200, plan
    assert table.post({"action": "undo", "player": "Ann", "confirm": True, "entry": plan["undo"]["entry"]})[0] == 200
    got = _download(browser, tmp_path, "export-md")
    assert re.fullmatch(r"deckahedron-record-\d{4}-\d\d-\d\d\.md", got.name)
    md = got.read_text()
    assert md.startswith("# Session record\n")
    flips = re.findall(r"^- \*\*(\w+)\*\* ends the flip \(([\w ,]+)\), resolved by \w+: (MISS|PARTIAL|SUCCESS|TRIUMPH)",
                       md, re.M)
    assert {who for who, _, _ in flips} >= {"Ann", "Bo", "Di"}, md
    assert "**Ann** undo: back to before flip\n" in md and "*(undone)*" in md
    _choose_history(browser, "Bo")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "export-md").get_attribute("href").endswith("=Bo"))
    got = _download(browser, tmp_path, "export-md")
    assert got.name.endswith("-Bo.md")
    players = set(re.findall(r"^- \*\*(\w+)\*\*", got.read_text(), re.M))
    assert players == {"Bo"}
    _choose_history(browser, "")


def test_screenshots_at_laptop_and_phone_widths(browser, table, tmp_path):
    """Neither width scrolls sideways; pictures of both."""
    for body in ({"action": "damage", "player": "Cy", "power": 9, "wounds": 1}, {"action": "blessing", "player": "Ann"}):
        assert table.post(body)[0] == 200
    out = os.environ.get("DECKAHEDRON_WEB_SHOTS") or str(tmp_path)
    os.makedirs(out, exist_ok=True)
    for label, (w, h) in (("laptop", LAPTOP), ("phone", PHONE)):
        browser.set_window_size(w, h)
        time.sleep(0.5)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= browser.execute_script("return document.documentElement.clientWidth"), \
            "the page is wider than a %s screen (%d px): it scrolls sideways" % (label, width)
        if label == "laptop":  # the whole table in one picture; a phone's first screen as it is
            tall = browser.execute_script("return document.documentElement.scrollHeight")
            browser.set_window_size(w, min(tall + 140, 6000))
            time.sleep(0.5)
        browser.save_screenshot(os.path.join(out, "%s.png" % label))
    browser.set_window_size(*LAPTOP)


def _ax_node(browser, role, name_part):
    """The accessibility tree's node of ``role`` whose name holds ``name_part`` (Chromium's own tree,
    as a screen reader reads it)."""
    nodes = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    for n in nodes:
        if n.get("role", {}).get("value") == role and name_part in n.get("name", {}).get("value", ""):
            return n
    return None


def test_a_button_flip_is_announced_in_words_in_a_live_region(browser, table):
    """Issue 27, the accessible page: a flip made with a device's buttons (not through the page) is said
    in words in a live region a screen reader announces, and the "speak results" switch is a named
    checkbox whose choice the browser keeps."""
    results = browser.find_element(By.ID, "results")
    assert results.get_attribute("aria-live") == "polite" and results.get_attribute("role") == "status"
    name = NAMES[0]
    for attempt in range(6):
        before = results.text
        if table.on_hub(lambda hub: _press_and_check(hub, name)) is not None:
            break
        table.on_hub(lambda hub: hub.command(name, "new_game", confirm=True, seed=40 + attempt))
    else:
        raise AssertionError("%s's board never flipped from its home screen" % name)
    WebDriverWait(browser, 20).until(lambda d: d.find_element(By.ID, "results").text != before)
    said = results.text
    assert said.startswith(name + " flipped ") and "with the device's buttons" in said, said
    assert any(w in said for w in ("MISS", "PARTIAL", "SUCCESS", "TRIUMPH")), said
    assert _ax_node(browser, "status", "the last result") is not None, "the live region is not in the accessibility tree"
    switch = _ax_node(browser, "checkbox", "speak results")
    assert switch is not None, "the speak-results switch has no name a screen reader can say"
    box = browser.find_element(By.ID, "speak")
    assert not box.is_selected()  # off until the GM turns it on
    click(browser, box)
    assert browser.execute_script("return localStorage.getItem('deckahedron.speak')") == "on"
    browser.refresh()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return window.deckahedron.views") > 0)
    assert browser.find_element(By.ID, "speak").is_selected(), "the switch forgot the GM's choice"
    click(browser, browser.find_element(By.ID, "speak"))  # off again for the tests after


# Every control a GM can use with a mouse, as the page marks them up (hidden ones aside).
CONTROLS_JS = """
return [...document.querySelectorAll('button, input, select, a[href], textarea')]
  .filter(e => !e.disabled && e.offsetParent !== null && e.tabIndex >= 0);
"""
FOCUS_JS = """
const e = document.activeElement, s = getComputedStyle(e);
return [e, s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2];
"""


def test_the_keyboard_reaches_every_control_with_a_visible_focus(browser):
    """Issue 27, the accessible page: Tab walks every control of the page, each shown focused by an
    outline of at least 2 px (nothing only a mouse can reach)."""
    browser.refresh()  # Tab starts from the top of the page, not from a control an earlier test used
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return window.deckahedron.views") > 0)
    controls = browser.execute_script(CONTROLS_JS)
    assert len(controls) > 20, len(controls)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    reached, unmarked = [], []
    for _ in range(len(controls) * 2):
        element, outlined = browser.execute_script(FOCUS_JS)
        if element.tag_name == "body" or any(element == r for r in reached):
            break  # past the last control
        reached.append(element)
        if not outlined:
            unmarked.append(element.get_attribute("outerHTML")[:80])
        element.send_keys(Keys.TAB)
    missed = [c.get_attribute("outerHTML")[:80] for c in controls if not any(c == r for r in reached)]
    assert not missed, "Tab never reaches: %s" % missed[:5]
    assert not unmarked, "focused without a visible outline: %s" % unmarked[:5]


# Each player's action controls, and where each is against the first screen: down to the console
# line, which stays at the foot of the window over the page.
ACTIONS_JS = """
const fold = document.querySelector('.console').getBoundingClientRect().top;
const width = document.documentElement.clientWidth;
return [...document.querySelectorAll('article.player')].map(card => [card.dataset.player, fold, width,
  [...card.querySelectorAll('.actions button, .actions input, .actions select')]
    .filter(e => e.offsetParent !== null)
    .map(e => { const r = e.getBoundingClientRect();
                return [e.textContent.trim() || e.name || e.tagName, r.top, r.bottom, r.left, r.right]; })]);
"""


def _actions_out_of_view(browser):
    """{player: [the action controls not wholly on the screen, with where they are]}, and the fold."""
    out, fold = {}, None
    for name, fold, width, controls in browser.execute_script(ACTIONS_JS):
        assert len(controls) >= 12, (name, controls)  # press A-▼, flip form, damage form, Blessing, Wound, Undo
        far = [c for c in controls if c[1] < 0 or c[2] > fold or c[3] < 0 or c[4] > width]
        if far:
            out[name] = far
    return out, fold


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)])
def test_on_a_laptop_each_players_actions_are_above_the_fold(browser, size):
    """Issue 27, the laptop: with four players, each player's actions (the board's buttons, Flip and Ask
    with their attribute, net and why, Damage, Blessing, Wound, Undo) are on the first screen as the page
    opens, above the console line at its foot: the players come before Shadow, Supply and Teamwork, and a
    card's actions before its state and last flips. A jump to a player keeps them there."""
    browser.set_window_size(*size)
    try:
        browser.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.5)
        out, fold = _actions_out_of_view(browser)
        assert not out, "below the fold at %dx%d (the console line from %d px): %s" % (size + (fold, out))
        for link in browser.find_elements(By.CSS_SELECTOR, "#jump a"):
            link.click()
            time.sleep(0.3)
            out, fold = _actions_out_of_view(browser)
            assert link.text not in out, "after the jump to %s: %s" % (link.text, out[link.text])
    finally:
        browser.set_window_size(*LAPTOP)


def test_on_a_phone_each_player_is_one_tap_from_the_top(browser):
    """Issue 27, the phone: the jump list is on the first screen, and a tap on a name brings that
    player's card into view (instead of a scroll past Shadow, Supply, Teamwork and Ask everyone)."""
    browser.set_window_size(*PHONE)
    try:
        browser.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        jump = browser.find_element(By.ID, "jump")
        links = jump.find_elements(By.TAG_NAME, "a")
        assert [a.text for a in links] == list(NAMES)
        inner = browser.execute_script("return window.innerHeight")
        assert jump.rect["y"] + jump.rect["height"] <= inner, "the jump list is below the phone's first screen"
        last = NAMES[-1]
        links[-1].click()
        time.sleep(0.5)
        top = browser.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().top",
                                     "player-" + last)
        assert 0 <= top < inner / 2, "%s's card is not in view after the tap (top at %d px)" % (last, top)
    finally:
        browser.set_window_size(*LAPTOP)
