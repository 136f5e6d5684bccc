"""A live class in Debian's chromium: a teacher on the projector (1280 x 720) and three students on phones (390 px), each
in a browser of their own, in English and Chinese; then two replicas sharing the class through PostgreSQL.

The projector updates by itself (nobody touches it between a phone's tap and the count); a reload keeps the teacher
(the browser's cookie) and the student's seat and answer (the link).
"""

from __future__ import annotations

import re
import time

import pytest

from scripts.axe_scan import violations

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}


def start_class(page, url: str, lang: str) -> str:
    page.goto(f"{url}/live?lang={lang}")
    page.locator(".st-key-live-start button").click()
    page.locator(".live-code").wait_for(timeout=30000)
    return page.locator(".live-code").inner_text().strip()


def join(chromium, url: str, code: str, lang: str):
    phone = chromium.new_context(**PHONE).new_page()
    phone.goto(f"{url}/live?join={code}&lang={lang}")
    phone.wait_for_function("() => /seat=[A-Za-z0-9_-]{16}/.test(location.search)", timeout=30000)
    return phone


def pick(page, text: str) -> None:
    page.locator(".st-key-live-pick [role=combobox]").first.click()
    page.get_by_role("option", name=re.compile(re.escape(text))).first.click()
    page.locator(".st-key-live-open button").click()
    page.locator(".st-key-live-question").wait_for(timeout=30000)


def tap(phone, letter: str) -> None:
    phone.locator("[class*=st-key-live-answer-] label").filter(has_text=re.compile(rf"^{letter}\.")).first.click(timeout=30000)


def no_serious_violations(page) -> None:
    found = [v for v in violations(page) if v["impact"] in ("serious", "critical")]
    assert not found, [(v["id"], v["nodes"][0]) for v in found]


def test_a_teacher_and_three_phones_run_a_question_and_a_reload_loses_nothing(chromium, app_url):
    teacher = chromium.new_context(**PROJECTOR).new_page()
    code = start_class(teacher, app_url, "en")
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code)
    assert teacher.locator(".live-qr").get_attribute("alt") == f"QR code that opens {app_url}/live?join={code}"
    phones = [join(chromium, app_url, code, lang) for lang in ("en", "zh", "en")]
    teacher.get_by_text("Students in the class: 3").wait_for(timeout=15000)  # the projector counts by itself
    again = phones[2].context.new_page()  # the join link opened again in a new tab: the same student (the seat's cookie)
    again.goto(f"{app_url}/live?join={code}&lang=en")
    again.get_by_text(f"You are in class {code}.").wait_for(timeout=30000)
    assert again.url.split("seat=")[1][:16] == phones[2].url.split("seat=")[1][:16]
    again.close()
    teacher.goto(f"{app_url}/live?join={code}&present=1&lang=en")  # a new page is still the teacher (the cookie): on the projector
    teacher.locator(".live-code").wait_for(timeout=30000)
    assert teacher.locator(".live-code").inner_text().strip() == code
    pick(teacher, "what is one row?")
    for phone, letter in zip(phones, "BAB"):
        tap(phone, letter)
    tap(phones[1], "B")  # the Chinese phone changes its answer while voting is open
    teacher.get_by_text("3 of 3 answered").wait_for(timeout=15000)
    assert not teacher.locator("[data-testid=stProgress]").count()  # open: how many, never what
    assert phones[1].get_by_text("一个查询：它对每个键的权重").count()  # the phone in Chinese
    phones[0].reload()  # a phone reloads: the same seat, the same answer
    phones[0].get_by_text("Sent: B.", exact=False).wait_for(timeout=30000)
    teacher.locator(".st-key-live-close button").click()
    teacher.locator("[data-testid=stProgress]").first.wait_for(timeout=15000)
    assert ": 3 (100%)" in teacher.locator("[data-testid=stProgress]").nth(1).inner_text()
    teacher.locator(".st-key-live-reveal button").click()
    teacher.get_by_text("The answer: B.", exact=False).wait_for(timeout=15000)
    for phone, truth in zip(phones, ("The answer: B.", "答案：B.", "The answer: B.")):
        phone.get_by_text(truth, exact=False).first.wait_for(timeout=15000)  # the phones poll while they wait
    assert "3 (100%)" not in phones[2].inner_text("body")  # a student never sees the room's answers
    teacher.screenshot(path="tests/screenshots/live-projector-revealed.png")
    phones[1].screenshot(path="tests/screenshots/live-phone-revealed-zh.png", full_page=True)
    no_serious_violations(teacher)
    no_serious_violations(phones[1])
    assert teacher.get_by_text("Students in the class: 3").count()  # the tab opened again took no second seat
    teacher.goto(f"{app_url}/live?join={code}&lang=en")  # off the projector: the teacher's own screen
    teacher.get_by_role("button", name="End the class").click()  # ending asks once more
    teacher.locator(".st-key-live-end button").click()
    teacher.get_by_text(f"Class {code} has ended", exact=False).wait_for(timeout=15000)
    assert not teacher.locator(".live-code, .live-qr").count()  # nobody can join: no code, no QR code
    phones[0].get_by_text("This class has ended.").wait_for(timeout=15000)  # a phone learns it by itself
    for page in (teacher, *phones):
        page.context.close()


def test_two_replicas_share_one_class_through_postgresql(chromium):
    """The teacher on one replica, a student on the other (each opened on its own port, as nginx may send them): the
    class, the question and the answer are the same everywhere; a replica killed and restarted loses nothing."""
    from scripts.serve import balanced

    with balanced(replicas=2) as balancer:
        first, second = (f"http://127.0.0.1:{replica.port}" for replica in balancer.replicas)
        assert balancer.replicas[0].database.startswith("postgresql")
        teacher = chromium.new_context(**PROJECTOR).new_page()
        code = start_class(teacher, first, "zh")
        pick(teacher, "softmax 权重的一行加起来等于多少")
        phone = join(chromium, second, code, "zh")
        tap(phone, "D")
        teacher.get_by_text("1 人中已有 1 人作答").wait_for(timeout=15000)
        killed = balancer.replicas[1]
        killed.stop()  # the student's replica dies; its answer is already in the database
        killed.start()
        deadline = time.monotonic() + 60
        while not killed.healthy() and time.monotonic() < deadline:
            time.sleep(0.3)
        teacher.locator(".st-key-live-close button").click()
        teacher.locator("[data-testid=stProgress]").nth(3).wait_for(timeout=15000)
        assert ": 1 (100%)" in teacher.locator("[data-testid=stProgress]").nth(3).inner_text()
        phone.goto(phone.url)  # the phone comes back on the restarted replica: its seat and its answer
        phone.get_by_text("你的答案：D.", exact=False).wait_for(timeout=45000)
        teacher.context.close()
        phone.context.close()
