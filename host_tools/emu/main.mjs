// The emulated Pico: MicroPython's rp2 image in rp2040js with a writable
// flash, a panel, buttons and USB CDC. Run by host_tools/emuboards.py:
//
//   node main.mjs CONFIG_JSON
//
// CONFIG_JSON: {bootrom, image (UF2), romfs (file), romfsOffset, fs (the
// littlefs backing file), fsOffset, cdcFd (a stream socket), panel: {kind,
// spi, cs, dc, rst, busy}, buttons: {NAME: gpio}, pressed (the level a
// pressed button reads), latch (the power latch's gpio) or null, battery:
// {gpio, divider, volts[, vref, vrefVolts]} or null, wake: {button, ms} (a
// button held from power-on for ms) or null}.
//
// The control channel is line-delimited JSON: requests on stdin
// ({"id": n, "op": ...}), answers ({"id": n, ...}) and events ({"ev": ...})
// on stdout; messages for people on stderr. Ops: time, press / release
// {button}, tap {button, ms}, panel (the image, base64 MONO_HLSB, and the
// panel's counters), flash (counters; log: true also takes the
// operations logged since the last call), cut_after {ops} (cut the power
// right after that many more flash operations), cut (now), quit.
// Events: cdc (the port is up), update {kind, t, until (BUSY falls)}, violation {t, msg},
// power_cut {t, ops}, latch {t, level} (the level driven on the power latch:
// 0, 1, or null while not an output). Times are emulated nanoseconds since
// power-on.
import readline from 'readline';
import { Simulator, ConsoleLogger, LogLevel } from 'rp2040js';
import fs from 'fs';
import { loadBootrom, loadUF2, loadPartition } from './uf2.mjs';
import { FlashChip } from './flash.mjs';
import { Buttons, senseBattery, watchLatch } from './buttons.mjs';
import { CDCBridge } from './cdc.mjs';
import { watchReset } from './reset.mjs';
import { PANELS } from './panels.mjs';

const config = JSON.parse(process.argv[2]);
const sim = new Simulator();
const mcu = sim.rp2040;
const clock = sim.clock;
mcu.logger = new ConsoleLogger(LogLevel.Error);

function emit(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

loadBootrom(mcu, config.bootrom);
loadUF2(mcu, config.image);
loadPartition(mcu, fs.readFileSync(config.romfs), config.romfsOffset, config.fsOffset, 'the ROMFS image');
let poweredOff = false;
function powerOff() {
  poweredOff = true;
  sim.stop();
  emit({ ev: 'power_cut', t: clock.nanos, ops: flash.ops });
}
const flash = new FlashChip(mcu, clock, {
  backingPath: config.fs, backingOffset: config.fsOffset, onPowerCut: powerOff,
  romfsPath: config.romfs, romfsOffset: config.romfsOffset, romfsEnd: config.fsOffset,
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
const cdc = new CDCBridge(mcu, clock, config.cdcFd, { onConnected: (t) => emit({ ev: 'cdc', t }) });
// Event reset {t}: a watchdog reset (machine.reset()); the board starts again.
watchReset(mcu, clock, (t) => { cdc.reset(); emit({ ev: 'reset', t }); });

const OPS = {
  time: () => ({}),
  press: (r) => { buttons.press(r.button); return {}; },
  release: (r) => { buttons.release(r.button); return {}; },
  tap: (r) => { buttons.tap(r.button, r.ms ?? 120); return {}; },
  panel: () => ({ image: Buffer.from(panel.landscape()).toString('base64'), ...panel.summary(),
    updates: panel.updates }),
  flash: (r) => {
    const out = { ops: flash.ops, erases: flash.erases, programs: flash.programs };
    if (r.log) { out.log = flash.log; flash.log = []; }
    return out;
  },
  cut_after: (r) => { flash.cutAfter(r.ops); return {}; },
  cut: () => { if (!poweredOff) { flash.off = true; powerOff(); } return {}; },
  quit: () => { flash.close(); setImmediate(() => process.exit(0)); return {}; },
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
