// The emulated Pico: MicroPython's rp2 image in rp2040js with a writable
// flash, a panel, buttons and USB CDC. Run by host_tools/sim/emulated.py:
//
//   node main.mjs CONFIG_JSON
//
// CONFIG_JSON: {bootrom, image (UF2), romfs (file), romfsOffset, fs (the
// littlefs backing file), fsOffset, cdcFd (a stream socket), panel: {kind,
// spi, cs, dc, rst, busy}, buttons: {NAME: gpio}, pressed (the level a
// pressed button reads), latch (the power latch's gpio) or null, battery:
// {gpio, divider, volts[, vref, vrefVolts]} or null, wake: {button, ms} (a
// button held from power-on for ms) or null, vbus (the VBUS-sense gpio) or
// null, consoleFd (CircuitPython's console port's socket: its boot.py
// enables two CDC ports, the link is the second; cdc.mjs) or null,
// resetCause: "power-on" (the default) or "rescue" (reset.mjs)}.
//
// The QSPI chip select reads high while nothing drives it: the Pico's
// BOOTSEL button is open and a pull-up holds the line (the flash chip's
// CS). CircuitPython's port_boot_button_pressed() floats it and reads it
// (SIO GPIO_HI_IN bit 1); rp2040js read 0, "held", and CircuitPython waited
// forever for its release.
//
// The control channel is line-delimited JSON: requests on stdin
// ({"id": n, "op": ...}), answers ({"id": n, ...}) and events ({"ev": ...})
// on stdout; messages for people on stderr. Ops: time, press / release
// {button}, tap {button, ms}, panel (the image, base64 MONO_HLSB, and the
// panel's counters), flash (counters; log: true also takes the
// operations logged since the last call), cut_after {ops} (cut the power
// right after that many more flash operations), cut (now), lapse {ns, step}
// (the next ns of emulated time as a time-lapse: each wait of the core
// lasts step ns; dormant.mjs), host {state: suspended | unplugged |
// attached} (the USB host stops sending frames, is unplugged, or comes
// back; host_tools/sim/emu/usbhost.mjs), chip (the sleep counters:
// {dormant: {dormant, entries, wakes, ns, lightsleeps}, usb: the host's and
// the link's state, transfers held, host bytes dropped}), quit.
// Events: cdc (the port is up), update {kind, t, until (BUSY falls)}, violation {t, msg},
// power_cut {t, ops}, latch {t, level} (the level driven on the power latch:
// 0, 1, or null while not an output), dormant {t} (the chip halted, its
// crystal stopped), wake {t, edge, gpios} (it runs again at t, woken at
// edge by those GPIOs' events; host_tools/sim/emu/dormant.mjs), usb {t, host,
// link} (the host's state or its link with the device changed), lapsed {t}
// (a lapse ended). Times are emulated nanoseconds since power-on.
import readline from 'readline';
import { Simulator, ConsoleLogger, LogLevel } from 'rp2040js';
import fs from 'fs';
import { loadBootrom, loadUF2, loadPartition } from './uf2.mjs';
import { FlashChip } from './flash.mjs';
import { Buttons, senseBattery, watchLatch } from './buttons.mjs';
import { CDCBridge } from './cdc.mjs';
import { Dormancy, runChip } from './dormant.mjs';
import { UsbHost } from './usbhost.mjs';
import { watchReset, reportResetCause } from './reset.mjs';
import { PANELS } from './panels.mjs';

const config = JSON.parse(process.argv[2]);
const sim = new Simulator();
const mcu = sim.rp2040;
const clock = sim.clock;
mcu.logger = new ConsoleLogger(LogLevel.Error);

function emit(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

const dormancy = new Dormancy(mcu, clock, {
  onEnter: (e) => emit({ ev: 'dormant', ...e }),
  onWake: (e) => emit({ ev: 'wake', ...e }),
});
runChip(sim, dormancy);

Object.defineProperty(mcu.qspi[1], 'inputValue', { get: () => true }); // BOOTSEL open, CS pulled up
loadBootrom(mcu, config.bootrom);
loadUF2(mcu, config.image);
// romfs null: the stock MicroPython image, which has no ROMFS partition.
if (config.romfs) loadPartition(mcu, fs.readFileSync(config.romfs), config.romfsOffset, config.fsOffset, 'the ROMFS image');
let poweredOff = false;
function powerOff() {
  poweredOff = true;
  sim.stop();
  emit({ ev: 'power_cut', t: clock.nanos, ops: flash.ops });
}
const flash = new FlashChip(mcu, clock, {
  backingPath: config.fs, backingOffset: config.fsOffset, onPowerCut: powerOff,
  romfsPath: config.romfs || null, romfsOffset: config.romfsOffset, romfsEnd: config.fsOffset,
  timing: Boolean(config.flashTiming),
});
flash.loadBacking();

const Panel = PANELS[config.panel.kind];
if (!Panel) throw new Error(`no model of a ${config.panel.kind} panel (known: ${Object.keys(PANELS).join(', ')})`);
const panel = new Panel(mcu, clock, config.panel, {
  onUpdate: (u) => emit({ ev: 'update', ...u }),
  onViolation: (v) => emit({ ev: 'violation', ...v }),
});
const buttons = new Buttons(mcu, clock, config.buttons, { pressed: config.pressed ?? 0 });
// A button pressed at power-on and let go `ms` later: the press that powers a
// switched-off Badger up (its firmware must act on it).
if (config.wake) buttons.tap(config.wake.button, config.wake.ms);
if (config.latch != null) watchLatch(mcu, clock, config.latch, (l) => emit({ ev: 'latch', ...l }));
if (config.battery) senseBattery(mcu, config.battery);
const cdc = new CDCBridge(mcu, clock, config.cdcFd, { onConnected: (t) => emit({ ev: 'cdc', t }),
  consoleFd: config.consoleFd ?? null });
const host = new UsbHost(mcu, clock, cdc, dormancy, { vbus: config.vbus ?? null, onChange: (e) => emit({ ev: 'usb', ...e }) });
reportResetCause(mcu, config.resetCause ?? 'power-on');
// Event reset {t}: a watchdog reset (machine.reset()); the board starts again.
watchReset(mcu, clock, (t) => { host.held.clear(); cdc.reset(); emit({ ev: 'reset', t }); });

const OPS = {
  time: () => ({}),
  press: (r) => { buttons.press(r.button); return {}; },
  release: (r) => { buttons.release(r.button); return {}; },
  tap: (r) => { buttons.tap(r.button, r.ms ?? 120); return {}; },
  panel: () => ({ image: Buffer.from(panel.landscape()).toString('base64'), ...panel.summary(),
    updates: panel.updates }),
  flash: (r) => {
    const out = { ops: flash.ops, erases: flash.erases, programs: flash.programs, busy_ns: flash.busyNs };
    if (r.log) { out.log = flash.log; flash.log = []; }
    return out;
  },
  cut_after: (r) => { flash.cutAfter(r.ops); return {}; },
  host: (r) => {
    if (r.state === 'attached') host.back();
    else host.away({ suspended: 'suspend', unplugged: 'unplug' }[r.state] ?? r.state);
    return host.summary();
  },
  chip: () => ({ dormant: dormancy.summary(), usb: host.summary() }),
  lapse: (r) => {
    if (!(r.ns > 0 && r.step > 0)) throw new Error('lapse needs ns > 0 and step > 0');
    sim.lapse = { until: clock.nanos + r.ns, step: r.step, onEnd: (t) => emit({ ev: 'lapsed', t }) };
    return {};
  },
  cut: () => { if (!poweredOff) { flash.off = true; powerOff(); } return {}; },
  quit: () => { flash.close(); setImmediate(() => process.exit(0)); return {}; },
};

// Op send {hex, at}: bytes on the board's USB port as if the host wrote
// them to the pty, at emulated ns `at` (now when past): what reaches a
// board at a given moment of its boot (tests/emu/test_boot_bytes.py).
// They queue as the pty's bytes do, until the port is up.
OPS.send = (r) => {
  const bytes = Buffer.from(r.hex, 'hex');
  const port = r.port === 'console' ? cdc.console : cdc.link;
  const put = () => {
    if (!cdc.accepts()) { cdc.dropped += bytes.length; return; }
    port.pending.push(...bytes);
    cdc.bytesIn += bytes.length;
  };
  const wait = (r.at ?? 0) - clock.nanos;
  if (wait > 0) clock.createAlarm(put).schedule(wait); else put();
  return {};
};

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
    const op = OPS[req.op];
    if (!op) throw new Error(`unknown op ${req.op}`);
    emit({ id: req.id, ok: true, t: clock.nanos, ...op(req) });
  } catch (e) {
    emit({ id: req?.id ?? null, ok: false, error: String(e.message || e) });
  }
}).on('close', () => { flash.close(); process.exit(0); }); // the host is gone

mcu.core.PC = 0x10000000;
sim.execute();
