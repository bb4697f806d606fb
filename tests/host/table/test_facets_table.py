"""A Facets character at the table, end to end: `deckahedron table` on a
terminal with simulated boards running the real firmware, driven through
the console (newgame system=facets, the facets command, a button pressed on
the board, the status and the log in Facets' words)."""

from tests.host.conftest import Terminal


def test_a_facets_character_through_the_console(tmp_path):
    gm = Terminal("table", "--sim", "2", "--seed", "4", "--dir", str(tmp_path), "--no-web")
    try:
        gm.until("table> ")
        gm.type("newgame Ann yes system=facets seed=9")
        gm.until("table> ")
        gm.type("facets Ann roll finesse 8 bonus=2")
        said = gm.until("table> ")
        assert "Ann: Finesse d8 rolled" in said and "against TN 8:" in said, said
        gm.type('facets Ann task "[Wit 6 - 2/3 - 1m]"')
        gm.until("table> ")
        gm.type("facets Ann task try")
        said = gm.until("table> ")
        assert "Wit d8 rolled" in said and "task" in said, said
        gm.type("facets Ann damage health 4 armor=1")
        said = gm.until("table> ")
        assert "Health 7/10" in said, said
        gm.type("facets Bo roll finesse 8")
        assert "Bo's device does not play Facets" in gm.until("table> ")
        gm.type("press Ann A")  # the board shows the host's last roll until a press
        assert "facets_home" in gm.until("table> ")
        gm.type("press Ann B")  # the board's own B: the task's next attempt
        said = gm.until("table> ")
        assert "facets_roll" in said, said
        gm.type("status")
        said = " ".join(gm.until("table> ").replace("│", " ").split())  # the table's column, unwrapped
        assert "Facets" in said and "Health 7/10" in said and "vs 6:" in said, said  # the task's 2nd attempt
        gm.type("log 3")
        said = " ".join(gm.until("table> ").split())  # unwrapped
        assert "against TN 6" in said and "task done. (buttons)" in said, said  # the board's press, in words
        gm.type("quit")
        assert gm.proc.wait(timeout=30) == 0
    finally:
        gm.close()
