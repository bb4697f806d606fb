// The Waveshare Pico-ePaper-2.9 panel: an SSD1680 controller (128 sources x
// 296 gates, "V2": no display-mode-2 waveform in OTP) on an SPI bus with DC,
// CS, RST and BUSY lines. The same model, and the same strict checks, as
// tests/fakes/ssd1680_panel.py (its docstring describes the controller);
// here a check that fails is recorded in `violations` (with the emulated
// time) and the byte is dropped, since the firmware cannot be stopped
// mid-instruction the way the fake raises.
//
// BUSY (1 = busy) is driven on the emulated clock: RESET_MS after a
// hardware reset, SWRESET_MS after 0x12, and on 0x20 the power-on time plus
// FULL_MS (display mode 1, the OTP waveform, not visible) or the loaded
// waveform's duration (mode 2: lutMs(), from its frame counts). Each update is reported to
// `onUpdate({kind, t, until, ram, ready})`: when 0x20 started it and when BUSY falls; when the frame's
// first RAM write began, and when the analog power-on before it ended (null if none: the panel's wait
// the firmware works through, design §6). The image is read back from what the glass shows
// (RAM 0x24 at a full update; the changed pixels at a fast one).
const SOURCES = 128, GATES = 296, ROW = SOURCES / 8, RAM = ROW * GATES;
const MS = 1e6; // ns
const DATA_LEN = new Map([
  [0x01, 3], [0x03, 1], [0x04, 3], [0x10, 1], [0x11, 1], [0x12, 0], [0x18, 1], [0x20, 0], [0x21, 2],
  [0x22, 1], [0x24, null], [0x26, null], [0x2c, 1], [0x32, 153], [0x37, 10], [0x3c, 1], [0x3f, 1],
  [0x44, 2], [0x45, 4], [0x4e, 1], [0x4f, 2],
]);

// The 0x32 waveform (153 bytes, as Waveshare's WF_PARTIAL_2IN9 and GxEPD2's lut_partial lay it
// out): VS, 5 LUTs x 12 groups of levels (60 bytes); 12 groups of 7 timing bytes TPA TPB SRAB
// TPC TPD SRCD RP: a group runs (TPA+TPB)*(SRAB+1) + (TPC+TPD)*(SRCD+1) frames, RP+1 times
// (repeat counts as the SSD16xx LUT docs give them: "RP[n] = 0 indicates run time = 1"); then 6
// FR bytes, one frame-rate nibble per group (high nibble the even group); then XON (3 bytes).
const LUT_TIMING = 60, LUT_FR = LUT_TIMING + 12 * 7;
// Frame time per FR nibble, in µs. Only the rate the loaded waveforms use is known: FR 2, from
// GxEPD2's measurement on this panel of its lut_partial (FR 0x22; 32 frames: group 0 TPA 10
// with RP 2, groups 1-2 a frame each) run with 0x22 0xCC (no power on or off in it):
// partial_refresh_time "e.g. 736721us" -> 23.0 ms a frame (43 Hz).
const FRAME_US = new Map([[2, 736721 / 32]]);

function lutFrames(lut) {
  const frames = new Map(); // FR nibble -> frames run at it
  for (let g = 0; g < 12; g++) {
    const [tpa, tpb, srab, tpc, tpd, srcd, rp] = lut.slice(LUT_TIMING + g * 7, LUT_TIMING + g * 7 + 7);
    const n = ((tpa + tpb) * (srab + 1) + (tpc + tpd) * (srcd + 1)) * (rp + 1);
    if (!n) continue;
    const fr = (lut[LUT_FR + (g >> 1)] >> (g & 1 ? 0 : 4)) & 0x0f;
    frames.set(fr, (frames.get(fr) || 0) + n);
  }
  return frames;
}

// A loaded waveform's duration in ms, or null when it runs at a frame rate not known here.
export function lutMs(lut) {
  let us = 0;
  for (const [fr, n] of lutFrames(lut)) {
    if (!FRAME_US.has(fr)) return null;
    us += n * FRAME_US.get(fr);
  }
  return Math.round(us) / 1000;
}

export const WIDTH = GATES, HEIGHT = SOURCES;

export class SSD1680 {
  // GxEPD2's GxEPD2_290_T94_V2 (this panel, "Waveshare variant without partial wft in OTP"),
  // BUSY times measured by its author: full_refresh_time "e.g. 4011934us" (0x22 0xF7: the OTP
  // waveform with its power on and off), power_on_time "e.g. 95868us" (0x22 0xE0).
  static FULL_MS = 4012;
  static POWER_ON_MS = 96;
  static MAX_SPI_HZ = 20e6; // the fastest serial clock for writes (a cycle of at least 50 ns)
  static RESET_MS = 3;
  static SWRESET_MS = 5;

  // pins: {spi, cs, dc, rst, busy} as in firmware/boards/pico_epaper29.py
  constructor(mcu, clock, pins, { onUpdate = () => {}, onViolation = () => {} } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.pins = pins;
    this.onUpdate = onUpdate;
    this.onViolation = onViolation;
    this.ram = { 0x24: new Uint8Array(RAM).fill(0xaa), 0x26: new Uint8Array(RAM).fill(0x55) };
    this.glass = new Uint8Array(RAM).fill(0xff);
    this.busyUntil = 0;
    this.refreshUntil = 0; // BUSY of the last refresh (0x20) ends then
    this.asleep = false;
    this.inReset = false;
    this.updates = []; // {kind: 'full' | 'fast', t: ns, until: ns}
    this.commands = 0;
    this.resets = 0;
    this.sleeps = 0;
    this.violations = []; // {t: ns, msg}
    this.cmd = null;
    this.data = [];
    this.ramAt = null; // the first RAM write (0x24/0x26) since the last update, ns
    this.readyAt = null; // when the last analog power-on's BUSY fell, ns
    this.defaults();
    this.wire();
  }

  defaults() {
    this.entry = 0x03;
    this.xs = 0; this.xe = ROW - 1;
    this.ys = 0; this.ye = GATES - 1;
    this.xc = 0; this.yc = 0;
    this.seq = 0xff;
    this.lut = null;
    this.clockOn = false;
    this.analogOn = false;
    this.pingpong = false;
  }

  wire() {
    const { mcu, clock, pins } = this;
    const gpio = mcu.gpio;
    this.busyPin = gpio[pins.busy];
    this.busyAlarm = clock.createAlarm(() => this.busyPin.setInputValue(false));
    this.busyPin.setInputValue(false);
    let rst = gpio[pins.rst].outputValue;
    gpio[pins.rst].addListener(() => {
      const level = gpio[pins.rst].outputValue;
      if (level !== rst) this.rstWritten(level);
      rst = level;
    });
    const spi = mcu.spi[pins.spi];
    // The byte completes one byte-time later on the emulated clock:
    // completing it inside onTransmit stalls MicroPython's DMA writes.
    const done = clock.createAlarm(() => spi.completeTransmit(0xff)); // MISO idles high
    spi.onTransmit = (value) => {
      if (spi.clockFrequency > SSD1680.MAX_SPI_HZ) {
        this.violation(`SPI clock ${(spi.clockFrequency / 1e6).toFixed(1)} MHz, over the SSD1680's ` +
          `${SSD1680.MAX_SPI_HZ / 1e6} MHz for writes`);
      }
      this.byte(value, gpio[pins.dc].outputValue ? 1 : 0, gpio[pins.cs].outputValue ? 1 : 0);
      done.schedule(Math.max(1, Math.round(8e9 / (spi.clockFrequency || 4e6))));
    };
  }

  busy() { return this.clock.nanos < this.busyUntil; }

  busyFor(ms) {
    this.busyUntil = this.clock.nanos + ms * MS;
    this.busyPin.setInputValue(true);
    this.busyAlarm.schedule(ms * MS);
  }

  violation(msg) {
    const v = { t: this.clock.nanos, msg };
    this.violations.push(v);
    this.onViolation(v);
  }

  rstWritten(level) {
    if (!level) {
      // BUSY of a refresh, not of a reset: a second reset pulse while the first's BUSY
      // is high only restarts the controller (Adafruit's adafruit_ssd1680 pulses RST
      // to probe for the pin, then CircuitPython's EPaperDisplay pulses it again)
      if (this.clock.nanos < this.refreshUntil) this.violation('hardware reset during a refresh (BUSY high)');
      this.inReset = true;
    } else if (this.inReset) {
      this.inReset = false;
      this.finishCommand();
      this.cmd = null;
      this.asleep = false;
      this.resets++;
      this.defaults();
      this.busyFor(SSD1680.RESET_MS);
    }
  }

  byte(b, dc, cs) {
    if (cs) return this.violation('SPI byte with CS high');
    if (this.inReset) return this.violation('SPI byte while RST is low');
    if (this.asleep) return this.violation('SPI byte in deep sleep: only a hardware reset wakes the SSD1680');
    if (this.busy()) {
      return this.violation(`SPI byte 0x${b.toString(16)} (${dc ? 'data' : 'command'}) while BUSY is high, ` +
        `${((this.busyUntil - this.clock.nanos) / MS).toFixed(1)} ms left`);
    }
    if (!dc) {
      this.finishCommand();
      this.begin(b);
    } else if (this.cmd === null) {
      this.violation(`data byte 0x${b.toString(16)} without a command`);
    } else if (this.cmd === 0x24 || this.cmd === 0x26) {
      this.ramWrite(b);
    } else {
      this.data.push(b);
      const n = DATA_LEN.get(this.cmd);
      if (this.data.length === n) {
        this.apply(this.cmd, this.data);
        this.cmd = null;
      }
    }
  }

  finishCommand() {
    if (this.cmd !== null && this.cmd !== 0x24 && this.cmd !== 0x26) {
      this.violation(`command 0x${this.cmd.toString(16)} needs ${DATA_LEN.get(this.cmd)} data bytes, got ${this.data.length}`);
    }
    this.cmd = null;
  }

  begin(c) {
    if (!DATA_LEN.has(c)) return this.violation(`unknown SSD1680 command 0x${c.toString(16)}`);
    this.commands++;
    this.data = [];
    if ((c === 0x24 || c === 0x26) && this.ramAt === null) this.ramAt = this.clock.nanos;
    if (DATA_LEN.get(c) === 0) this.apply(c, []);
    else this.cmd = c;
  }

  apply(c, d) {
    switch (c) {
      case 0x01: {
        const gates = (d[0] | (d[1] << 8)) + 1;
        if (gates !== GATES) this.violation(`driver output control: ${gates} gates, the panel has ${GATES}`);
        break;
      }
      case 0x11: this.entry = d[0] & 0x07; break;
      case 0x44: this.xs = d[0] & 0x3f; this.xe = d[1] & 0x3f; break;
      case 0x45: this.ys = d[0] | (d[1] << 8); this.ye = d[2] | (d[3] << 8); break;
      case 0x4e: this.xc = d[0] & 0x3f; break;
      case 0x4f: this.yc = d[0] | (d[1] << 8); break;
      case 0x22: this.seq = d[0]; break;
      case 0x20: this.activate(); break;
      case 0x12: this.defaults(); this.busyFor(SSD1680.SWRESET_MS); break;
      case 0x10:
        if (d[0] & 0x03) {
          this.asleep = true;
          this.sleeps++;
          if ((d[0] & 0x03) === 0x03) { this.ram[0x24].fill(0); this.ram[0x26].fill(0); } // mode 2 loses RAM
        }
        break;
      case 0x32: this.lut = Uint8Array.from(d); break;
      case 0x37: this.pingpong = !!(d[5] & 0x40); break;
      default: break; // 0x03, 0x04, 0x18, 0x21, 0x2C, 0x3C, 0x3F: voltages and options
    }
  }

  ramWrite(b) {
    const loX = Math.min(this.xs, this.xe), hiX = Math.max(this.xs, this.xe);
    const loY = Math.min(this.ys, this.ye), hiY = Math.max(this.ys, this.ye);
    if (!(loX <= this.xc && this.xc <= hiX && loY <= this.yc && this.yc <= hiY && this.xc < ROW && this.yc < GATES)) {
      return this.violation(`RAM write at X byte ${this.xc}, gate ${this.yc}: outside the window`);
    }
    this.ram[this.cmd][this.yc * ROW + this.xc] = b;
    const xStep = this.entry & 0x01 ? 1 : -1, yStep = this.entry & 0x02 ? 1 : -1;
    if (this.entry & 0x04) { // Y counter first
      this.yc += yStep;
      if (this.yc > hiY || this.yc < loY) {
        this.yc = this.ys;
        this.xc += xStep;
        if (this.xc > hiX || this.xc < loX) this.xc = this.xs;
      }
    } else {
      this.xc += xStep;
      if (this.xc > hiX || this.xc < loX) {
        this.xc = this.xs;
        this.yc += yStep;
        if (this.yc > hiY || this.yc < loY) this.yc = this.ys;
      }
    }
  }

  activate() {
    const s = this.seq;
    let ms = 0, otpLoaded = false;
    if (s & 0x80) this.clockOn = true;
    if (s & 0x40) {
      if (!this.clockOn) return this.violation('analog on without the clock');
      if (!this.analogOn) ms += SSD1680.POWER_ON_MS;
      this.analogOn = true;
    }
    if (s & 0x10) {
      if (s & 0x08) return this.violation('this panel has no display-mode-2 waveform in OTP: load one with 0x32');
      otpLoaded = true;
    }
    if (s & 0x04) {
      if (!(this.clockOn && this.analogOn)) return this.violation(`display step without clock and analog power (0x22 0x${s.toString(16)})`);
      const fresh = this.ram[0x24];
      let kind;
      if (s & 0x08) {
        if (this.lut === null) return this.violation('display mode 2 with no waveform loaded (0x32) since the last reset');
        const wave = lutMs(this.lut);
        if (wave === null) return this.violation('the loaded waveform runs at a frame rate (FR) not modelled');
        const old = this.ram[0x26], g = this.glass;
        for (let i = 0; i < RAM; i++) {
          const changed = fresh[i] ^ old[i];
          if (changed) g[i] = (g[i] & (0xff ^ changed)) | (fresh[i] & changed);
        }
        if (this.pingpong) old.set(fresh);
        kind = 'fast';
        ms += wave;
      } else {
        if (!otpLoaded && this.lut === null) return this.violation('display mode 1 with no waveform: set 0x10 (load LUT) in 0x22');
        this.glass.set(fresh);
        kind = 'full';
        ms += SSD1680.FULL_MS;
      }
      if (s & 0x02) this.analogOn = false;
      if (s & 0x01) this.clockOn = false;
      this.busyFor(ms);
      this.refreshUntil = this.busyUntil;
      const update = { kind, t: this.clock.nanos, until: this.busyUntil, ram: this.ramAt, ready: this.readyAt };
      this.ramAt = this.readyAt = null;
      this.updates.push(update);
      this.onUpdate(update);
      return;
    }
    if (s & 0x02) this.analogOn = false;
    if (s & 0x01) this.clockOn = false;
    if (ms) this.busyFor(ms);
    if (s & 0x40 && ms) this.readyAt = this.busyUntil; // powered on, ready for the update
  }

  // What the glass shows as a 296 x 128 MONO_HLSB frame, 1 = black (the
  // renderer's format). Landscape pixel (x, y) is gate x, source 127 - y.
  landscape() {
    const out = new Uint8Array(GATES * SOURCES / 8);
    const g = this.glass;
    for (let x = 0; x < GATES; x++) {
      const row = x * ROW, obyte = x >> 3, obit = 0x80 >> (x & 7);
      for (let y = 0; y < SOURCES; y++) {
        const src = SOURCES - 1 - y;
        if (!((g[row + (src >> 3)] >> (7 - (src & 7))) & 1)) out[y * (GATES / 8) + obyte] |= obit;
      }
    }
    return out;
  }

  summary() {
    const count = (k) => this.updates.filter((u) => u.kind === k).length;
    return { full: count('full'), fast: count('fast'), commands: this.commands, resets: this.resets,
      sleeps: this.sleeps, asleep: this.asleep, busy: this.busy(), violations: this.violations.length };
  }
}
