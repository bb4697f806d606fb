// The RP2040's DORMANT state, which rp2040js 1.4.1 does not model: its
// crystal oscillator (XOSC) takes the "dormant" word and reports STABLE at
// once, the chip runs on, and the GPIO dormant-wake registers do not exist.
//
// RP2040 datasheet: 2.11.5.2 (DORMANT: the oscillators stop; a GPIO event
// enabled in IO_BANK0's DORMANT_WAKE_INTE or the RTC restarts them), 2.16
// (XOSC: DORMANT register, "coma" stops the crystal; a start waits out
// STARTUP.DELAY x 256 crystal periods, x4 with STARTUP.X4, before STATUS.STABLE;
// COUNT counts down at the crystal's rate), 2.19.6.1 (IO_BANK0:
// DORMANT_WAKE_INTE0-3 at 0x160, _INTF0-3 at 0x170, _INTS0-3 at 0x180, four
// bits a GPIO: level low, level high, edge low, edge high; INTS = the raw
// INTR & INTE | INTF).
//
// What stops with the crystal: when clk_sys comes from it (directly, through
// clk_ref, or through a PLL), the core halts from the write of "coma" until
// the crystal is STABLE again, and every clock of the chip with it: the
// TIMER (time_us_64 and its alarms), the watchdog, SysTick, the PWM counters
// and the RTC (clocked from the crystal too in MicroPython's lightsleep) do
// not count the halted time. What goes on outside the chip (the panel's
// BUSY, the buttons, the USB host) keeps the emulated clock. While halted no
// code runs, and emulated time follows the wall clock (nothing to emulate,
// so nothing to run ahead of), until an alarm outside the chip or a wake.
//
// Not modelled: the ring oscillator's own DORMANT register (MicroPython's
// lightsleep disables the ROSC and puts only the XOSC to sleep), a clk_sys
// run from the ROSC while the XOSC sleeps (it runs on; only the crystal
// stops), PLL lock time, and peripheral transfers in flight at the halt
// (SPI, UART, ADC: they finish on the outside clock).
import { BasePeripheral } from 'rp2040js';

const CTRL = 0x00, STATUS = 0x04, DORMANT = 0x08, STARTUP = 0x0c, COUNT = 0x1c;
const ENABLE = 0xfab, DISABLE = 0xd1e;
const STABLE = 1 << 31, BADWRITE = 1 << 24, ENABLED = 1 << 12;
const COMA = 0x636f6d61, WAKE = 0x77616b65;
const X4 = 1 << 20, DELAY_BITS = 0x3fff;
const WAKE_INTE = 0x160, WAKE_INTF = 0x170, WAKE_INTS = 0x180, WAKE_END = 0x190;
const HALT_POLL_MS = 2; // wall ms between looks at the clock while halted

// The crystal oscillator.
class XOSC extends BasePeripheral {
  constructor(mcu, clock, chip) {
    super(mcu, 'XOSC_BASE');
    this.clock = clock;
    this.chip = chip;
    this.ctrl = 0;
    this.badwrite = false;
    this.startup = 0xc4; // the reset value: ~50,000 cycles
    this.dormant = WAKE;
    this.enabled = false;
    this.stable = false;
    this.countFrom = 0;
    this.countAt = 0;
    this.starting = clock.createAlarm(() => { this.stable = true; chip.crystalStable(); });
  }

  get startupNanos() {
    const cycles = (this.startup & DELAY_BITS) * 256 * (this.startup & X4 ? 4 : 1);
    return (cycles * 1e9) / this.rp2040.xoscFreq;
  }

  get running() { return this.enabled && this.dormant !== COMA; }

  start() {
    this.stable = false;
    this.starting.schedule(this.startupNanos);
  }

  stop() {
    this.stable = false;
    this.starting.cancel();
  }

  readUint32(offset) {
    switch (offset) {
      case CTRL: return this.ctrl;
      case STATUS:
        return (this.stable ? STABLE : 0) | (this.badwrite ? BADWRITE : 0) | (this.enabled ? ENABLED : 0) |
          (this.ctrl & 3);
      case DORMANT: return this.dormant;
      case STARTUP: return this.startup;
      case COUNT: {
        const gone = Math.floor(((this.clock.nanos - this.countAt) * this.rp2040.xoscFreq) / 1e9);
        return this.running ? Math.max(0, this.countFrom - gone) : this.countFrom;
      }
    }
    return super.readUint32(offset);
  }

  writeUint32(offset, value) {
    switch (offset) {
      case CTRL: {
        this.ctrl = value & 0xffffff;
        const enable = (value >>> 12) & 0xfff;
        if (enable === ENABLE && !this.enabled) {
          this.enabled = true;
          if (this.dormant !== COMA) this.start();
        } else if (enable === DISABLE) {
          this.enabled = false;
          this.stop();
        } else if (enable !== 0 && enable !== ENABLE) {
          this.badwrite = true;
        }
        break;
      }
      case STATUS:
        if (value & BADWRITE) this.badwrite = false;
        break;
      case DORMANT:
        if (value === COMA) {
          if (this.dormant !== COMA) {
            this.dormant = COMA;
            this.stop();
            this.chip.crystalStopped();
          }
        } else {
          if (value !== WAKE) this.badwrite = true; // an invalid word selects WAKE
          this.wake();
        }
        break;
      case STARTUP:
        this.startup = value & (X4 | DELAY_BITS);
        break;
      case COUNT:
        this.countFrom = value & 0xff;
        this.countAt = this.clock.nanos;
        break;
      default:
        super.writeUint32(offset, value);
    }
  }

  // A dormant-wake event (or WAKE written): the crystal starts again.
  wake() {
    if (this.dormant === COMA) {
      this.dormant = WAKE;
      if (this.enabled) this.start();
    }
  }
}

// Is clk_sys made from the crystal now? (CLOCKS registers, datasheet 2.15.7:
// CLK_SYS_CTRL.SRC 0 = clk_ref, 1 = AUXSRC: 0 pll_sys, 1 pll_usb, 2 rosc,
// 3 xosc, 4-5 gpin; CLK_REF_CTRL.SRC 0 = rosc, 1 = AUXSRC (0 pll_usb, 1-2
// gpin), 2 = xosc.)
function sysFromCrystal(clocks) {
  if (clocks.sysCtrl & 1) {
    const aux = (clocks.sysCtrl >>> 5) & 7;
    return aux === 0 || aux === 1 || aux === 3;
  }
  const src = clocks.refCtrl & 3;
  return src === 2 || (src === 1 && ((clocks.refCtrl >>> 5) & 3) === 0);
}

export class Dormancy {
  // onEnter({t}): the chip halted; onWake({t, edge, gpios}): it runs again
  // at t, woken at edge by those GPIOs' enabled events.
  constructor(mcu, clock, { onEnter = () => {}, onWake = () => {} } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.onEnter = onEnter;
    this.onWake = onWake;
    this.halted = false;
    this.entries = 0;
    this.wakes = 0;
    this.nanos = 0; // emulated time spent halted, all entries
    this.haltedAt = 0;
    this.wokeAt = null;
    this.wokeBy = [];
    this.lost = 0; // chip time not counted: the sum of the halts
    this.inte = new Uint8Array(30);
    this.intf = new Uint8Array(30);
    // Times clk_sys dropped to the crystal alone, as MicroPython's
    // lightsleep() does for its timed slices and for DORMANT alike.
    this.lightsleeps = 0;
    mcu.addClockListener((freq, old) => { if (freq === mcu.xoscFreq && old !== freq) this.lightsleeps++; });
    this.xosc = new XOSC(mcu, clock, this);
    mcu.peripherals[0x40024] = this.xosc;
    this.wireIO();
    this.wireTimer();
  }

  summary() {
    const now = this.halted ? this.clock.nanos - this.haltedAt : 0;
    return { dormant: this.halted, entries: this.entries, wakes: this.wakes, ns: this.nanos + now,
      lightsleeps: this.lightsleeps };
  }

  // IO_BANK0's dormant-wake registers, beside rp2040js's model of the rest;
  // every input change of a GPIO is looked at while the crystal sleeps.
  wireIO() {
    const io = this.mcu.peripherals[0x40014];
    const read = io.readUint32.bind(io), write = io.writeUint32.bind(io);
    io.readUint32 = (offset) => (offset >= WAKE_INTE && offset < WAKE_END ? this.readWake(offset) : read(offset));
    io.writeUint32 = (offset, value) => {
      if (offset >= WAKE_INTE && offset < WAKE_INTS) {
        const regs = offset < WAKE_INTF ? this.inte : this.intf;
        const first = ((offset & 0xf) >> 2) * 8;
        for (let i = 0; i < 8 && first + i < 30; i++) regs[first + i] = (value >>> (4 * i)) & 0xf;
        this.check();
      } else if (offset < WAKE_INTE || offset >= WAKE_END) {
        write(offset, value);
      }
    };
    for (const pin of this.mcu.gpio) {
      const set = pin.setInputValue.bind(pin);
      pin.setInputValue = (value) => { set(value); if (this.xosc.dormant === COMA) this.check(); };
    }
  }

  readWake(offset) {
    const kind = offset & ~0xf, first = ((offset & 0xf) >> 2) * 8;
    let out = 0;
    for (let i = 7; i >= 0; i--) {
      const g = first + i;
      out <<= 4;
      if (g >= 30) continue;
      if (kind === WAKE_INTE) out |= this.inte[g];
      else if (kind === WAKE_INTF) out |= this.intf[g];
      else out |= this.status(g);
    }
    return out >>> 0;
  }

  status(g) {
    return (this.mcu.gpio[g].irqStatus & this.inte[g]) | this.intf[g];
  }

  // A GPIO event enabled for the dormant wake starts the sleeping crystal.
  check() {
    if (this.xosc.dormant !== COMA) return;
    const gpios = [];
    for (let g = 0; g < 30; g++) if (this.status(g)) gpios.push(g);
    if (!gpios.length) return;
    this.wokeAt = this.clock.nanos;
    this.wokeBy = gpios;
    this.xosc.wake();
  }

  crystalStopped() {
    if (!sysFromCrystal(this.mcu.clocks)) return; // the core runs on the ROSC
    this.halted = true;
    this.haltedAt = this.clock.nanos;
    this.wokeAt = null;
    this.entries++;
    this.freeze();
    this.onEnter({ t: this.haltedAt });
    this.check(); // an event already latched: it wakes at once
  }

  crystalStable() {
    if (!this.halted) return;
    const gone = this.clock.nanos - this.haltedAt;
    this.halted = false;
    this.nanos += gone;
    this.lost += gone;
    this.wakes++;
    this.thaw(gone);
    this.onWake({ t: this.clock.nanos, edge: this.wokeAt, gpios: this.wokeBy });
  }

  // The TIMER reads the chip's time: the emulated clock less the halts.
  wireTimer() {
    const clock = this.clock, self = this;
    this.timer = this.mcu.peripherals[0x40054];
    this.timer.clock = { get nanos() { return clock.nanos - self.lost - (self.halted ? clock.nanos - self.haltedAt : 0); } };
  }

  freeze() {
    const { mcu } = this;
    this.timerLeft = this.timer.alarms.map((a) => (a.armed ? Math.max(0, a.clockAlarm.nanos - this.clock.nanos) : null));
    for (const a of this.timer.alarms) if (a.armed) a.clockAlarm.cancel();
    this.counters = [mcu.peripherals[0x40058].timer, mcu.ppb.systickTimer, ...mcu.pwm.channels.map((c) => c.timer)];
    this.running = this.counters.map((t) => t.enable);
    for (const t of this.counters) t.enable = false;
  }

  thaw(gone) {
    this.timer.alarms.forEach((a, i) => { if (a.armed && this.timerLeft[i] !== null) a.clockAlarm.schedule(this.timerLeft[i]); });
    this.counters.forEach((t, i) => { if (this.running[i]) t.enable = true; });
    this.mcu.peripherals[0x4005c].baselineNanos += gone; // the RTC
  }
}

// rp2040js's Simulator.execute() with a chip that can halt, and with each
// instruction timed at the clk_sys the firmware set (12 MHz while
// MicroPython's lightsleep runs from the crystal, 125 MHz after).
//
// A time-lapse (sim.lapse = {until, step, onEnd}, op lapse): until emulated
// time `until`, each wait of the core (WFI, WFE) lasts `step` of emulated
// time instead of ending at its first wake-up. Alarms still fire on time
// through it (the TIMER, the USB host's frames, the watchdog count on), and
// the interrupts they raise are taken when it ends. An idle firmware then
// runs a pass of its loop a step instead of one a wake-up: minutes of an
// idle board for seconds of emulation, for what it does by the clock (the
// panel's clean refresh after idle, tests/emu/test_refresh_idle.py). A step
// shorter than the watchdog's timeout keeps a fed watchdog fed. onEnd(t)
// is called at the first wait at or after `until`.
export function runChip(sim, dormancy) {
  const mcu = sim.rp2040, clock = sim.clock;
  sim.lapse = null;
  let wallBase = null, nanosBase = 0;
  sim.execute = function execute() {
    this.executeTimer = null;
    this.stopped = false;
    for (let i = 0; i < 1000000 && !this.stopped; i++) {
      if (dormancy.halted) {
        if (wallBase === null) { wallBase = performance.now(); nanosBase = clock.nanos; }
        const target = nanosBase + (performance.now() - wallBase) * 1e6;
        while (dormancy.halted && clock.nanos < target) {
          const next = clock.nextAlarm ? clock.nextAlarm.nanos : Infinity;
          clock.tick(Math.min(next, target) - clock.nanos);
        }
        if (dormancy.halted) {
          this.executeTimer = setTimeout(() => this.execute(), HALT_POLL_MS);
          return;
        }
        wallBase = null;
      }
      const cycleNanos = 1e9 / mcu.clkSys;
      const core = mcu.core;
      if (core.waiting && (core.pendingInterrupts & core.enabledInterrupts || core.pendingSystick || core.pendingPendSV)) {
        // WFI with an interrupt already pending returns at once on the chip,
        // PRIMASK set or not (ARMv6-M B1.5.19). rp2040js leaves WFI only when
        // an interrupt is newly raised, so one that came between a firmware's
        // "interrupts off, nothing to do?" and its WFI (CircuitPython's idle
        // loop: its tick alarm) left the core asleep until the next USB frame
        // or press, minutes of emulated time later.
        core.waiting = false;
        core.interruptsUpdated = true;
      }
      if (core.waiting) {
        let next = clock.nanosToNextAlarm;
        const lapse = this.lapse;
        if (lapse) {
          if (clock.nanos >= lapse.until) { this.lapse = null; lapse.onEnd(clock.nanos); }
          else next = Math.max(next, Math.min(lapse.step, lapse.until - clock.nanos));
        }
        clock.tick(next);
        i += next / cycleNanos;
      } else {
        clock.tick(mcu.core.executeInstruction() * cycleNanos);
      }
    }
    // setTimeout(0) waits a wall millisecond (Node's clamp), which paces an
    // idle core (a batch of WFI skips is ~8 emulated ms) to about half a CPU.
    // Kept: setImmediate ran idle boards flat out, and with the test workers
    // sharing 2 cores the emulated tests took longer (4:55 -> 5:19 wall,
    // 2026-11-28), the CPU going into emulated time nobody waited for.
    if (!this.stopped) this.executeTimer = setTimeout(() => this.execute(), 0);
  };
}
