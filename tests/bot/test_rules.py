"""/rules as a player meets it: the chooser, each game's page (its rules text and example
pictures drawn from engine positions), the rules button of the game menus, and bad input.

The key phrases below are the rule points the page must state (the Точки tournament rules and
their comments, the common Dots and Boxes / Палочки and Sprouts rules); the example tests
check that each caption names what the engine position really holds.
"""

from __future__ import annotations

import asyncio
import html
import io
import re
import time

import pytest
from PIL import Image

from bot import examples
from bot import rules as pages
from bot.i18n import LANGUAGES, catalog, t
from engine.boxes import Game as BoxesGame
from engine.dots import Game as DotsGame
from engine.dots import Move
from engine.sprouts import Game as SproutsGame
from playground.client import ChatHandle, MessageView
from playground.limits import CAPTION_MAX, TEXT_MAX
from tests.bot.helpers import WAIT, message
from tests.fixtures.playground import ScenarioClient

# Every rule point of each page, as the page words it (plain text, as Telegram shows it).
PHRASES: dict[str, dict[str, list[str]]] = {
    "dots": {
        "en": [
            "all 8 directions",  # rings in 8 directions
            "captures when it encloses at least one live dot of the opponent",
            "the tightest such ring",
            "captured dots form no rings",
            "frees them",
            "A capture gives no extra move",
            "There is no passing",
            "Empty ring.",
            "captures nothing, and both players may still play inside it",
            "caught at the ring owner's next move",
            "the intruder took the last free point",  # the capture does not count: …
            "the owner has called STOP (the intruder moves alone)",
            "the owner calls STOP right after the intrusion",
            "closes a capture of its own is not caught",
            "Dots on the edge of the field are never captured",
            "the edge of the field counts as a wall",  # the capturable-edge variant
            "38×31",
            "central zone, 8 points across and 15 down",
            "39×32",
            "Either player may call STOP, on either turn",
            "up to 3 minutes",
            "✅ Done",
            "Grounding (variant)",
            "joined to the edge up-down or across",
            "not grounded count for the opponent",
            "Territory scoring (variant)",
            "The game ends when the field is full",
            "½ Draw",
        ],
        "ru": [
            "все 8 направлений",
            "захватывает, если внутри есть хотя бы одна живая точка соперника",
            "самого тесного такого кольца",
            "захваченные точки не образуют колец",
            "освобождает их",
            "За захват лишнего хода нет",
            "Пропускать ход нельзя",
            "Пустое кольцо.",
            "ничего не захватывает, и внутрь по-прежнему могут ходить оба",
            "в момент следующего хода владельца кольца",
            "точка занимает последний свободный пункт",
            "её ставят в одиночку после СТОП владельца кольца",
            "объявляет СТОП сразу после неё",
            "сама замыкает окружение, её не захватывают",
            "Точки на краю поля окружить нельзя",
            "край поля служит стенкой кольца",
            "38×31",
            "центральную зону: 8 пунктов по горизонтали и 15 по вертикали",
            "39×32",
            "СТОП может объявить любой игрок, в свой ход или в ход соперника",
            "до 3 минут",
            "«✅ Готово»",
            "Заземление (вариант)",
            "связана с краем поля по вертикали или горизонтали",
            "незаземлённые точки достаются сопернику",
            "Счёт по территории (вариант)",
            "Игра кончается, когда поле заполнено",
            "«½ Ничья»",
        ],
    },
    "boxes": {
        "en": [
            "draws the fourth side of a box takes it and moves again",
            "closes two boxes at once takes both and still gives one extra move",
            "Taking a box is never forced",
            "There is no passing",
            "The game ends when every line is drawn",
            "the outline of the field is drawn before the first move",
            "a corner box needs two drawn lines",
            "Three or four players",
            "share the top score win together",
        ],
        "ru": [
            "проводит четвёртую сторону клетки, забирает её и ходит ещё раз",
            "замыкает сразу две клетки, забирает обе и всё равно даёт один лишний ход",
            "Брать клетку не обязательно",
            "Пропускать ход нельзя",
            "Игра кончается, когда проведены все отрезки",
            "рамка поля нарисована до первого хода",
            "угловой клетке нужны два проведённых отрезка",
            "Трое или четверо",
            "побеждают вместе",
        ],
    },
    "sprouts": {
        "en": [
            "or from a spot back to itself (a loop)",
            "put a new spot on the curve",
            "may not cross itself or any other line",
            "may not pass through a spot",
            "At most three lines end at a spot",
            "A loop counts twice at its spot",
            "The new spot already has two lines",
            "the player who cannot move loses",
            "Misère (variant): the player who makes the last move loses",
        ],
        "ru": [
            "или от точки к ней самой (петлю)",
            "поставьте на линии новую точку",
            "не может пересекать ни себя, ни другие линии",
            "не может проходить через точки",
            "не больше трёх линий",
            "Петля считается у своей точки дважды",
            "У новой точки уже две линии",
            "проигрывает тот, кто не может сделать ход",
            "Поддавки (вариант): проигрывает тот, кто делает последний ход",
        ],
    },
}
CHOSEN = {"dots": "game.dots", "boxes": "game.boxes", "sprouts": "game.sprouts"}


def plain(text: str) -> str:
    """What Telegram shows of our HTML."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


# -- the pages without Telegram ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", pages.KINDS)
def test_every_rule_point_is_on_the_page(kind: str, lang: str) -> None:
    text = plain(t(lang, pages.page(kind).text))
    missing = [p for p in PHRASES[kind][lang] if p not in text]
    assert not missing, missing
    assert len(text) <= TEXT_MAX
    for example in pages.page(kind).examples:
        assert len(plain(t(lang, example.caption))) <= CAPTION_MAX


def test_each_page_has_an_album_of_examples() -> None:
    """The examples go as one sendMediaGroup, which takes 2 to 10 pictures."""
    assert all(2 <= len(pages.page(kind).examples) <= 10 for kind in pages.KINDS)


def test_the_pages_examples_are_drawn_for_their_game() -> None:
    assert set(pages.KINDS) == set(pages.PAGES)
    named = [name for kind in pages.KINDS for name in pages.PAGES[kind]]
    assert sorted(named) == sorted(examples.EXAMPLES)
    for kind in pages.KINDS:
        assert 1 <= len(pages.PAGES[kind]) <= 2
        assert all(examples.EXAMPLES[name].kind == kind for name in pages.PAGES[kind])


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("dots", "dots"), ("DOTS", "dots"), ("dot", "dots"), ("Точки", "dots"),
        ("boxes", "boxes"), ("box", "boxes"), ("квадраты", "boxes"), ("Палочки", "boxes"),
        ("dots and boxes", "boxes"), ("Точки  и  квадраты", "boxes"),
        ("sprouts", "sprouts"), ("Рассада", "sprouts"), ("рас", "sprouts"),
        ("chess", None), ("", None), ("do", None), ("dotsx", None), ("s", None),
    ],
)  # fmt: skip
def test_which_game_a_word_names(word: str, kind: str | None) -> None:
    assert pages.kind_of(word) == kind


def test_rules_buttons_carry_only_a_game() -> None:
    for kind in pages.KINDS:
        assert pages.decode(pages.button(kind).data) == kind
    for data in ("R:0:0:chess", "R:0:0", "N:1:0:d", "R:0:0:dots:x", "", None, "R" * 70):
        assert pages.decode(data) is None


def test_russian_rules_name_no_player_in_a_gendered_past_tense() -> None:
    """«Алиса: СТОП», not «Алиса объявил»: no past-tense verb or past participle that
    carries a gender ("-л", "-ла", "-вший", "-вшая")."""
    allowed = {"правила", "или", "если", "число", "начало", "начала", "стала"}
    past = re.compile(r"\b[а-яё]+(?:ил|ал|ял|ел|ёл|ул|ыл|ила|ала|яла|ела|ула|ыла|вший|вшая)\b")
    for key, text in catalog("ru").items():
        if key.startswith("rules."):
            found = {w for w in past.findall(text.lower()) if w not in allowed}
            assert not found, (key, found)


# -- the examples are real positions, and the captions say what they hold -----------------------


def test_the_capture_example() -> None:
    g = examples.game("dots_capture")
    assert isinstance(g, DotsGame)
    (cap,) = g.captures
    assert cap.owner == 1 and not cap.intrusion  # Blue (the second player)
    assert {g.format_move(Move(x, y)) for x, y in cap.ring} == {"d5", "e4", "d3", "c4"}
    assert {g.format_move(Move(x, y)) for x, y in cap.area} == {"d4"}
    assert g.last_move is not None and g.format_move(g.last_move) == "d3"
    assert g.scores == (0, 1)
    for lang in LANGUAGES:
        caption = t(lang, "rules.dots_capture")
        assert all(p in caption for p in ("d3", "d5–e4–d3–c4", "d4"))


def test_the_empty_ring_example() -> None:
    g = examples.game("dots_intruder")
    assert isinstance(g, DotsGame)
    (cap,) = g.captures
    assert cap.owner == 0 and cap.intrusion  # Orange's empty ring caught Blue's intruder
    assert {g.format_move(Move(x, y)) for x, y in cap.ring} == {"c4", "d3", "c2", "b3"}
    assert {g.format_move(Move(x, y)) for x, y in cap.area} == {"c3"}
    assert g.last_move is not None and g.format_move(g.last_move) == "c3"
    assert g.scores == (1, 0)
    ring_only = DotsGame(5, 5)  # before the intrusion the ring was an empty one
    for text in examples.EXAMPLES["dots_intruder"].moves[:-1]:
        ring_only.play(ring_only.parse_move(text))
    assert ring_only.scores == (0, 0) and len(ring_only.bases) == 1 and not ring_only.captures
    g.stop(0, now=0.0)  # Orange's STOP instead of the next move sets the intruder free
    assert g.scores == (0, 0)
    for lang in LANGUAGES:
        assert "c4–d3–c2–b3" in t(lang, "rules.dots_intruder")
        assert "1 : 0" in t(lang, "rules.dots_intruder")


def test_the_chain_example() -> None:
    g = examples.game("boxes_chain")
    assert isinstance(g, BoxesGame)
    assert g.scores == (2, 0) and g.turn == 0
    assert [g.format_move(m) for m in g.last_turn] == ["c3-c4", "b3-b4"]
    assert g.line_owner(g.parse_move("d3-d4")) == 1  # Blue's line opened the chain
    top_left = [(r, c) for r, c in g.all_boxes() if g.box_sides(r, c) == 3]
    assert len(top_left) == 1 and g.box_owner(*top_left[0]) is None
    closing = g.parse_move("a3-a4")
    assert closing in g.legal_moves() and len(g.legal_moves()) > 1  # close it, or not
    g.play(closing)
    assert g.scores == (3, 0) and g.turn == 0
    for lang in LANGUAGES:
        caption = t(lang, "rules.boxes_chain")
        assert all(p in caption for p in ("d3-d4", "c3-c4", "b3-b4", "a3-a4", "2 : 0"))


def test_the_palochki_example() -> None:
    g = examples.game("boxes_border")
    assert isinstance(g, BoxesGame)
    assert g.border and g.ply == 2 and g.scores == (0, 1) and g.turn == 1
    (box,) = [b for b, owner in g.taken_boxes().items() if owner == 1]
    assert g.line_owner(g.parse_move("a2-b2")) == 0 and g.line_owner(g.parse_move("b1-b2")) == 1
    assert g.box_owner(*box) == 1
    for lang in LANGUAGES:
        assert all(p in t(lang, "rules.boxes_border") for p in ("a2-b2", "b1-b2"))


def test_the_sprouts_examples() -> None:
    join_game, loop_game = examples.game("sprouts_join"), examples.game("sprouts_loop")
    assert isinstance(join_game, SproutsGame) and isinstance(loop_game, SproutsGame)
    join = {s.number: s.lives for s in join_game.drawing.spots}
    assert join == {1: 2, 2: 2, 3: 1}
    loop = {s.number: s.lives for s in loop_game.drawing.spots}
    assert loop == {1: 1, 2: 2, 3: 0, 4: 1}
    for lang in LANGUAGES:
        assert all(p in t(lang, "rules.sprouts_join") for p in ("1", "2", "3"))
        assert all(p in t(lang, "rules.sprouts_loop") for p in ("1–1", "2–3", "3", "4"))


# -- through the bot ----------------------------------------------------------------------------


async def arrived(chat: ChatHandle, after: int, photos: int) -> list[MessageView]:
    """The bot's messages after message ``after``, once ``photos`` pictures are among them (a
    picture drawn slowly can outlast the playground's quiet moment)."""
    deadline = time.monotonic() + WAIT
    while True:
        said = [m for m in await chat.messages() if m.from_bot and m.message_id > after]
        if sum(m.media is not None for m in said) >= photos or time.monotonic() > deadline:
            return said
        await asyncio.sleep(0.05)


async def check_page(pg: ScenarioClient, said: list[MessageView], kind: str, lang: str) -> None:
    texts = [m for m in said if m.media is None]
    photos = [m for m in said if m.media is not None]
    assert len(texts) == 1, [m.body[:40] for m in said]
    assert plain(t(lang, pages.page(kind).text)) == texts[0].text
    captions = [plain(t(lang, e.caption)) for e in pages.page(kind).examples]
    assert [m.caption for m in photos] == captions
    assert texts[0].message_id < photos[0].message_id  # the rules, then the pictures
    assert photos[0].media_group is not None, "the pictures come as one album"
    assert {m.media_group for m in photos} == {photos[0].media_group}
    for m, example in zip(photos, pages.page(kind).examples, strict=True):
        assert m.media is not None
        data = await pg.png(m.media)
        assert data == examples.picture(example.picture, lang)  # that example, in that language
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            assert im.format == "PNG" and examples.SIZE // 2 <= max(im.size) <= examples.SIZE


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_chooser_opens_each_game(pg: ScenarioClient, lang: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang=lang)
    await alice.send("/rules")
    chooser = await alice.private.last_message()
    assert chooser.text == plain(t(lang, "rules.choose"))
    assert chooser.button_texts == [[t(lang, key)] for key in CHOSEN.values()]
    for kind in pages.KINDS:
        last = (await alice.private.last_message()).message_id
        popup = await alice.press(t(lang, CHOSEN[kind]), chooser)
        assert popup is not None and popup.answered and popup.text == ""
        await check_page(pg, await arrived(alice.private, last, 2), kind, lang)
    assert (await alice.private.last_message()).media is not None
    again = [m for m in await alice.private.messages() if m.message_id == chooser.message_id]
    assert again and again[0].buttons == chooser.buttons  # the chooser stays for the next game


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("typed", "kind"),
    [("/rules dots", "dots"), ("/rules Палочки", "boxes"), ("/rules рассада", "sprouts")],
)
async def test_rules_of_a_named_game(pg: ScenarioClient, lang: str, typed: str, kind: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang=lang)
    sent = await alice.send(typed)
    await check_page(pg, await arrived(alice.private, sent.message_id, 2), kind, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_an_unknown_game_gets_a_clear_answer(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    sent = await alice.send("/rules chess <b>")
    said = await arrived(alice.private, sent.message_id, 0)
    assert len(said) == 1 and said[0].media is None
    assert said[0].text == plain(t(lang, "rules.unknown", name="chess &lt;b&gt;"))
    assert "chess <b>" in (said[0].text or "")  # repeated back as typed, not as markup
    assert said[0].button_texts == [[t(lang, key)] for key in CHOSEN.values()]
    # A forged rules button naming no game: a popup, and nothing is sent.
    popup = await alice.forge(said[0], "R:0:0:chess")
    assert popup is not None and popup.text == t(lang, "err.bad_button")
    assert await arrived(alice.private, said[0].message_id, 0) == []


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_each_game_menu_opens_its_rules(pg: ScenarioClient, lang: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang=lang)
    await alice.send("/new")
    for kind in pages.KINDS:
        menu = await alice.private.last_with_buttons()
        await alice.press(t(lang, CHOSEN[kind]), menu)
        menu = await alice.private.last_with_buttons()
        assert t(lang, f"menu.size_{kind}") in (menu.text or "")
        last = (await alice.private.last_message()).message_id
        await alice.press(t(lang, "rules.button"), menu)
        await check_page(pg, await arrived(alice.private, last, 2), kind, lang)
        still = [m for m in await alice.private.messages() if m.message_id == menu.message_id]
        assert still and still[0].buttons == menu.buttons  # the menu goes on where it was
        await alice.press_button(0, 0, still[0])  # a board size: the variants screen
        variants = await message(alice.private, menu.message_id)
        assert t(lang, f"menu.variants_{kind}").splitlines()[0] in (variants.text or "")
        assert t(lang, "rules.button") in [b for row in variants.button_texts for b in row]
        if kind == "boxes":  # where Палочки is chosen, its rules are one tap away
            last = (await alice.private.last_message()).message_id
            await alice.press(t(lang, "rules.button"), variants)
            await check_page(pg, await arrived(alice.private, last, 2), kind, lang)
        await alice.press(t(lang, "btn.back"), variants)
        await alice.press(t(lang, "btn.back"), await message(alice.private, menu.message_id))


async def test_rules_in_a_group_are_shown_to_the_group(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    boris = await pg.user("boris", lang="ru")
    group = await pg.group("Club", [alice, boris])
    sent = await alice.send("/rules", group)
    chooser = next(m for m in await arrived(group, sent.message_id, 0) if m.buttons)
    assert chooser.text == plain(t("en", "rules.choose"))
    await boris.press(t("en", "game.boxes"), chooser)  # anyone may open a page, in their language
    said = await arrived(group, chooser.message_id, 2)
    assert [m.caption for m in said if m.media is not None] == [
        plain(t("ru", e.caption)) for e in pages.page("boxes").examples
    ]
