// The Badger 2040 / 2040 W panel: a UC8151 controller (128 sources x 296
// gates, b/w) on SPI0 with DC, CS, RST and BUSY lines. The same model, and
// the same strict checks, as tests/fakes/uc8151_panel.py (its docstring
// describes the controller; firmware/drivers/uc8151.py cites the sources);
// a check that fails is recorded in `violations` (with the emulated time)
// and the byte is dropped, since the firmware cannot be stopped
// mid-instruction the way the fake raises.
//
// BUSY is LOW while the controller works (1 = ready), driven on the
// emulated clock: RESET_MS after RST rises, POWER_ON_MS after PON,
// POWER_OFF_MS after POF, and on DRF FULL_MS (OTP waveform) or the register
// waveform's frames (LUT_VCOM groups: sum of 4 phases x repeat) at the PLL
// frame rate. In deep sleep BUSY reads low until a hardware reset. Each
// update is reported to `onUpdate({kind, t, until, ms, frames, window})`:
// kind 'full' (OTP), 'fast' (register waveform, whole panel) or 'partial'
// (a window); t when DRF started it, until when BUSY rises again.
//
// Registered in panels.mjs as 'uc8151'; host_tools/sim/emulated.py takes the
// pins, the buttons' pressed level (1: to 3V3 with pull-downs) and the
// power latch from the board registry. The 2040 W's RTC (PCF85063A on I2C)
// is not modelled: nothing answers there, and the W plays without its alarm.
const SOURCES = 128, GATES = 296, ROW = SOURCES / 8, RAM = ROW * GATES, LANDSCAPE_ROW = GATES / 8;
const MS = 1e6; // ns
const STREAM = -1;
const DATA_LEN = new Map([
  [0x00, 1], [0x01, 5], [0x02, 0], [0x03, 1], [0x04, 0], [0x06, 3], [0x07, 1],
  [0x10, STREAM], [0x11, 0], [0x12, 0], [0x13, STREAM],
  [0x20, 44], [0x21, 42], [0x22, 42], [0x23, 42], [0x24, 42],
  [0x30, 1], [0x41, 1], [0x50, 1], [0x60, 1], [0x61, 3], [0x82, 1],
  [0x90, 7], [0x91, 0], [0x92, 0],
]);
const PLL_HZ = new Map([[0x3f, 29], [0x3e, 33], [0x3d, 40], [0x3c, 50], [0x3b, 67], [0x3a, 100], [0x39, 200]]);
const hex = (b) => `0x${b.toString(16).padStart(2, '0')}`;

export const WIDTH = GATES, HEIGHT = SOURCES;

export class UC8151 {
  static FULL_MS = 4500; // Pimoroni: update time with the OTP waveform
  static POWER_ON_MS = 40;
  static POWER_OFF_MS = 20;
  static RESET_MS = 3;
  static RESET_LOW_MIN_MS = 1;

  // pins: {spi, cs, dc, rst, busy} as in firmware/boards/badger2040.py
  constructor(mcu, clock, pins, { onUpdate = () => {}, onViolation = () => {} } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.pins = pins;
    this.onUpdate = onUpdate;
    this.onViolation = onViolation;
    this.ram = new Uint8Array(RAM);
    this.glass = new Uint8Array(LANDSCAPE_ROW * SOURCES); // landscape MONO_HLSB, 1 = black
    this.busyUntil = 0;
    this.asleep = false;
    this.rstLowAt = null;
    this.updates = []; // {kind, t: ns, ms, frames, window}
    this.commands = 0;
    this.resets = 0;
    this.sleeps = 0;
    this.violations = []; // {t: ns, msg}
    this.cmd = null;
    this.data = [];
    this.defaults();
    this.wire();
  }

  defaults() {
    this.psr = 0x0f; // reset value: 96 x 230, b/w/red, OTP
    this.cdi = 0xd7;
    this.pll = 0x3c;
    this.luts = new Map();
    this.power = false;
    this.partial = false;
    this.window = null; // [hrst, hred, vrst, vred]
    this.dtmLeft = 0;
    this.dtmPos = 0;
    for (let i = 0; i < RAM; i++) this.ram[i] = (i / ROW) & 1 ? 0xaa : 0x55; // RAM not written shows
  }

  wire() {
    const { mcu, clock, pins } = this;
    const gpio = mcu.gpio;
    this.busyPin = gpio[pins.busy];
    this.busyAlarm = clock.createAlarm(() => this.driveBusy());
    this.driveBusy();
    let rst = gpio[pins.rst].outputValue;
    gpio[pins.rst].addListener(() => {
      const level = gpio[pins.rst].outputValue;
      if (level !== rst) this.rstWritten(level);
      rst = level;
    });
    const spi = mcu.spi[pins.spi];
    // The byte completes one byte-time later on the emulated clock (as the
    // SSD1680 model: completing it inside onTransmit stalls DMA writes).
    const done = clock.createAlarm(() => spi.completeTransmit(0xff));
    spi.onTransmit = (value) => {
      this.byte(value, gpio[pins.dc].outputValue ? 1 : 0, gpio[pins.cs].outputValue ? 1 : 0);
      done.schedule(Math.max(1, Math.round(8e9 / (spi.clockFrequency || 12e6))));
    };
  }

  busy() { return this.asleep || this.clock.nanos < this.busyUntil; }

  driveBusy() { this.busyPin.setInputValue(!this.busy()); }

  busyFor(ms) {
    this.busyUntil = this.clock.nanos + ms * MS;
    this.driveBusy();
    this.busyAlarm.schedule(ms * MS);
  }

  violation(msg) {
    const v = { t: this.clock.nanos, msg };
    this.violations.push(v);
    this.onViolation(v);
  }

  rstWritten(level) {
    const now = this.clock.nanos;
    if (!level) {
      if (now < this.busyUntil && !this.asleep) this.violation('hardware reset during a refresh (BUSY low)');
      this.rstLowAt = now;
    } else if (this.rstLowAt !== null) {
      const low = (now - this.rstLowAt) / MS;
      this.rstLowAt = null;
      if (low < UC8151.RESET_LOW_MIN_MS) this.violation(`reset pulse of ${low.toFixed(3)} ms: RST must stay low at least ${UC8151.RESET_LOW_MIN_MS} ms`);
      this.cmd = null;
      this.asleep = false;
      this.resets++;
      this.defaults();
      this.busyFor(UC8151.RESET_MS);
    }
  }

  byte(b, dc, cs) {
    if (cs) return this.violation('SPI byte with CS high');
    if (this.rstLowAt !== null) return this.violation('SPI byte while RST is low');
    if (this.asleep) return this.violation('SPI byte in deep sleep: only a hardware reset wakes the UC8151');
    if (this.busy()) {
      return this.violation(`SPI byte ${hex(b)} (${dc ? 'data' : 'command'}) while BUSY is low, ` +
        `${((this.busyUntil - this.clock.nanos) / MS).toFixed(1)} ms left`);
    }
    if (!dc) {
      this.finishCommand();
      this.begin(b);
    } else if (this.cmd === null) {
      this.violation(`data byte ${hex(b)} without a command`);
    } else if (this.cmd === 0x13) {
      this.ramWrite(b);
    } else if (this.cmd === 0x10) {
      this.violation('DTM1 (old data): no waveform the driver loads reads it');
    } else {
      this.data.push(b);
      if (this.data.length === DATA_LEN.get(this.cmd)) {
        const c = this.cmd;
        this.cmd = null;
        this.apply(c, this.data);
      }
    }
  }

  finishCommand() {
    if (this.cmd !== null && DATA_LEN.get(this.cmd) !== STREAM) {
      this.violation(`command ${hex(this.cmd)} needs ${DATA_LEN.get(this.cmd)} data bytes, got ${this.data.length}`);
    }
    this.cmd = null;
  }

  begin(c) {
    if (!DATA_LEN.has(c)) return this.violation(`unknown UC8151 command ${hex(c)}`);
    this.commands++;
    this.data = [];
    if (c === 0x13) {
      this.dtmPos = 0;
      this.dtmLeft = this.windowBytes();
    }
    if (DATA_LEN.get(c) === 0) this.apply(c, []);
    else this.cmd = c;
  }

  windowBytes() {
    if (!this.partial) return RAM;
    if (this.window === null) {
      this.violation('DTM2 in partial mode with no window set (PTL)');
      return 0;
    }
    const [hrst, hred, vrst, vred] = this.window;
    return ((hred - hrst + 1) / 8) * (vred - vrst + 1);
  }

  apply(c, d) {
    switch (c) {
      case 0x00: this.psr = d[0]; break;
      case 0x50: this.cdi = d[0]; break;
      case 0x30: this.pll = d[0]; break;
      case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: this.luts.set(c, Uint8Array.from(d)); break;
      case 0x04:
        if (!this.power) { this.power = true; this.busyFor(UC8151.POWER_ON_MS); }
        break;
      case 0x02:
        if (this.power) { this.power = false; this.busyFor(UC8151.POWER_OFF_MS); }
        break;
      case 0x07:
        if (d[0] !== 0xa5) return this.violation(`deep sleep without the check code 0xA5 (got ${hex(d[0])}): ignored by the chip`);
        if (this.power) return this.violation('deep sleep with the charge pumps on: power off (POF) first');
        this.asleep = true;
        this.sleeps++;
        this.driveBusy();
        break;
      case 0x91: this.partial = true; break;
      case 0x92: this.partial = false; break;
      case 0x90: {
        const hrst = d[0], hred = d[1], vrst = (d[2] << 8) | d[3], vred = (d[4] << 8) | d[5];
        if (hrst & 7 || (hred & 7) !== 7 || hred < hrst || hred >= SOURCES) {
          return this.violation(`partial window sources ${hrst}..${hred}: must be whole banks of 8 within 0..127`);
        }
        if (vred < vrst || vred >= GATES) return this.violation(`partial window gates ${vrst}..${vred}: outside 0..295`);
        if (!(this.psr & 0x04) && (hrst !== 0 || hred !== SOURCES - 1)) {
          return this.violation('a window on some sources with the source shift reversed: where its banks land is not known');
        }
        this.window = [hrst, hred, vrst, vred];
        break;
      }
      case 0x12: this.refresh(); break;
      default: break; // 0x01, 0x03, 0x06, 0x41, 0x60, 0x61, 0x82: voltages, timing, options; 0x11 ends a transfer
    }
  }

  ramWrite(b) {
    if (this.dtmLeft <= 0) return this.violation(`DTM2: a byte more than the ${this.partial ? 'partial window' : 'RAM'} holds`);
    const p = this.dtmPos;
    if (!this.partial) {
      this.ram[p] = b;
    } else {
      const [hrst, hred, vrst] = this.window;
      const wb = (hred - hrst + 1) / 8;
      this.ram[(vrst + Math.floor(p / wb)) * ROW + hrst / 8 + (p % wb)] = b;
    }
    this.dtmPos++;
    this.dtmLeft--;
  }

  frames() {
    const lut = this.luts.get(0x20);
    let total = 0;
    for (let g = 0; g < 7; g++) {
      const i = g * 6;
      total += (lut[i + 1] + lut[i + 2] + lut[i + 3] + lut[i + 4]) * lut[i + 5];
    }
    return total;
  }

  refresh() {
    if (!this.power) return this.violation('refresh (DRF) with the charge pumps off: PON first');
    if (this.partial && this.window === null) return this.violation('partial refresh with no window set (PTL)');
    if (this.dtmLeft) return this.violation(`refresh after an unfinished DTM2 transfer (${this.dtmLeft} bytes missing)`);
    if ((this.psr & 0xc0) !== 0x80 || !(this.psr & 0x10)) return this.violation(`panel setting ${hex(this.psr)}: not 128 x 296 black/white`);
    let kind, ms, frames = null;
    if (this.psr & 0x20) {
      for (const reg of [0x20, 0x21, 0x22, 0x23, 0x24]) {
        if (!this.luts.has(reg)) return this.violation(`register waveform without LUT ${hex(reg)} loaded since the reset`);
      }
      const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
      if (!same(this.luts.get(0x21), this.luts.get(0x22)) || !same(this.luts.get(0x23), this.luts.get(0x24))) {
        return this.violation('this waveform depends on the old data (DTM1), which is never written');
      }
      if (!PLL_HZ.has(this.pll)) return this.violation(`unknown frame rate (PLL ${hex(this.pll)})`);
      frames = this.frames();
      ms = Math.floor(frames * 1000 / PLL_HZ.get(this.pll));
      kind = this.partial ? 'partial' : 'fast';
    } else {
      ms = UC8151.FULL_MS;
      kind = this.partial ? 'partial-otp' : 'full';
    }
    let window = null, lo = 0, hi = SOURCES - 1, g0 = 0, g1 = GATES - 1;
    if (this.partial) {
      [lo, hi, g0, g1] = this.window;
      window = [g0, g1, lo, hi];
    }
    this.toGlass(g0, g1, lo, hi);
    this.busyFor(ms);
    const update = { kind, t: this.clock.nanos, until: this.busyUntil, ms, frames, window };
    this.updates.push(update);
    this.onUpdate(update);
  }

  // Pimoroni's rotation 0 (gates down, sources right) puts data byte k,
  // bit 7 - j of gate g at landscape (g, 8k + j); PSR 0x08 mirrors x, the
  // absence of 0x04 mirrors y. Data 1 is white when CDI bit 0x10 is set.
  toGlass(g0, g1, lo, hi) {
    const whiteIsOne = (this.cdi & 0x10) ? 1 : 0;
    const up = !!(this.psr & 0x08), right = !!(this.psr & 0x04);
    const g = this.glass;
    for (let gate = g0; gate <= g1; gate++) {
      const x = up ? GATES - 1 - gate : gate;
      const obyte = x >> 3, obit = 0x80 >> (x & 7), row = gate * ROW;
      for (let s = lo; s <= hi; s++) {
        const one = (this.ram[row + (s >> 3)] >> (7 - (s & 7))) & 1;
        const y = right ? s : SOURCES - 1 - s;
        const i = y * LANDSCAPE_ROW + obyte;
        if (one !== whiteIsOne) g[i] |= obit;
        else g[i] &= 0xff ^ obit;
      }
    }
  }

  // What the glass shows as a 296 x 128 MONO_HLSB frame, 1 = black.
  landscape() { return Uint8Array.from(this.glass); }

  summary() {
    const count = (k) => this.updates.filter((u) => u.kind === k).length;
    return { full: count('full'), fast: count('fast'), partial: count('partial'), commands: this.commands,
      resets: this.resets, sleeps: this.sleeps, asleep: this.asleep, busy: this.busy(),
      violations: this.violations.length };
  }
}
