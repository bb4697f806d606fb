// The Pico's QSPI flash chip, writable. rp2040js 1.4.1 maps the flash for
// reading (XIP) but ignores program and erase, so littlefs fails (ENOSPC).
// The bootrom's flash_range_erase / flash_range_program drive the chip
// through the SSI data register in plain SPI mode, framing each command with
// chip select forced through IO_QSPI GPIO_QSPI_SS_CTRL.OUTOVER; this decodes
// those frames: 0x02 page program (bits only go 1 -> 0, wrapping within the
// 256-byte page), 0x20 4 KiB sector, 0x52 32 KiB and 0xD8 64 KiB block
// erase, 0xC7 / 0x60 chip erase. Reads still go through XIP.
//
// Two more gaps are filled: the SSI RX FIFO level (rp2040js keeps RXFLR at
// 0, so the bootrom never sees answers) and IO_QSPI SD1_CTRL, which the
// bootrom's flash_was_aborted() reads (unmodelled, it read all ones and
// every erase and program stopped at once).
//
// A backing file holds one region of the flash (the littlefs partition):
// every operation inside it is written through, so saves survive a reset
// and a restart of the emulator. A second, write-only one (the ROMFS
// partition's file) shows what `mpremote romfs deploy` wrote there. Every erase and program is counted and
// logged with its emulated time, a program with its page as it then stands
// (so the flash after any of a save's operations can be rebuilt from the
// flash before it: tests/emu/conftest.py flash_after); cutAfter(n) cuts
// the power right after the n-th operation from now (nothing after it
// reaches the chip).
//
// With timing on, the chip is busy after each operation for the typical
// time of the Pico's W25Q16JV (Winbond's datasheet, AC characteristics:
// page program 0.4 ms, 4 KiB sector erase 45 ms, 32 / 64 KiB block erase
// 120 / 150 ms, chip erase 5 s): its status register (0x05) reads BUSY
// meanwhile, and the bootrom's flash_range_erase / _program poll it, so
// the core waits as on a board. Off, it is ready at once (the tests' pace).
import fs from 'fs';
import { BasePeripheral } from 'rp2040js';

const SS_CTRL = 0x0c, SD1_CTRL = 0x1c; // IO_QSPI
const SSIENR = 0x08, TXFLR = 0x20, RXFLR = 0x24, DR0 = 0x60; // SSI
const ERASE_BYTES = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };
const MS = 1e6; // ns
const BUSY_NS = { p: 0.4 * MS, 4096: 45 * MS, 32768: 120 * MS, 65536: 150 * MS, chip: 5000 * MS };
const READ_STATUS = 0x05;
const LOG_LIMIT = 100000;

export class FlashChip {
  constructor(mcu, clock, { backingPath = null, backingOffset = 0, romfsPath = null, romfsOffset = 0, romfsEnd = 0,
    onPowerCut = () => {}, timing = false } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.mem = mcu.flash;
    this.backingOffset = backingOffset;
    this.backingFd = backingPath ? fs.openSync(backingPath, 'r+') : null;
    this.romfs = romfsPath ? { fd: fs.openSync(romfsPath, 'r+'), start: romfsOffset, end: romfsEnd } : null;
    this.onPowerCut = onPowerCut;
    this.ops = 0; // erases + programs since start
    this.erases = 0;
    this.programs = 0;
    this.log = []; // [emulated ns, 'e' | 'p', flash offset, bytes(, a program's page after it, base64)]
    this.cutAt = null; // power goes after this op count
    this.off = false;
    this.frame = [];
    this.csLow = false;
    this.rx = 0; // bytes waiting in the SSI RX FIFO
    this.timing = timing;
    this.busyUntil = 0; // emulated ns: the status register reads BUSY until then (timing)
    this.busyNs = 0; // the time spent busy, summed
    this.attach();
  }

  // The backing file's bytes go into the flash (call before running).
  loadBacking() {
    if (this.backingFd === null) return;
    const size = fs.fstatSync(this.backingFd).size;
    const end = Math.min(this.backingOffset + size, this.mem.length);
    fs.readSync(this.backingFd, this.mem, this.backingOffset, end - this.backingOffset, 0);
  }

  cutAfter(n) { this.cutAt = this.ops + n; }

  attach() {
    const chip = this;
    class IOQSPI extends BasePeripheral {
      constructor() { super(chip.mcu, 'IO_QSPI_BASE'); this.sd1 = 0; }
      // Only SD1_CTRL reads back; the rest stays all ones as before
      // (answering written values elsewhere hung MicroPython's boot).
      readUint32(offset) { return offset === SD1_CTRL ? this.sd1 : 0xffffffff; }
      writeUint32(offset, value) {
        if (offset === SD1_CTRL) this.sd1 = value >>> 0;
        if (offset === SS_CTRL) chip.chipSelect(((value >> 8) & 3) === 2); // 2 = force low
      }
    }
    this.mcu.peripherals[0x40018] = new IOQSPI();
    const ssi = this.mcu.peripherals[0x18000];
    const write = ssi.writeUint32.bind(ssi), read = ssi.readUint32.bind(ssi);
    ssi.writeUint32 = (offset, value) => {
      if (offset === DR0) {
        if (this.csLow) this.frame.push(value & 0xff);
        if (this.rx < 16) this.rx++; // each byte shifted out brings one in
      }
      if (offset === SSIENR && !(value & 1)) this.rx = 0; // disabling flushes the FIFOs
      write(offset, value);
    };
    ssi.readUint32 = (offset) => {
      if (offset === RXFLR) return this.rx;
      if (offset === TXFLR) return 0;
      if (offset === DR0) {
        if (this.rx) this.rx--;
        // status BUSY (bit 0) while an operation runs (timing); else ready, zero IDs
        return this.csLow && this.frame[0] === READ_STATUS && this.clock.nanos < this.busyUntil ? 1 : 0;
      }
      return read(offset);
    };
  }

  chipSelect(low) {
    if (this.csLow && !low) this.endFrame();
    if (!this.csLow && low) this.frame = [];
    this.csLow = low;
  }

  endFrame() {
    const f = this.frame;
    this.frame = [];
    if (this.off) return;
    const op = f[0];
    if (op === 0x02 && f.length > 4) {
      const addr = (f[1] << 16) | (f[2] << 8) | f[3];
      const page = addr & ~0xff;
      for (let i = 4; i < f.length; i++) {
        const a = page | ((addr + i - 4) & 0xff);
        if (a < this.mem.length) this.mem[a] &= f[i];
      }
      this.programs++;
      this.done('p', page, 256, BUSY_NS.p);
    } else if (op in ERASE_BYTES && f.length >= 4) {
      const size = ERASE_BYTES[op];
      const start = ((f[1] << 16) | (f[2] << 8) | f[3]) & ~(size - 1);
      this.mem.fill(0xff, start, Math.min(start + size, this.mem.length));
      this.erases++;
      this.done('e', start, size, BUSY_NS[size]);
    } else if ((op === 0xc7 || op === 0x60) && f.length === 1) {
      this.mem.fill(0xff);
      this.erases++;
      this.done('e', 0, this.mem.length, BUSY_NS.chip);
    }
  }

  done(kind, start, size, busyNs) {
    this.ops++;
    if (this.timing) {
      this.busyUntil = this.clock.nanos + busyNs;
      this.busyNs += busyNs;
    }
    if (this.log.length < LOG_LIMIT) {
      const entry = [this.clock.nanos, kind, start, size];
      if (kind === 'p') entry.push(Buffer.from(this.mem.subarray(start, start + size)).toString('base64'));
      this.log.push(entry);
    }
    this.writeThrough(start, size);
    if (this.cutAt !== null && this.ops >= this.cutAt) {
      this.off = true;
      this.onPowerCut(this.ops);
    }
  }

  writeThrough(start, size) {
    const r = this.romfs;
    if (r !== null) {
      const lo = Math.max(start, r.start), hi = Math.min(start + size, r.end);
      if (lo < hi) fs.writeSync(r.fd, this.mem, lo, hi - lo, lo - r.start);
    }
    if (this.backingFd === null) return;
    const lo = Math.max(start, this.backingOffset), hi = Math.min(start + size, this.mem.length);
    if (lo < hi) fs.writeSync(this.backingFd, this.mem, lo, hi - lo, lo - this.backingOffset);
  }

  close() {
    if (this.romfs !== null) fs.closeSync(this.romfs.fd);
    this.romfs = null;
    if (this.backingFd !== null) fs.closeSync(this.backingFd);
    this.backingFd = null;
  }
}
