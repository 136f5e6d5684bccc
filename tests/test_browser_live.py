"""A live class in Debian's chromium: a teacher on the projector (1280 x 720) and three students on phones (390 px), each
in a browser of their own, one in Chinese, through vote → discuss → vote again → reveal → one more like it; then two
replicas sharing the class through PostgreSQL.

The projector updates by itself (nobody touches it between a phone's tap and the count); a reload keeps the teacher
(the browser's cookie) and the student's seat and answers (the seat's cookie: never the address, never the nickname
typed again); a class ended on another page reaches the projector with no question open. Before each reveal nothing
the projector shows or receives (every websocket frame) names the answer, whatever the teacher toggles; a wrong teacher
link seats nobody.

The module's server shares this test process's database, so that a test can seat students and cast their votes
through the store (the projector, not the phones, is what those tests watch).
"""

from __future__ import annotations

import math
import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attention_plot.text import Texts
from classroom import store
from classroom.network import network_address
from scripts.axe_scan import violations

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
JOINED = {"en": "You are in class", "zh": "你已加入课堂"}
VOTE = {("en", 1): "Your answer", ("en", 2): "Your answer, voting again", ("zh", 1): "你的答案", ("zh", 2): "你的答案（第二次投票）"}
SHOTS = Path(__file__).resolve().parent / "screenshots"


@pytest.fixture(scope="module")
def app_url():
    """The app, its live classes in this test process's database (``store.connect()`` here reads and writes them)."""
    from scripts.browser import CHROMIUM, MISSING_CHROMIUM, serve

    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(MISSING_CHROMIUM)
    with serve(env={"ATTENTION_CLASS_FILE": os.environ["ATTENTION_CLASS_FILE"]}) as url:
        yield url


def start_class(page, url: str, lang: str, nicknames: bool = False, rows: int = 0, seats: int = 0) -> str:
    page.goto(f"{url}/live?lang={lang}")
    if nicknames:
        page.get_by_text("Ask students for a nickname", exact=True).click()
    for name, value in (("rows", rows), ("seats", seats)):
        if value:
            box = page.locator(f".st-key-live-start-{name} input")
            box.fill(str(value))
            box.press("Tab")
            page.wait_for_function(f"() => document.querySelector('.st-key-live-start-{name} input').value === '{value}'")
    page.locator(".st-key-live-start button").click()
    page.locator(".live-code").wait_for(timeout=30000)
    return page.locator(".live-code").inner_text().strip()


def join(open_page, url: str, code: str, lang: str, nickname: str | None = None):
    phone = open_page(f"{url}/live?join={code}&lang={lang}", "phone")
    if nickname is not None:
        phone.locator("[data-testid=stTextInput] input").nth(1).fill(nickname)
        phone.locator("[data-testid=stFormSubmitButton] button").click()
    phone.get_by_text(JOINED[lang], exact=False).first.wait_for(timeout=30000)
    assert "seat" not in phone.url  # the seat is the browser's secret: in a cookie, never in the address
    for _ in range(100):  # the page hands its ticket back; the server's answer sets the cookie
        kept = next((c for c in phone.context.cookies() if c["name"] == "attention_seat"), None)
        if kept:
            break
        phone.wait_for_timeout(100)
    assert kept and kept["httpOnly"] and kept["sameSite"] == "Strict", kept
    seat_ = kept["value"].partition(".")[2]  # never in the page, nor within a script's reach
    assert seat_ and seat_ not in phone.content() and "attention_seat" not in phone.evaluate("document.cookie")
    return phone


def controls(page) -> None:
    """Open presenter mode's closed box of asking and ending (its insides are drawn once it is open)."""
    page.locator(".st-key-live-controls summary").click()
    page.locator(".st-key-live-pick").wait_for(timeout=15000)


def pick(page, text: str, live: bool = False) -> None:
    """Choose a question in "Ask the class" and open it (``live``: its answers shown as they arrive); in presenter mode
    from its closed box, which closes again. A select box drawn again while it opens (the page still running after the
    class started) closes its list: then it is opened again."""
    projected = "present=1" in page.url
    if projected:
        controls(page)
    if live:
        page.locator(".st-key-live-live label").click()
        page.wait_for_function("() => document.querySelector('.st-key-live-live input').checked", timeout=10000)
    option = page.get_by_role("option", name=re.compile(re.escape(text))).first
    box = page.locator(".st-key-live-pick [role=combobox]").first
    for _ in range(4):
        box.click()
        box.fill(text[:24])  # the list filtered to the question (a long list draws only the options in view)
        try:
            option.wait_for(timeout=5000)
            break
        except PlaywrightTimeout:
            box.fill("")
    option.click()
    page.locator(".st-key-live-open button:not([disabled])").click()
    page.locator(".st-key-live-question").wait_for(timeout=30000)
    if projected:
        page.locator(".st-key-live-pick").wait_for(state="detached", timeout=15000)  # the box closed: the list is gone


def tap(phone, letter: str, round_: int = 1, lang: str = "en") -> None:
    """Tap an option of the round's vote (its radio is named "Your answer", or "…, voting again" in round 2)."""
    radio = phone.locator("[data-testid=stRadio]").filter(has=phone.get_by_text(VOTE[(lang, round_)], exact=True))
    radio.locator("label").filter(has_text=re.compile(rf"^{letter}\.")).first.click(timeout=30000)


def seat(phone, row: int, number: int) -> None:
    phone.locator(f".st-key-live-seat-row-{row} button").filter(has_text=re.compile(rf"^{number}$")).click()
    phone.wait_for_function("() => /\\(row|（第/.test(document.querySelector('[data-testid=stExpander] summary').innerText)",
                            timeout=15000)


def no_serious_violations(page) -> None:
    found = [v for v in violations(page) if v["impact"] in ("serious", "critical")]
    assert not found, [(v["id"], v["nodes"][0]) for v in found]


def cosine_answer(text: str) -> str:
    """The cosine of the q and k a drawn question shows, computed here from its text, as its options show it."""
    q, k = ([float(x) for x in part.replace("−", "-").split(", ")] for part in re.findall(r"= \(([^)]*)\)", text)[:2])
    cos = sum(a * b for a, b in zip(q, k)) / (math.sqrt(sum(a * a for a in q)) * math.sqrt(sum(b * b for b in k)))
    return f"{cos:.2f}".replace("-", "−").replace("−0.00", "0.00")


def test_a_class_votes_discusses_votes_again_and_answers_one_more_like_it(open_page, app_url):
    teacher = open_page(None)
    code = start_class(teacher, app_url, "en", nicknames=True, rows=2, seats=3)
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code)
    shared = network_address()  # the browser opened 127.0.0.1: phones are given the machine's network address, with a word
    expected = f"http://{shared}:{app_url.rsplit(':', 1)[1]}" if shared else app_url
    assert teacher.locator(".live-qr").get_attribute("alt") == f"QR code that opens {expected}/live?join={code}"
    assert teacher.get_by_text("which phones cannot reach").count()
    why = open_page(f"{app_url}/live?lang=en", "phone")  # a code typed: the first Join shows the box, and says why
    why.get_by_label("Code from the board", exact=True).and_(why.locator("input")).fill(code)
    why.locator("[data-testid=stFormSubmitButton] button").click()
    why.get_by_text("This class asks for a nickname: type one below, then press Join.").wait_for(timeout=30000)
    assert why.get_by_label("Nickname", exact=True).count()
    why.context.close()
    phones = [join(open_page, app_url, code, lang, name) for lang, name in
              (("en", "Ada"), ("zh", "小明"), ("en", "A nickname pasted from a message, far too long"))]
    assert phones[2].get_by_text("it is kept as “A nickname pasted from a", exact=False).count()
    seat(phones[0], 1, 1)
    seat(phones[1], 1, 2)  # the third student taps no seat: never required
    phones[1].reload()  # a reload: in at once from the seat's cookie, no nickname typed again, the seat kept
    phones[1].get_by_text("你已加入课堂", exact=False).first.wait_for(timeout=30000)
    assert not phones[1].locator("[data-testid=stTextInput]").count() and phones[1].get_by_text("第 1 排第 2 座").count()
    teacher.get_by_text("Students in the class: 3").wait_for(timeout=15000)  # the projector counts by itself
    teacher.goto(f"{app_url}/live?join={code}&present=1&lang=en")  # a new page is still the teacher (the cookie): on the projector
    teacher.locator(".live-code").wait_for(timeout=30000)
    pick(teacher, "Cosine similarity between two vectors")  # A. [−1, 1] is right
    for phone, letter, lang in zip(phones, "ABC", ("en", "zh", "en")):
        tap(phone, letter, 1, lang)
    teacher.get_by_text("3 of 3 answered").wait_for(timeout=15000)
    assert not teacher.locator("[data-testid=stProgress]").count()  # open: how many, never what
    assert not in_view(teacher, ".st-key-live-pick") and not in_view(teacher, "[data-testid=stPopover]")  # nor "End the class"
    teacher.locator(".st-key-live-close button").click()
    teacher.get_by_text("Voting is closed. Choose: discuss and vote again, or reveal the answer.").wait_for(timeout=15000)
    teacher.wait_for_timeout(1500)  # a poll or two of the projector
    assert not teacher.get_by_text("% right", exact=False).count() and not teacher.get_by_text("30 %", exact=False).count()
    assert not teacher.locator("[data-testid=stProgress]").count()  # the first answers stay hidden: nobody swayed
    teacher.locator(".st-key-live-discuss button").click()
    teacher.get_by_text("Round 2: discuss with a neighbour, then vote again").wait_for(timeout=15000)
    # Three voters, every answer different: one group of three, found by row and seat, and by its code.
    phones[0].get_by_text("Turn to the student at row 1, seat 2.").wait_for(timeout=15000)  # the phones poll while they wait
    assert phones[0].get_by_text("Your first answer: A.", exact=False).count()
    phones[1].get_by_text("请转向第 1 排第 1 座的同学。").wait_for(timeout=15000)
    phones[2].get_by_text("Turn to the student at row 1, seat 1 and row 1, seat 2.").wait_for(timeout=15000)
    assert phones[2].locator(".live-group-code").inner_text() == phones[0].locator(".live-group-code").inner_text() == "Group A1"
    no_serious_violations(phones[1])
    no_serious_violations(phones[2])  # the seat map, open on the phone that tapped no seat
    SHOTS.mkdir(exist_ok=True)
    phones[1].screenshot(path=SHOTS / "live-phone-discuss-zh.png", full_page=True)
    for phone, letter, lang in zip(phones, "AAC", ("en", "zh", "en")):  # the Chinese phone changes its mind
        tap(phone, letter, 2, lang)
    phones[0].reload()  # a reload in round 2: the same student, the first answer still in view, the second kept
    phones[0].get_by_text("Sent: A.", exact=False).wait_for(timeout=30000)
    assert phones[0].get_by_text("Your first answer: A.", exact=False).count()
    teacher.get_by_text("3 of 3 answered").wait_for(timeout=15000)
    teacher.locator(".st-key-live-close button").click()
    for said in ("Round 2: 3 answers", "Round 1: 3 answers", "3 students voted both times; 1 of them changed their answer."):
        teacher.get_by_text(said).wait_for(timeout=15000)  # drawn in order: the shift's note comes last
    assert not teacher.get_by_text("% right (", exact=False).count()  # the share right would name the answer: not before the reveal
    shift = teacher.locator("[data-testid=stTable]").filter(has_text="First \\ second")
    assert shift.locator("tbody tr").nth(1).inner_text().split()[-4:] == ["1", "0", "0", "0"]  # B → A
    no_serious_violations(teacher)
    teacher.screenshot(path=SHOTS / "live-projector-round-2.png", full_page=True)
    above_the_fold(teacher, ".st-key-live-reveal button")  # the teacher does not scroll in front of the room
    teacher.locator(".st-key-live-reveal button").click()
    teacher.get_by_text("The answer: A.", exact=False).wait_for(timeout=15000)
    above_the_fold(teacher, ".st-key-live-similar button")
    teacher.get_by_text("Round 2: 67 % right (2 of 3)").wait_for(timeout=15000)  # revealed: each round's share right
    phones[1].get_by_text("你第一次的答案：B. [0, 1]。第二次：A. [−1, 1]。", exact=False).wait_for(timeout=15000)
    teacher.locator(".st-key-live-similar button").first.click()
    teacher.get_by_text("One more like it: answer alone, without discussing.").wait_for(timeout=15000)
    for phone, lang in zip(phones, ("en", "zh", "en")):
        asked = phone.get_by_text("cosine similarity of q =" if lang == "en" else "的余弦相似度是多少", exact=False)
        asked.first.wait_for(timeout=15000)
        right = cosine_answer(asked.first.inner_text())
        phone.locator("[class*=st-key-live-answer-] label").filter(has_text=re.compile(rf"^[A-D]\. {re.escape(right)}$")).first.click()
    teacher.get_by_text("3 of 3 answered").wait_for(timeout=15000)
    teacher.locator(".st-key-live-close button").click()
    assert not teacher.locator(".st-key-live-discuss").count()  # answered alone: no second round
    teacher.locator(".st-key-live-reveal button").click()
    teacher.get_by_text("Round 1: 33 % right (1 of 3) · Round 2: 67 % right (2 of 3) · similar question: 100 % right (3 of 3)",
                        exact=False).wait_for(timeout=15000)
    other = teacher.context.new_page()  # the teacher's second tab, on the projector too: "End the class" is in its box
    other.goto(f"{app_url}/live?join={code}&present=1&lang=en")
    other.locator(".live-join-line").wait_for(timeout=30000)
    controls(other)
    no_serious_violations(other)  # the box of asking and ending, open
    other.get_by_role("button", name="End the class").click()
    other.locator(".st-key-live-end button").click()
    other.get_by_text(f"Class {code} has ended", exact=False).wait_for(timeout=15000)
    teacher.get_by_text(f"Class {code} has ended", exact=False).wait_for(timeout=10000)  # no question open: it notices by itself
    assert not teacher.locator(".live-code, .live-qr").count()
    phones[2].get_by_text("This class has ended.").wait_for(timeout=15000)  # a phone learns it by itself
    phones[1].reload()  # reloaded after the end: every question, each with the answers, the truth and why
    phones[1].get_by_text("这个课堂已经结束。").wait_for(timeout=30000)
    for said in ("你第一次的答案：B. [0, 1]。第二次：A. [−1, 1]。", "答案：A. [−1, 1]。", "余弦相似度"):
        phones[1].get_by_text(said, exact=False).first.wait_for(timeout=15000)
    assert phones[1].get_by_text("解释：", exact=False).count() == 2


def in_view(page, selector: str) -> bool:
    """Whether the room sees an element of ``selector``: inside the window, not in a closed sidebar or box."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)].some((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight
        && !el.closest('[data-collapsed=true], [inert]'); })""", selector)


def above_the_fold(page, selector: str) -> None:
    """``selector`` is on the screen as the page opens, the page scrolled to its top (1280 x 720)."""
    page.evaluate("() => { const main = document.querySelector('[data-testid=stMain]'); if (main) main.scrollTo(0, 0); window.scrollTo(0, 0); }")
    page.locator(selector).first.wait_for(timeout=15000)
    box = page.locator(selector).first.bounding_box()
    assert box and box["y"] + box["height"] <= page.viewport_size["height"], (selector, box)


FOCUSED_JS = """() => { const el = document.activeElement;
  return el && el !== document.body ? {tag: el.tagName, text: (el.textContent || '').trim().slice(0, 80), cls: String(el.className)} : null; }"""


def focused(page, tag: str, text: str, timeout: float = 15, within: bool = False) -> dict:
    """Wait until the focus is on a ``tag`` whose words start with ``text`` (``within``: hold it); returns where it is
    (fails with it)."""
    end, now = time.monotonic() + timeout, None
    while time.monotonic() < end:
        now = page.evaluate(FOCUSED_JS)
        if now and now["tag"] == tag and (text in now["text"] if within else now["text"].startswith(text)):
            return now
        page.wait_for_timeout(150)
    raise AssertionError(f"focus on {now}, not on <{tag}> {text!r}")


def test_a_live_class_by_keyboard_the_focus_follows_and_an_arrow_key_sends_nothing(open_page, app_url):
    """A teacher with a keyboard only: Enter on "Start a live class" puts the focus on the join code (a heading), Enter
    on "Open the question" on the question as the projector shows it (not on the button, relabelled), Enter on "Close
    voting" and "Reveal the answer" on the question again (not on the page's body). A student with a keyboard: the
    question is a heading; the arrow keys move between the options and send nothing, Space sends, and what was sent
    is said (the page's live region). The sidebar closes with Escape."""
    teacher = open_page("/live?lang=en")
    start = teacher.locator(".st-key-live-start button")
    start.focus()
    teacher.keyboard.press("Enter")
    focused(teacher, "H2", "Join code")
    code = teacher.locator(".live-code").inner_text().strip()
    phone = join(open_page, app_url, code, "en")
    option = teacher.get_by_role("option", name=re.compile("Cosine similarity between two vectors")).first
    for _ in range(4):  # the select box may be drawn again while it opens (see pick)
        teacher.locator(".st-key-live-pick [role=combobox]").first.click()
        try:
            option.wait_for(timeout=5000)
            break
        except PlaywrightTimeout:
            teacher.keyboard.press("Escape")
    option.click()
    # enabled once the pick reached the server (under load a moment later): a disabled button takes no focus
    teacher.locator(".st-key-live-open button:not([disabled])").wait_for(timeout=30000)
    teacher.locator(".st-key-live-open button").focus()
    focused(teacher, "BUTTON", "")
    teacher.keyboard.press("Enter")
    focused(teacher, "H2", "Cosine similarity between two vectors")
    # The phone: the question is a heading; arrows move, Space sends, Enter sends.
    phone.get_by_role("heading", name=re.compile("Cosine similarity between two vectors")).wait_for(timeout=30000)
    radios = phone.locator("[class*=st-key-live-answer-] input[type=radio]")
    radios.first.focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowUp"):
        phone.keyboard.press(key)
    phone.wait_for_timeout(1500)
    assert phone.evaluate("() => document.activeElement === document.querySelectorAll('[class*=st-key-live-answer-] input[type=radio]')[1]")
    sent = phone.locator(".live-sent").all_inner_texts()
    assert not sent and not radios.nth(1).is_checked(), sent  # nothing sent on the way
    phone.keyboard.press("Space")
    phone.locator(".live-sent").filter(has_text="Sent: B.").wait_for(timeout=15000)
    phone.locator(".attention-said").filter(has_text="Sent: B.").wait_for(state="attached", timeout=5000)  # said
    assert phone.locator(".attention-said").get_attribute("role") == "status"
    teacher.get_by_text("1 of 1 answered").wait_for(timeout=15000)
    phone.locator("[class*=st-key-live-answer-] input[type=radio]").first.focus()
    phone.keyboard.press("Enter")  # Enter chooses too
    phone.locator(".live-sent").filter(has_text="Sent: A.").wait_for(timeout=15000)
    phone.locator(".attention-said").filter(has_text="Sent: A.").wait_for(state="attached", timeout=5000)
    teacher.locator(".st-key-live-close button").focus()
    teacher.keyboard.press("Enter")
    teacher.get_by_text("Round 1: 100 % right (1 of 1)").wait_for(timeout=15000)
    focused(teacher, "H2", "Cosine similarity between two vectors")
    teacher.locator(".st-key-live-reveal button").focus()
    teacher.keyboard.press("Enter")
    teacher.get_by_text("The answer: A.", exact=False).wait_for(timeout=15000)
    focused(teacher, "H2", "Cosine similarity between two vectors")
    # The live results' bars are named by their words, in Chinese too: no English "progress"
    names = teacher.locator("[data-testid=stProgress] [role=progressbar]").evaluate_all("(bars) => bars.map((b) => b.getAttribute('aria-label'))")
    assert names and all(re.match(r"^[A-D]\. .*: \d+ \(\d+%\)", name) for name in names), names
    # Escape closes the sidebar from inside it; the focus goes to the button that opens it again
    teacher.locator("[data-testid=stSidebarNavLink]").first.focus()
    teacher.keyboard.press("Escape")
    teacher.wait_for_function("() => document.querySelector('[data-testid=stSidebar]').getAttribute('data-collapsed') === 'true'", timeout=5000)
    teacher.wait_for_function("() => !!document.activeElement.closest('[data-testid=stExpandSidebarButton]')", timeout=5000)


def said(page, words: str) -> None:
    """``words`` are in the page's own live region (shell.js): a screen reader says them."""
    page.locator(".attention-said").filter(has_text=words).wait_for(state="attached", timeout=15000)


# Every answer the page's waits on the server get (classroom/bell.py): when, and the class's version it carried.
WAITS_JS = """() => { const fetch_ = window.fetch; window.__waits = [];
  window.fetch = async (...args) => { const answer = await fetch_(...args);
    if (String(args[0]).includes('/-/live/wait') && answer.status === 200)
      answer.clone().json().then(b => window.__waits.push({at: performance.now(), version: b.version}));
    return answer; }; }"""


def test_a_phone_hears_each_move_of_the_teacher_from_its_wait_not_its_next_reading(open_page, app_url):
    """The phone waits on the server with its seat's cookie (no seat in any address): a question opened, voting closed
    and the answer revealed each answer that wait with the class's new version, and the phone shows the move; its own
    reading (every 8 s) is only the fallback."""
    db = store.connect()
    code, key = store.start_class(db)
    phone = open_page(None, "phone")
    phone.add_init_script(script=f"({WAITS_JS})()")
    phone.goto(f"{app_url}/live?join={code}&lang=en")
    phone.get_by_text(JOINED["en"], exact=False).first.wait_for(timeout=30000)
    phone.wait_for_function("() => window.__waits !== undefined")
    phone.wait_for_timeout(1000)  # it waits now

    def heard(move, shows: str) -> None:
        before = phone.evaluate("() => [performance.now(), window.__waits.length]")
        move()
        phone.wait_for_function("([at, n]) => window.__waits.slice(n).some(w => w.at > at)", arg=before, timeout=6000)
        phone.get_by_text(shows, exact=False).first.wait_for(timeout=15000)

    question: list[int] = []
    heard(lambda: question.append(store.open_question(db, code, key, "concept.rows", 4, 1)), "Your answer")
    heard(lambda: store.close_question(db, code, key, question[0]), "Voting is closed. Wait for the answer.")
    heard(lambda: store.reveal_question(db, code, key, question[0]), "The answer:")
    assert "seat" not in phone.url and len({w["version"] for w in phone.evaluate("window.__waits")}) >= 3


def test_a_phone_by_keyboard_hears_the_teacher_move_on_and_keeps_its_focus(open_page, app_url):
    """A student in Chinese with a keyboard (390 px): the code typed and Enter puts the focus on the notice to wait (the
    join box is gone); each move of the teacher (a question asked, voting closed, the answer revealed, one more like it,
    the class ended) is said through the page's live region, the stale "Sent" gone, and the focus, lost with the vote's
    options, goes to the question's heading (or the ended notice), never taken from a control in use. The teacher's
    "End the class" opens on its question, not on "Yes": a second Enter ends nothing."""
    teacher = open_page(None)
    code = start_class(teacher, app_url, "en")
    phone = open_page("/live?lang=zh", "phone")
    box = phone.get_by_label("黑板上的加入码", exact=True).and_(phone.locator("input"))
    box.fill(code)
    box.press("Enter")
    phone.get_by_text(JOINED["zh"], exact=False).first.wait_for(timeout=30000)
    focused(phone, "DIV", "等待老师的下一道题", within=True)
    pick(teacher, "Cosine similarity between two vectors")
    heading = phone.locator("[class*=st-key-live-q-] h2").first
    heading.wait_for(timeout=30000)
    asked = heading.inner_text().strip()
    said(phone, f"新的一道题：{asked}")
    focused(phone, "H2", asked)  # the notice to wait is gone: the focus went to the question
    phone.locator("[class*=st-key-live-answer-] input[type=radio]").nth(1).focus()
    phone.keyboard.press("Space")
    said(phone, "已提交：B.")
    teacher.get_by_text("1 of 1 answered").wait_for(timeout=15000)
    teacher.locator(".st-key-live-close button").click()
    phone.get_by_text("投票已停止，请等待揭晓答案。").wait_for(timeout=15000)
    said(phone, "投票已停止：请等待揭晓答案。")
    focused(phone, "H2", asked)  # the options are gone: the focus is on the question, not the page's body
    keep = phone.locator("[data-testid=stExpandSidebarButton] button, [data-testid=stExpandSidebarButton]").first
    keep.focus()  # a control in use: the next move is said, the focus stays
    teacher.locator(".st-key-live-reveal button").click()
    said(phone, f"答案已揭晓：{asked}")
    phone.wait_for_timeout(1500)
    assert phone.evaluate("() => !!document.activeElement.closest('[data-testid=stExpandSidebarButton]')")
    phone.locator("[class*=st-key-live-q-] h2").first.focus()
    teacher.locator(".st-key-live-similar button").first.click()
    teacher.get_by_text("One more like it: answer alone, without discussing.").wait_for(timeout=15000)
    phone.wait_for_function("(old) => { const h = document.querySelector('[class*=st-key-live-q-] h2'); return h && h.textContent.trim() !== old; }",
                            arg=asked, timeout=15000)
    again = phone.locator("[class*=st-key-live-q-] h2").first.inner_text().strip()
    said(phone, f"新的一道题：{again}")
    assert "已提交" not in phone.locator(".attention-said").inner_text()  # the last question's "Sent" is not said as current
    focused(phone, "H2", again)
    phone.locator("[class*=st-key-live-answer-] input[type=radio]").first.focus()
    phone.keyboard.press("Space")
    said(phone, "已提交：A.")
    # The teacher ends the class by keyboard: Enter opens the question, a second Enter ends nothing
    teacher.get_by_role("button", name="End the class").focus()
    teacher.keyboard.press("Enter")
    focused(teacher, "P", "End the class for everyone?")
    teacher.keyboard.press("Enter")
    teacher.wait_for_timeout(1500)
    assert not teacher.get_by_text(f"Class {code} has ended", exact=False).count()
    teacher.keyboard.press("Tab")
    focused(teacher, "BUTTON", "")
    assert "Yes, end the class" in teacher.evaluate("() => document.activeElement.textContent")
    teacher.keyboard.press("Enter")
    teacher.get_by_text(f"Class {code} has ended", exact=False).wait_for(timeout=15000)
    said(phone, "课堂已经结束。")  # the phone learns it by itself, and says it
    focused(phone, "DIV", "这个课堂已经结束。", within=True)  # the options gone: the focus on the notice


def test_two_replicas_share_one_class_through_postgresql(open_page):
    """The teacher on one replica, a student on the other (each opened on its own port, as nginx may send them): the
    class, the question and the answer are the same everywhere; a replica killed and restarted loses nothing."""
    from scripts.serve import balanced

    with balanced(replicas=2) as balancer:
        first, second = (f"http://127.0.0.1:{replica.port}" for replica in balancer.replicas)
        assert balancer.replicas[0].database.startswith("postgresql+psycopg://attention_class:")  # a role with a password
        teacher = open_page(None)
        code = start_class(teacher, first, "zh")
        pick(teacher, "softmax 权重的一行加起来等于多少")
        phone = join(open_page, second, code, "zh")
        tap(phone, "D", 1, "zh")
        teacher.get_by_text("1 人中已有 1 人作答").wait_for(timeout=15000)
        killed = balancer.replicas[1]
        killed.stop()  # the student's replica dies; its answer is already in the database
        killed.start()
        deadline = time.monotonic() + 60
        while not killed.healthy() and time.monotonic() < deadline:
            time.sleep(0.3)
        teacher.locator(".st-key-live-close button").click()
        teacher.get_by_text("第 1 轮：100% 正确（1 人中 1 人）").wait_for(timeout=15000)
        phone.goto(phone.url)  # the phone comes back on the restarted replica: its seat (the cookie) and its answer
        phone.get_by_text("你的答案：D.", exact=False).wait_for(timeout=45000)
        teacher.context.close()  # before the replicas stop
        phone.context.close()


def test_the_teacher_reads_what_six_classes_say_about_each_question(open_page):
    """The 6-class history (scripts/class_history.py) on a server of its own, opened by the newest class's teacher link:
    nothing read until the classes are listed; then the question the room keeps getting wrong flagged above the chart,
    the chart (its text alternative), a table with a sentence per question, the CSV downloaded; in Chinese; on a
    phone-wide screen; and axe-core finds nothing serious."""
    from scripts.browser import serve
    from scripts.history_screenshots import history_database, open_statistics

    path, key, code = history_database()
    with serve(env={"ATTENTION_CLASS_FILE": path}) as url:
        teacher = open_page(None, accept_downloads=True)
        teacher.goto(f"{url}/live?join={code}&teacher={key}&lang=en")
        teacher.locator(".st-key-live-classes").wait_for(timeout=30000)
        assert not teacher.get_by_text("What your classes say about each question").count()  # read only when asked
        open_statistics(teacher, url, code, key, "en")
        assert "teacher=" not in teacher.url  # the key left the address bar
        flag = teacher.locator("[data-testid=stAlertContentWarning]").filter(has_text="Q3")
        assert "Still wrong after discussion in 4 of 4 classes" in flag.inner_text()
        chart = teacher.locator(".st-key-live-history-chart [data-testid=stPlotlyChart]")
        alt = chart.get_attribute("aria-label")
        assert alt.startswith("Scatter chart") and "Q3 20 % right, discrimination 0.30 (flagged)" in alt
        table = teacher.locator("[data-testid=stTable]").filter(has_text="What it says")
        rows = table.locator("tbody tr")
        assert rows.count() == 5
        assert "Too easy: 97 % right in round 1 — skip the discussion." in rows.nth(0).inner_text()
        assert "Distractor “D. (−∞, ∞)” chosen by nobody in 6 classes" in rows.nth(1).inner_text()
        assert "−0.40" in rows.nth(4).inner_text()
        with teacher.expect_download() as download:
            teacher.locator(".st-key-live-history-export button").click()
        lines = Path(download.value.path()).read_text().splitlines()
        assert download.value.suggested_filename == "live-question-statistics.csv" and len(lines) == 19
        no_serious_violations(teacher)
        teacher.locator("[data-testid=stSidebar]").get_by_text("中文", exact=True).click()  # the teacher's language, same session
        teacher.get_by_text("你的各个班级对每道题说了什么").wait_for(timeout=30000)
        teacher.get_by_text("太容易：第 1 轮有 97 % 答对 —— 可以跳过讨论。").wait_for(timeout=15000)
        assert "讨论后仍然答错" in teacher.locator("[data-testid=stAlertContentWarning]").filter(has_text="Q3").inner_text()
        teacher.set_viewport_size({"width": 390, "height": 844})
        teacher.wait_for_timeout(1000)
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        assert box and box["width"] <= 390 and box["x"] >= 0  # the chart fits a phone's width
        SHOTS.mkdir(exist_ok=True)
        teacher.screenshot(path=SHOTS / "live-question-statistics-zh-390.png")
        teacher.context.close()  # before the server stops


# --- Before the reveal, nothing on the projector or in its frames names the answer ---

ROUND_VOTES = {1: (1, 0, 2, 1, 0, 1), 2: (1, 1, 2, 1, 0, 1)}  # B, A, C, B, A, B (B right: 3 of 6), then B, B, C, B, A, B


def listen(page) -> list[bytes]:
    """Every websocket frame the page receives from now on, as bytes (Streamlit's protobuf messages)."""
    frames: list[bytes] = []

    def socket(ws) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, bytes) else payload.encode()))

    page.on("websocket", socket)
    return frames


def naming_the_answer(T: Texts, question: store.Question, tally: store.Tally) -> list[str]:
    """What would let the room find the answer: each round's share right with its count as the projector says it after
    the reveal, the advice (its band is the share) and the word that keeps it private, the truth, the mark, the
    explanation's start."""
    from views.live.common import option_name, wording
    from views.live.projector import right_line

    _, options, explanation = wording(T, question)
    said = [right_line(T, question, tally.of(question, r), r) for r in (1, 2) if sum(tally.of(question, r))]
    truth = T("live.student.truth", option=option_name(options, question.correct))  # as markdown (a frame), and as read
    return [*said, "✓", truth, truth.replace("\\", ""),  # the mark: "✓ correct"
            T("live.teacher.advice_private"), *(T(f"live.teacher.advice.{a}") for a in ("discuss", "explain", "move_on", "none")),
            explanation[:30]]


class Projector:
    """A class of six (seated and voting through the store) and its projector in presenter mode (a browser), which asks
    "In a matrix of attention weights, what is one row?" (B) from its box of asking; ``clean`` searches the projector's text
    and every frame it received for what names the answer."""

    def __init__(self, open_page, url: str, lang: str) -> None:
        self.db, self.T, self.lang = store.connect(), Texts(lang), lang
        self.code, self.key = store.start_class(self.db)
        self.students = [store.join(self.db, self.code, store.new_seat())[1] for _ in range(6)]
        self.page = open_page(None)
        self.frames = listen(self.page)
        self.page.goto(f"{url}/live?join={self.code}&teacher={self.key}&present=1&lang={lang}")
        self.page.locator(".live-code").wait_for(timeout=30000)
        self.class_id = store.class_by_code(self.db, self.code).id

    def question(self) -> store.Question:
        return [q for q in store.open_questions(self.db, self.class_id) if not q.phase][-1]

    def truth(self) -> str:
        from views.live.common import option_name, wording

        return self.T("live.student.truth", option=option_name(wording(self.T, self.question())[1], self.question().correct)).replace("\\", "")

    def shows(self, text: str) -> None:
        self.page.get_by_text(text, exact=False).first.wait_for(timeout=20000)
        self.page.wait_for_timeout(2200)  # two of the projector's readings, their frames received

    def vote(self, round_: int) -> None:
        question = self.question()
        for student, choice in zip(self.students, ROUND_VOTES[round_]):
            store.answer(self.db, question.id, student, choice, round=round_)
        self.shows(self.T("live.teacher.answered", count=6, seated=6))

    def click(self, key: str, then: str) -> None:
        self.page.locator(f".st-key-{key} button").click()
        self.shows(then)

    def found(self) -> tuple[list[str], list[str]]:
        """The words naming the answer that the projector shows, and those its frames carried."""
        needles = naming_the_answer(self.T, self.question(), store.tally(self.db, self.class_id))
        text, sent = self.page.locator("body").inner_text(), b"".join(self.frames).decode("utf-8", "replace")
        return [n for n in needles if n in text], [n for n in needles if n in sent]

    def clean(self, stage: str) -> None:
        shown, sent = self.found()
        assert not shown and not sent, (stage, shown, sent)


# The answers shown as they arrive matter while a round is open: on the way that reveals while open and the way through
# round 2; revealed after round 1, the bars were closed before anything was shown.
TOGGLED = [("reveal while open", False), ("reveal while open", True), ("reveal after round 1", False),
           ("discuss, vote again, reveal", False), ("discuss, vote again, reveal", True)]


@pytest.mark.parametrize(("path", "live"), TOGGLED,
                         ids=[f"{path}-{'answers live' if live else 'answers hidden while open'}" for path, live in TOGGLED])
def test_the_projector_names_no_answer_before_the_reveal_whatever_the_teacher_toggles(open_page, app_url, path, live):
    """The issue's sequence: a question, six votes B, A, C, B, A, B, voting closed; then every order and combination of
    the teacher's toggles (the answers shown as they arrive or not; the first vote's answers never shown, shown, shown
    then hidden again) on each way to the reveal. Before it, the projector's text and every websocket frame it received
    hold no share right, no count right, no advice, no truth, no mark, no explanation; after it they do (the search
    finds them). Presenter mode keeps "Ask the class" and "End the class" off the screen, and "Reveal the answer" on it
    at 1280 x 720 after round 2."""
    # never shown is how (True, False) begins (round 1 closed, checked before the toggle) and how it goes on after it
    firsts = [()] if path == "reveal while open" else [(True,), (True, False)]
    for first in firsts:
        lang = "zh" if live and first == firsts[-1] else "en"  # one of each path in Chinese
        room = Projector(open_page, app_url, lang)
        T, page = room.T, room.page
        pick(page, T("live.concept.rows.question"), live=live)
        assert not in_view(page, ".st-key-live-pick") and not in_view(page, "[data-testid=stPopover]")  # nor "End the class"
        room.vote(1)
        room.clean("round 1 open")
        if path == "reveal while open":
            room.click("live-reveal-open", room.truth())
        else:
            room.click("live-close", T("live.teacher.closed_note"))
            room.clean("round 1 closed")
            for show in first:
                page.get_by_text(T("live.teacher.show_first"), exact=True).click()
                page.wait_for_function(f"() => document.querySelectorAll('[data-testid=stProgress]').length === {4 if show else 0}",
                                       timeout=15000)
                page.wait_for_timeout(2200)
                room.clean(f"first vote shown: {show}")
            if path.startswith("discuss"):
                room.click("live-discuss", T("live.teacher.round_two"))
                room.clean("round 2 open")
                room.vote(2)
                room.clean("round 2 voted")
                room.click("live-close", T("live.teacher.shift_note", both=6, changed=1))
                room.clean("round 2 closed")
                above_the_fold(page, ".st-key-live-reveal button")
            room.click("live-reveal", room.truth())
        shown, sent = room.found()  # revealed: the share right and the truth, on screen and in the frames
        said = T("live.teacher.round_right", round=1, percent="50", right=3, count=6)
        assert said in shown and said in sent, (path, live, first, shown)
        page.context.close()


# --- A wrong or stale teacher link ---


@pytest.mark.parametrize("nicknames", [False, True])
def test_a_wrong_teacher_link_seats_nobody_and_its_refusal_stays(open_page, app_url, nicknames):
    """A teacher opens their class's link with a wrong key (a stale one: another class's), in a class with and without
    nicknames: the refusal says what to do and stays on screen (no nickname box, no "You are in class"), the address
    keeps neither the key nor the code, a reload joins nobody either, and the projector still counts 0 students."""
    db = store.connect()
    code, key = store.start_class(db, nicknames=nicknames)
    _, stale = store.start_class(db)
    projector = open_page(f"/live?join={code}&teacher={key}&present=1&lang=en")
    projector.get_by_text("Students in the class: 0").wait_for(timeout=30000)
    teacher = open_page(f"/live?join={code}&teacher={stale}&lang=en", "laptop")
    refusal = teacher.get_by_text(f"This teacher link does not open class {code}", exact=False)
    refusal.wait_for(timeout=30000)
    teacher.get_by_text("copy its teacher link again, whole", exact=False).wait_for(timeout=5000)
    teacher.wait_for_timeout(4000)  # reruns come and go: the refusal stays
    assert refusal.is_visible() and not teacher.locator("[data-testid=stTextInput]").count()
    assert not teacher.get_by_text("You are in class", exact=False).count()
    assert "teacher=" not in teacher.url and f"join={code}" not in teacher.url
    no_serious_violations(teacher)
    teacher.reload()
    teacher.get_by_role("heading", name="Join a class").wait_for(timeout=30000)
    teacher.wait_for_timeout(2000)
    assert not teacher.get_by_text("You are in class", exact=False).count()
    assert store.tally(db, store.class_by_code(db, code).id).seated == 0
    projector.wait_for_timeout(1500)
    assert projector.get_by_text("Students in the class: 0").count()


# --- After a restart ---


def test_a_restart_says_calmly_that_the_page_reconnects(open_page):
    """The server restarts (killed, started again on its port): every page shows Streamlit's "Connection error … Are
    you connected to the internet?" for 8–11 s, which in a classroom reads as "the Wi-Fi is down". The page says, in
    its language, that it is reconnecting by itself, and never asks about the internet."""
    from scripts.browser import Restartable

    with Restartable() as server:
        pages = {lang: open_page(f"{server.url}/live?lang={lang}") for lang in ("en", "zh")}
        for page in pages.values():
            page.get_by_role("heading", name=re.compile("Join a class|加入课堂")).wait_for(timeout=30000)
        server.kill()
        for lang, page in pages.items():
            dialog = page.locator("[data-testid=stDialog]")
            dialog.wait_for(timeout=30000)
            said = dialog.inner_text()
            assert "internet" not in said.lower() and "Connection error" not in said, said
            assert Texts(lang)("browser.connection.title") in said, said
        server.start()
        for page in pages.values():
            page.locator("[data-testid=stDialog]").wait_for(state="detached", timeout=30000)
