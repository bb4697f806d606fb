""".ci/run points the emulated boards' tests at the read-only shared/
folder beside a fresh clone when the cache has no base image, and still
ends with the README's test command."""

from pathlib import Path

from host_tools.flashing import rp2040

RUN = Path(__file__).resolve().parents[2] / ".ci" / "run"


def test_ci_looks_for_the_base_image_by_its_name_in_the_cache_then_beside_the_clone():
    text = RUN.read_text()
    assert "base_image=%s\n" % rp2040.BASE_IMAGE in text
    assert "DECKAHEDRON_RP2040_DIR" in text and "../shared/rp2040" in text
    assert text.rstrip().splitlines()[-1] == "make test"
