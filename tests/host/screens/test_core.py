"""The device screens: expected pixels for known states, golden digests, and
the card faces everywhere.

The renderer runs only under MicroPython, so this runs
``micropython host_tools/screens/mp_render.py OUTDIR`` once and reads the raw buffers
(4736 bytes, MONO_HLSB, bit 1 = black). Every coordinate comes from
firmware/layout.py (plain data, imported here on CPython) and every view from
host_tools/screens/mp_render.py (its VIEWS list is plain data too).
"""

import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from deck import card_art as A
import glyphs as G
import layout as L
import host_tools.screens.mp_render as S
from tests.host.test_micropython_suite import ROOT, find_tool

VIEWS = dict(S.VIEWS)
STRIDE = L.WIDTH // 8


@pytest.fixture(scope="module")
def screens(tmp_path_factory):
    out = tmp_path_factory.mktemp("screens")
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", str(out)], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, "screens_mp.py failed:\n%s%s" % (proc.stdout, proc.stderr)
    bufs = {}
    for name, _ in S.VIEWS:
        bufs[name] = (out / (name + ".bin")).read_bytes()
    return bufs


def px(buf, x, y):
    return (buf[y * STRIDE + (x >> 3)] >> (7 - (x & 7))) & 1


def ink(buf, rect):
    x0, y0, w, h = rect
    return sum(px(buf, x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w))


def ink_rows(buf, rect):
    x0, y0, w, h = rect
    return [y for y in range(y0, y0 + h) if any(px(buf, x, y) for x in range(x0, x0 + w))]


def flip_views():
    return [name for name, v in S.VIEWS if isinstance(v, dict) and v.get("screen") == "flip"
            and isinstance(v.get("cards"), list) and all(isinstance(c, str) for c in v["cards"])
            and v.get("suit") in ("anvil", "blade", "crown", "dragon")]


# ---------------------------------------------------------------- the buffer


def test_every_screen_is_one_panel_buffer(screens):
    assert L.BUF_SIZE == 4736 == L.WIDTH * L.HEIGHT // 8
    for name, buf in screens.items():
        assert len(buf) == L.BUF_SIZE, name
        assert any(buf), "%s is blank" % name


def test_every_card_in_every_slot_and_no_write_past_the_buffer():
    """All 35 card ids in every flip and mini-game slot, each suit chosen,
    under every edition; the 64 guard bytes after the panel stay intact."""
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", "--cards"], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("cards ok 35 "), last


def test_junk_in_any_view_key_still_draws_the_screen():
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", "--fuzz"], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("fuzz ok "), proc.stdout


def test_every_screen_drawn_in_the_panel_layout_has_the_same_pixels():
    """The Pico's renderer draws straight into the SSD1680's column-byte
    layout (render.Canvas in MONO_VLSB): each view must come out pixel for
    pixel as the MONO_HLSB frame the other boards and the host see."""
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", "--vlsb"], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "vlsb ok %d" % len(S.VIEWS), proc.stdout


def test_native_ink_draws_what_framebuf_draws():
    """drivers/ink.py draws text, scaled text and bitmaps on the panels'
    canvas in native code: random drawings, every scale, colour and edge,
    must leave the bytes framebuf leaves."""
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", "--ink"], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("ink ok "), proc.stdout


# ---------------------------------------------------------------- flip screens


def test_flip_uses_the_slots_for_its_card_count(screens):
    for name in flip_views():
        v = VIEWS[name]
        n = len(v["cards"])
        buf = screens[name]
        for (x, y, w, h) in L.FLIP_SLOTS[n]:
            # the frame border: left and right edges at mid height, top edge
            assert px(buf, x, y + h // 2) == 1, (name, x)
            assert px(buf, x + w - 1, y + h // 2) == 1, (name, x)
            assert px(buf, x + 6, y) == 1, (name, x)
        if n < 3:
            # the next slot of a bigger flip is not a card here
            x, y, w, h = L.FLIP_SLOTS[n + 1][n]
            assert px(buf, x, y + h // 2) == 0, name


def test_single_flip_uses_the_one_card_slot(screens):
    buf = screens["flip_single_crown"]
    x, y, w, h = L.FLIP_SLOTS[1][0]
    assert px(buf, x, y + h // 2) == px(buf, x + w - 1, y + h // 2) == 1
    x2, y2, w2, h2 = L.FLIP_SLOTS[2][1]
    assert ink(buf, (x2, y2 + h2 // 2 - 2, 2, 4)) == 0  # no second card frame


def test_resolving_marker_only_under_the_resolving_card(screens):
    seen = 0
    for name in flip_views():
        v = VIEWS[name]
        slots = L.FLIP_SLOTS[len(v["cards"])]
        for i, slot in enumerate(slots):
            bx, by, bw, bh = L.resolve_bar(slot)
            probe = px(screens[name], bx + bw - 2, by)  # right end, top row of the bar
            want = 1 if v["resolving"] == i else 0
            assert probe == want, (name, i)
            if want:
                seen += 1
                # the whole bar is solid apart from a knocked-out "TIE"
                assert ink(screens[name], (bx + 20, by, bw - 20, bh)) == (bw - 20) * bh, name
                # and the resolving card's frame is 3 px thick
                x, y, w, h = slot
                assert all(px(screens[name], x + k, y + h // 2) for k in range(3)), name
            else:
                x, y, w, h = slot
                assert px(screens[name], x + 1, y + h // 2) == 0, (name, i)
    assert seen >= 5


def test_tie_marks(screens):
    buf = screens["flip_three_tie"]  # cards 0 and 1 tie, 0 resolves
    slots = L.FLIP_SLOTS[3]
    b0, b1, b2 = (L.resolve_bar(s) for s in slots)
    # TIE knocked out of the resolving bar: white pixels inside the bar
    assert ink(buf, (b0[0], b0[1], 16, b0[3])) < 16 * b0[3]
    # the other tied card: "TIE" and a dashed line, no solid bar
    assert 0 < ink(buf, b1) < b1[2] * b1[3] // 2
    # the card outside the tie: nothing under it
    assert ink(buf, b2) == 0
    # one card alone is never marked TIE
    single = screens["flip_single_crown"]
    b = L.resolve_bar(L.FLIP_SLOTS[1][0])
    assert ink(single, b) == b[2] * b[3]


def test_cursor_while_choosing(screens):
    v = VIEWS["flip_choose_tie"]
    buf = screens["flip_choose_tie"]
    assert v["resolving"] is None and v["selected"] == 2
    for i, slot in enumerate(L.FLIP_SLOTS[3]):
        bx, by, bw, bh = L.resolve_bar(slot)
        apex = px(buf, bx + bw // 2, by)
        base = px(buf, bx + bw // 2 - bh + 1, by + bh - 1)
        if i == 2:
            assert apex == 1 and base == 1, (i, apex, base)
        else:
            assert apex == 0, i
        assert px(buf, bx + bw - 2, by) == 0  # nothing resolves yet


def test_result_words_are_big(screens):
    for name in flip_views():
        words = VIEWS[name]["words"]
        rows = ink_rows(screens[name], L.FLIP_WORDS)
        assert rows, name
        # the main word is drawn at 3x: capitals are 7 font rows -> 21 px
        assert rows[-1] - rows[0] + 1 >= 7 * L.WORDS_SCALE, (name, words)
        assert ink(screens[name], L.FLIP_WORDS) > 300, name


def test_note_or_hint_row_has_ink(screens):
    for name in flip_views():
        assert ink(screens[name], L.FLIP_NOTE) > 20, name


def test_chosen_suit_edge_is_inverted(screens):
    """The chosen suit's edge box is solid black at its corners on every
    card (Dragon top, Crown left, Blade right, Anvil bottom); the other
    suits' boxes are not."""
    checked = 0
    for name in flip_views():
        v = VIEWS[name]
        buf = screens[name]
        for (x, y, w, h) in L.FLIP_SLOTS[len(v["cards"])]:
            for suit in L.EDGE_ORDER:
                bx, by, bw, bh = L.edge_box(suit, w, h)
                corners = [(x + bx, y + by), (x + bx + bw - 1, y + by), (x + bx, y + by + bh - 1),
                           (x + bx + bw - 1, y + by + bh - 1)]
                got = [px(buf, cx, cy) for cx, cy in corners]
                if suit == v["suit"]:
                    assert got == [1, 1, 1, 1], (name, suit)
                    checked += 1
                else:
                    assert got == [0, 0, 0, 0], (name, suit, got)
    assert checked >= 20


def test_edge_boxes_sit_on_their_edges():
    w, h = L.CARD_W, L.CARD_H
    cx, cy = w // 2, h // 2
    boxes = {s: L.edge_box(s, w, h) for s in L.EDGE_ORDER}
    assert boxes["dragon"][1] + boxes["dragon"][3] <= cy - L.CENTRE_R  # top
    assert boxes["anvil"][1] >= cy + L.CENTRE_R  # bottom
    assert boxes["crown"][0] + boxes["crown"][2] <= cx - L.CENTRE_R  # left
    assert boxes["blade"][0] >= cx + L.CENTRE_R  # right
    assert L.edge_box("spade") is None
    for s, (x, y, bw, bh) in boxes.items():
        assert L.CARD_INSET <= x and x + bw <= w - L.CARD_INSET, s
        assert L.CARD_INSET <= y and y + bh <= h - L.CARD_INSET, s


def test_layout_fits_the_panel():
    for n, slots in L.FLIP_SLOTS.items():
        assert len(slots) == n
        side = L.FLIP_SIDE[n]
        for i, (x, y, w, h) in enumerate(slots):
            assert 0 <= x and x + w <= side[0] and y + h <= L.FLIP_MARK_Y
            if i:
                assert x >= slots[i - 1][0] + slots[i - 1][2]  # no overlap
        assert side[0] + side[2] <= L.WIDTH
    for n, slots in L.MINI_SLOTS.items():
        assert len(slots) == n
        for x, y, w, h in slots:
            assert 0 <= x and x + w <= L.WIDTH and y + h < L.MINI_MARK_Y
    wx, wy, ww, wh = L.FLIP_WORDS
    assert L.FLIP_MARK_Y + L.FLIP_MARK_H <= wy and wy + wh <= L.HINT_Y
    assert wh >= 8 * L.WORDS_SCALE
    assert L.HINT_Y + 8 <= L.STATUS_RULE_Y < L.STATUS_Y and L.STATUS_Y + 8 <= L.HEIGHT
    assert L.MENU_ROW_Y + L.MENU_ROWS * L.MENU_ROW_H <= L.HINT_Y


# ---------------------------------------------------------------- other screens


def test_status_line_on_every_screen_but_message(screens):
    for name, v in S.VIEWS:
        buf = screens[name]
        is_msg = not isinstance(v, dict) or v.get("screen") not in ("home", "flip", "menu", "number", "minigame",
                                                                    "sheet")
        if is_msg:
            continue
        assert ink(buf, (0, L.STATUS_RULE_Y, L.WIDTH, 1)) == L.WIDTH, name
        assert ink(buf, (0, L.STATUS_Y, 150, 8)) > 60, name


def test_status_battery_and_incapacitated(screens):
    bx, by, bw, bh = L.BATTERY
    assert ink(screens["home"], L.BATTERY) > 20
    assert ink(screens["home_no_battery"], (0, L.STATUS_Y, L.WIDTH, 8)) < ink(screens["home"], (0, L.STATUS_Y, L.WIDTH, 8))
    assert ink(screens["home_no_battery"], L.BATTERY) == 0  # no battery reading, no name
    tx, ty, tw, th = L.INCAP_TAG
    tag = (bx - 3 - tw, ty, tw, th)
    assert ink(screens["home_incap"], tag) > tw * th // 2  # inverted tag
    assert ink(screens["home"], tag) < tw * th // 4


def test_home_shows_attribute_suit_and_net(screens):
    buf = screens["home"]
    ax, ay, asc = L.HOME_ATTR
    assert ink(buf, (ax, ay, 3 * 8 * asc, 7 * asc)) > 500  # "STR" at 4x
    sx, sy, ssc = L.HOME_SUIT_SYM
    assert ink(buf, (sx, sy, 13 * ssc, 13 * ssc)) > 200
    bx, by, bw, bh = L.HOME_NET_BOX
    assert px(buf, bx, by + bh // 2) == 1
    assert ink(buf, (bx + 2, by + 2, bw - 4, 40)) > 300  # "+1" big


def test_suits_are_told_apart_by_shape():
    bms = G.SUIT_BITMAPS
    assert set(bms) == {"anvil", "blade", "crown", "dragon", "anchor", "bulb", "crescent", "dart"}
    datas = [bms[k][2] for k in sorted(bms)]
    assert len(set(datas)) == len(datas), "two suits share a bitmap"
    for k, (w, h, data) in bms.items():
        assert (w, h) == (L.SUIT_SYM, L.SUIT_SYM) and len(data) == h * ((w + 7) // 8), k
        assert bin(int.from_bytes(data, "big")).count("1") > 30, k


def test_suit_symbols_render_differently(screens):
    sx, sy, ssc = L.HOME_SUIT_SYM
    size = 13 * ssc

    def crop(name):
        buf = screens[name]
        return tuple(px(buf, x, y) for y in range(sy, sy + size) for x in range(sx, sx + size))

    crops = {VIEWS[n]["suit"] + "/" + VIEWS[n]["status"]["edition"]: crop(n)
             for n in ("home", "home_dex_anvil", "home_int_blade", "home_str_dragon", "home_dw")}
    assert len(set(crops.values())) == len(crops), sorted(crops)
    assert all(sum(c) > 100 for c in crops.values())


def test_menu_selected_row_is_inverted_and_visible(screens):
    v = VIEWS["menu"]
    buf = screens["menu"]
    n, sel = len(v["items"]), v["selected"]
    top = max(0, min(sel - L.MENU_ROWS // 2, n - L.MENU_ROWS))
    row_y = L.MENU_ROW_Y + (sel - top) * L.MENU_ROW_H
    # solid left edge of the inverted row, white just above and below it
    assert all(px(buf, 1, row_y + k) for k in range(L.MENU_ROW_H))
    assert px(buf, 1, row_y - 1) == 0 and px(buf, 1, row_y + L.MENU_ROW_H) == 0
    assert px(buf, 1, L.MENU_ROW_Y + 2) == 0  # first visible row not selected


def test_message_and_unknown_screens(screens):
    for name in ("message", "unknown", "not_a_dict", "bad_types"):
        buf = screens[name]
        assert ink(buf, (0, 0, L.WIDTH, L.MESSAGE_RULE_Y)) > 100, name
    assert ink(screens["unknown"], (0, L.MESSAGE_LINE_Y, L.WIDTH, 20)) > 50
    assert ink(screens["message"], (0, L.STATUS_Y, L.WIDTH, 8)) > 10  # hint at the bottom


def test_minigame_marks_the_selected_card(screens):
    v = VIEWS["minigame_pick_locks"]
    slots = L.MINI_SLOTS[len(v["cards"])]
    buf = screens["minigame_pick_locks"]
    for i, (x, y, w, h) in enumerate(slots):
        got = px(buf, x + w // 2, L.MINI_MARK_Y + 1)
        assert got == (1 if i == v["selected"] else 0), i
        assert ink(buf, (x + 4, y + 4, 18, 10)) > 60  # a corner label, inverted


# ---------------------------------------------------------------- glyph sources


def test_glyph_art_comments_match_the_bytes():
    """glyphs.py and card_art.py keep each bitmap's ASCII art in a comment above it."""
    from host_tools.screens.core import pack_art

    found = 0
    for module in (G, A):
        src = Path(module.__file__).read_text()
        blocks = re.findall(r"# (\w+)\n((?:#   [.#]+\n)+)([A-Z_]+) = ", src)
        found += len(blocks)
        for key, art, const in blocks:
            rows = [r[4:] for r in art.strip("\n").split("\n")]
            assert pack_art(rows) == getattr(module, const), const
    assert found >= 16
    src = (ROOT / "firmware" / "glyphs.py").read_text()
    mini = re.findall(r"#   (\S) ([.#]{3}) ([.#]{3}) ([.#]{3}) ([.#]{3}) ([.#]{3})\n", src)
    assert "".join(m[0] for m in mini) == G.MINI_CHARS
    for k, m in enumerate(mini):
        for r in range(5):
            v = sum(4 >> i for i in range(3) if m[1 + r][i] == "#")
            assert G.MINI_FONT[k * 5 + r] == v, m[0]


def test_zodiac_labels_are_distinct():
    labels = list(A.ZODIAC_LABELS.values())
    assert len(A.ZODIAC_LABELS) == 12 and len(set(labels)) == 12
    assert all(ch in G.MINI_CHARS for lab in labels for ch in lab)


# ---------------------------------------------------------------- host tools


def test_host_png_conversion(tmp_path):
    from host_tools.screens.core import save_png, to_image

    buf = bytearray(L.BUF_SIZE)
    buf[0] = 0x80  # pixel (0, 0) black
    buf[L.BUF_SIZE - 1] = 0x01  # pixel (295, 127) black
    img = to_image(buf)
    assert img.mode == "1" and img.size == (L.WIDTH, L.HEIGHT)
    assert img.getpixel((0, 0)) == 0 and img.getpixel((1, 0)) == 255
    assert img.getpixel((295, 127)) == 0
    path = save_png(buf, tmp_path / "x.png", scale=2)
    from PIL import Image

    assert Image.open(path).size == (2 * L.WIDTH, 2 * L.HEIGHT)


def test_render_views_to_pngs(tmp_path, screens):
    from host_tools.screens.core import render_views

    bufs = render_views([("home", VIEWS["home"]), ("odd", {"screen": "number", "value": -3, "unit": ""})])
    assert bufs["home"] == screens["home"]
    assert len(bufs["odd"]) == L.BUF_SIZE and any(bufs["odd"])
    with pytest.raises(ValueError):
        render_views([("../evil", {})])


# ---------------------------------------------------------------- golden digests

# sha256 of every screen buffer. Any change to the drawing (layout, glyphs,
# render) changes these on purpose: look at the PNGs first
# (`.venv/bin/python -m host_tools.screens.core docs/screens`, then open them),
# and when they are right, run
#     .venv/bin/python -m pytest -q tests/host/screens/test_core.py -k golden
# and paste the DIGESTS dict that the failure prints over this one.
DIGESTS = {
    "bad_flip": "5171df981004430906e2b77e59591ab9c825d33f7854ae633d9a87b880ccbc0a",
    "bad_types": "19928ccd25c65d5f5fa69cbb5abdabef1faf53b5c04efded4ea43908cf55b5d1",
    "entry": "d57a243285c03bae29520d60a5956eee9704f391c89d5203d906d85954e71d8f",
    "entry_long": "e1f9583fd49b6dd8480363bc5d5f278a5cde8689461236dbe7434486deeb1404",
    "flip_advantage": "105ffc8996e10104b03a0f992f7978bc85132bce4e21667c2c09b8222b2107af",
    "flip_blessings": "0651d95afd6fddc4385ea74f596679ef0891097a39ba3cd9e912014123d80cae",
    "flip_choose_tie": "50bfb074dd940a6bc7c938e4b62907f24cdd16e8bb8b6ea9ef78c1ef3d530c7f",
    "flip_crit_fail": "30fa8fa4c9cf2695b0ffcc7b63df6448f29bb06c6be269625eb94487a7d06405",
    "flip_crit_success": "16f2dad43ac2d2b947f63c847d417cce1ab77a877ab97d18bcb749533fdbc691",
    "flip_dw": "d273b478637f1a3b8e18f959a718fec552a92a350c849425f7f4d48ae093860a",
    "flip_flashback": "35a4d950d978f714d15169dc2f6624d5bf206cc589e4dbd947155d0602b23637",
    "flip_single_crown": "e23fe78e8f1ca97b1a1f0f4b143372f486e3e7c2833130853873f1c6ffb33019",
    "flip_three_tie": "0f1ebad9a9d0f35305b47135e4f41f35311716b267888ae170a71446e7a01e93",
    "flip_undecided": "fc6835f2eb737e793c9f2d4864d96127aacd7779da33ae6280f9dc62b01bbd74",
    "flip_wound_stopped": "b017dc1744cb4355a47e0a6e79fe1e6f333e57ab6ca97e5137a862595226344c",
    "home": "111d30b1b07dd466e37ad3cb1cf1133fe97bb623e1ac2828a4e8ff3fb4fb5c0f",
    "home_dex_anvil": "c12257eaa41e238a37ca37b7a391e754257f8876a97d5abab5deba4278f171de",
    "home_dw": "516584669ee4c906485dbb46434319c4758534937ffe24cee557f975ec32daab",
    "home_incap": "c86c17d0c4366b52a25ad0c5b1a77178ccdd7735a2e1b711d84e5759830e34ec",
    "home_int_blade": "3e0dfad3c1c222af46e3d526ae82afc56fb275ad5ba9bb3a854cab20cf2d0ee3",
    "home_no_battery": "9d12081c28a64ec13ba88069cb0cce82e6d43c0f0d63cfdd3a4591867c523ace",
    "home_str_dragon": "94d099b4f4fcd94e1b1649bf352fe57589f555bd49785a6a8bf0c259be733a19",
    "long_strings": "cdabc370429f0c6b6b3d813b4bbc78bb5c8e5db0dd879362989715208c0b902f",
    "menu": "e3a7448020152f42c0bbe7a3270440fe7e15ae58d1b4576442ed6b7862228a8a",
    "menu_short": "0da768baab2a4f06d207d6a2132cdaa7c720397af1bbad585efff85a0ea359de",
    "message": "9779145c045a005ecd849899dfd28e1af92fde26bb17b5a3059769a64a81f910",
    "minigame_magic": "5f70c3245cac978a9ce5f2513615740b2720ac2d03bb4548b85bebf60a5c821d",
    "minigame_pick_locks": "0ac4a58d5255c939aec09dfca6440c7d32f1744505c6986902b6311201a30b09",
    "not_a_dict": "8148a0a01729395f68a9de84591347e0a55ef48a9d3f75f55b84152a60d6e846",
    "number": "115d3cc80b3425c8a64c15baeaa2846f54fa1e225594c01d93735cd1a1495cb5",
    "sheet": "664e4d1bf630c7b02b07871eac3d007deecf5acf3fe9573f0a705b6b031c7f1f",
    "unknown": "06d39892c9f5fb985193b1e834c16ed1024d8b99cb16371d923233d00555f9c2",
}


def test_golden_digests(screens):
    got = {name: hashlib.sha256(buf).hexdigest() for name, buf in sorted(screens.items())}
    if got != DIGESTS:
        lines = ["DIGESTS = {"] + ['    "%s": "%s",' % kv for kv in sorted(got.items())] + ["}"]
        changed = sorted(k for k in set(got) | set(DIGESTS) if got.get(k) != DIGESTS.get(k))
        pytest.fail("screens changed: %s\n%s" % (", ".join(changed), "\n".join(lines)), pytrace=False)
