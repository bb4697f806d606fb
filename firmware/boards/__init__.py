"""Board modules: each hides one target's hardware behind the same small
interface (see sim.py for the reference): flash_dir, width/height,
serial_read(timeout_ms) -> bytes, serial_write(text), buttons() -> names
pressed since the last call, show(buf, mode) with mode "full", "fast" or
"partial" (refresh.py decides; can_partial says whether the panel does
partial updates), battery() -> volts or None, entropy() -> int seed."""
