"""What every system's UI stands on: the stack of screens (Screens), a
message, and the text wrap. The menus' screens (menus, number and name
entry, starting a new character) are in menu_widgets.py, loaded when a
menu first opens: a board that only flips keeps their code out of its heap.
Kept apart from each system's ui.py so a device playing another system
never loads the Deckahedron's UI.

A screen has view() (a dict the renderer draws, see render.py) and
press(button); ``ui`` is the system's Ui (push, pop, notice, open_menu).
"""

from shared_rules.errors import RulesError

def _wrap(text, width=24):
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = (line + " " + w) if line else w
    if line:
        lines.append(line)
    return lines[:6]


class Message:
    def __init__(self, ui, title, lines, sticky=False):
        self.ui, self.title, self.lines, self.sticky = ui, title, lines, sticky

    def view(self):
        return {"screen": "message", "title": self.title, "lines": self.lines,
                "hint": "C menu" if self.sticky else "any button: back"}

    def press(self, b):
        if self.sticky:
            if b == "C":
                self.ui.open_menu()
            return
        self.ui.pop()


class Screens:
    """What every system's Ui shares: a stack of screens over a base screen
    (home, the roll or flip on show), notices, and running a rules command
    with a refusal shown in the rules' own sentence. A system's Ui adds
    reset(), status(), base() and main_menu()."""

    def __init__(self, app):
        self.app = app
        self.reset()

    @property
    def game(self):
        return self.app.game

    def push(self, screen):
        self.stack.append(screen)

    def pop(self):
        if self.stack:
            self.stack.pop()

    def home(self):
        self.stack = []

    def notice(self, title, lines, sticky=False):
        self.push(Message(self, title, lines, sticky))

    def open_menu(self):
        self.push(self.main_menu())

    def load(self, module):
        """A module of screens loaded when first wanted (the menus, a flip's
        rarer screens, a mini-game's), so a board that only flips does not
        hold its code. The one door for them: CircuitPython makes room for
        their names first, while the heap has it (a table in one piece:
        boards/circuitpython.py, make_name_table)."""
        self.app.board.make_name_table()
        return __import__(module, None, None, ["_"])  # a fromlist: the package's module itself

    def run(self, op, args, then=None):
        """Run a rules command for the player; on refusal show why."""
        try:
            result = self.app.command(op, args)
        except RulesError as e:
            self.notice("Not now", _wrap(e.message))
            return None
        if then is not None:
            then(result)
        return result

    def top(self):
        return self.stack[-1] if self.stack else self.base()

    def view(self):
        v = self.top().view()
        if "status" not in v and v.get("screen") != "message":
            v["status"] = self.status()
        return v

    def press(self, button):
        """The button on the screen on top (the app draws what follows:
        a screen's view is made once a press, by App.render)."""
        if self.game is None and not self.stack:
            self.open_menu()
        self.top().press(button)
