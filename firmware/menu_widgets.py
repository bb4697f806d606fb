"""The menus' screens every system's UI uses: menus, a pick of rows, number
and name entry, a kept view, help pages, and starting a new character
(which system, then that system's options). Loaded when a menu first opens
(and dropped again at home with the menus, app.RELEASABLE).

A screen has view() (a dict the renderer draws, see render.py) and
press(button); ``ui`` is the system's Ui (push, pop, notice, open_menu).
"""

from shared_rules import systems

ROW_CHARS = 36  # characters of a menu row in the small font, beside the scroll bar


class Menu:
    """A list of (label, action) rows: UP/DOWN move, B choose, A back."""

    def __init__(self, ui, title, items, keep=False):
        self.ui = ui
        self.title = title
        self.items = items
        self.cursor = 0
        self.keep = keep  # stay open after an action (else pop first)

    def view(self):
        return {"screen": "menu", "title": self.title, "items": [i[0] for i in self.items],
                "selected": self.cursor, "hint": "UP/DN move  B choose  A back"}

    def press(self, b):
        if b == "UP":
            self.cursor = (self.cursor - 1) % len(self.items)
        elif b == "DOWN":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif b == "A":
            self.ui.pop()
        elif b == "B":
            action = self.items[self.cursor][1]
            if not self.keep:
                self.ui.pop()
            action()


class Pick(Menu):
    """Mark rows with B (a mark shows [x]); the last row goes on with the
    marked keys when lo..hi are marked. Rows: [(label, key)]."""

    def __init__(self, ui, title, rows, lo, hi, go, done):
        Menu.__init__(self, ui, title, [], keep=True)
        self.rows, self.lo, self.hi, self.go, self.done = rows, lo, hi, go, done
        self.marked = []
        self.view()

    def view(self):
        self.items = [(("[x] " if k in self.marked else "[ ] ") + t, None) for t, k in self.rows]
        self.items.append((self.go % len(self.marked), None))
        return Menu.view(self)

    def press(self, b):
        if b != "B":
            Menu.press(self, b)
            return
        u = self.ui
        if self.cursor < len(self.rows):
            k = self.rows[self.cursor][1]
            if k in self.marked:
                self.marked.remove(k)
            elif len(self.marked) < self.hi:
                self.marked.append(k)
            else:
                u.notice("That is all", ["Choose at most %d." % self.hi, "B on a marked row", "unmarks it."])
        elif self.lo <= len(self.marked) <= self.hi:
            u.pop()
            self.done(self.marked)
        else:
            u.notice("Choose more", ["Mark %d with B first." % self.lo])


class NumberPick:
    def __init__(self, ui, title, value, lo, hi, done, unit=""):
        self.ui, self.title, self.value, self.lo, self.hi, self.done, self.unit = ui, title, value, lo, hi, done, unit

    def view(self):
        return {"screen": "number", "title": self.title, "value": self.value, "unit": self.unit,
                "hint": "UP/DN change  B ok  A back"}

    def press(self, b):
        if b == "UP":
            self.value = min(self.hi, self.value + 1)
        elif b == "DOWN":
            self.value = max(self.lo, self.value - 1)
        elif b == "A":
            self.ui.pop()
        elif b == "B":
            self.ui.pop()
            self.done(self.value)


class Shown:
    """A view kept from earlier (the last flip), until any button."""

    def __init__(self, ui, v):
        self.ui, self.v = ui, v

    def view(self):
        return dict(self.v)

    def press(self, b):
        self.ui.pop()


class NameEntry:
    """A name with five buttons: UP/DOWN the letter, B takes it, A rubs the
    last one out (or leaves), C is done. Words start with a capital."""

    LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ -'"

    def __init__(self, ui, title, done):
        self.ui, self.title, self.done = ui, title, done
        self.text, self.k = "", 0

    def letter(self):
        ch = self.LETTERS[self.k]
        return ch if not self.text or self.text[-1] == " " else ch.lower()

    def view(self):
        return {"screen": "entry", "title": self.title, "text": self.text, "letter": self.letter(),
                "hint": "UP/DN letter B take A rub out C done"}

    def press(self, b):
        if b in ("UP", "DOWN"):
            self.k = (self.k + (1 if b == "DOWN" else -1)) % len(self.LETTERS)
        elif b == "B":
            if len(self.text) < 32:
                self.text += self.letter()
        elif b == "A":
            if self.text:
                self.text = self.text[:-1]
            else:
                self.ui.pop()
        elif b == "C":
            name = self.text.strip()
            if not name:
                self.ui.notice("No name yet", ["Take a letter with B", "first, or A to leave."])
                return
            self.ui.pop()
            self.done(name)


def confirm_new(u):
    u.push(Menu(u, "Start over? Game is lost", [
        ("No, keep this character", lambda: None),
        ("Yes, new character", lambda: choose_system(u))]))


def choose_system(u):
    """The resolution system of the new character; * marks the one now."""
    now = u.app.game.SYSTEM if u.app.game is not None else None
    u.push(Menu(u, "New character: system", [
        (("* " if k == now else "  ") + systems.name(k), (lambda k=k: new_character(u, k))) for k in systems.KEYS]))


def new_character(u, system="deck"):
    u.app.new_game(u.app.board.entropy(), system=system)
    u.app.refresh.clean_next()


MENU_HELP = ("Menus", ["UP/DOWN move, B choose,", "A back. In a card list", "B marks a card, the",
                       "last row confirms.", "* marks what is set now."])


def help_pages(u, title, pages, settings=()):
    """Help pages, made when asked (not kept on the heap); the settings rows
    follow them (rarely used, so they share the last group)."""
    rows = [(t, (lambda t=t, lines=lines: u.notice(t, lines))) for t, lines in pages] + list(settings)
    u.push(Menu(u, title if not settings else title + " & settings", rows))
