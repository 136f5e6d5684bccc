"""Screenshots of a live class after its second vote, in Debian's chromium: the projector (both rounds side by side and
the shift) and a phone told whom to turn to, each at 1280 × 720 and at 390 px, in English and Chinese.

A real class runs for each language: a teacher with a 2 × 3 seat map and four phones (three tap a seat), the question
"Cosine similarity … lies in", votes A, B, A, C (50 % right: discuss), then A, A, A, C.

Usage: ``python scripts/live_screenshots.py [folder]`` (default /tmp/live-shots).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import browser, serve  # noqa: E402

WIDE = {"viewport": {"width": 1280, "height": 720}}
NARROW = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
WORDS = {"en": {"joined": "You are in class", "question": "Cosine similarity between two vectors", "vote": "Your answer",
                "again": "Your answer, voting again", "round2": "Round 2: discuss", "all": "4 of 4 answered"},
         "zh": {"joined": "你已加入课堂", "question": "两个向量的余弦相似度", "vote": "你的答案", "again": "你的答案（第二次投票）",
                "round2": "第 2 轮：和邻座讨论", "all": "4 人中已有 4 人作答"}}


def tap(phone, label: str, letter: str) -> None:
    radio = phone.locator("[data-testid=stRadio]").filter(has=phone.get_by_text(label, exact=True))
    radio.locator("label").filter(has_text=re.compile(rf"^{letter}\.")).first.click(timeout=30000)


def shoot(page, path: Path, viewport: dict) -> None:
    page.set_viewport_size(viewport["viewport"])
    page.wait_for_timeout(1500)  # the layout settles at the new width
    page.screenshot(path=str(path), full_page=True)
    print(path)


def one_class(chromium, url: str, lang: str, folder: Path) -> None:
    said = WORDS[lang]
    teacher = chromium.new_context(**WIDE).new_page()
    teacher.goto(f"{url}/live?lang={lang}")
    for name, value in (("rows", 2), ("seats", 3)):
        box = teacher.locator(f".st-key-live-start-{name} input")
        box.fill(str(value))
        box.press("Tab")
    teacher.wait_for_timeout(500)
    teacher.locator(".st-key-live-start button").click()
    code = teacher.locator(".live-code").inner_text().strip()
    phones = []
    for n in range(4):
        phone = chromium.new_context(**NARROW).new_page()
        phone.goto(f"{url}/live?join={code}&lang={lang}")
        phone.get_by_text(said["joined"], exact=False).first.wait_for(timeout=30000)
        if n < 3:
            row, number = ((1, 1), (1, 2), (2, 3))[n]
            phone.locator(f".st-key-live-seat-row-{row} button").filter(has_text=re.compile(rf"^{number}$")).click()
            phone.wait_for_timeout(800)
        phones.append(phone)
    teacher.goto(f"{url}/live?join={code}&present=1&lang={lang}")
    teacher.locator(".st-key-live-controls summary").click()  # presenter mode: asking is in a closed box
    box = teacher.locator(".st-key-live-pick [role=combobox]").first
    box.click()
    box.fill(said["question"])
    teacher.get_by_role("option", name=re.compile(re.escape(said["question"]))).first.click()
    teacher.locator(".st-key-live-open button:not([disabled])").click()
    for phone, letter in zip(phones, "ABAC"):
        tap(phone, said["vote"], letter)
    teacher.get_by_text(said["all"]).wait_for(timeout=15000)
    teacher.locator(".st-key-live-close button").click()
    teacher.locator(".st-key-live-discuss button").click()
    teacher.get_by_text(said["round2"], exact=False).first.wait_for(timeout=15000)
    phones[1].locator("[class*=st-key-live-turn-]").wait_for(timeout=15000)  # whom to turn to: row 2, seat 3
    shoot(phones[1], folder / f"phone-turn-to-{lang}-390.png", NARROW)
    shoot(phones[1], folder / f"phone-turn-to-{lang}-1280x720.png", WIDE)
    phones[1].set_viewport_size(NARROW["viewport"])
    for phone, letter in zip(phones, "AAAC"):
        phone.locator("[data-testid=stRadio]").filter(has=phone.get_by_text(said["again"], exact=True)).wait_for(timeout=15000)
        tap(phone, said["again"], letter)
    teacher.get_by_text(said["all"]).wait_for(timeout=15000)
    teacher.locator(".st-key-live-close button").click()
    teacher.locator("[data-testid=stTable]").first.wait_for(timeout=15000)
    teacher.wait_for_timeout(1500)
    shoot(teacher, folder / f"projector-round-2-{lang}-1280x720.png", WIDE)
    shoot(teacher, folder / f"projector-round-2-{lang}-390.png", NARROW)
    for page in (teacher, *phones):
        page.context.close()


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/live-shots")
    folder.mkdir(parents=True, exist_ok=True)
    with serve() as url, browser() as chromium:
        for lang in ("en", "zh"):
            one_class(chromium, url, lang, folder)


if __name__ == "__main__":
    main()
