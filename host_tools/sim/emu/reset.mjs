// A watchdog reset of the emulated chip. rp2040js 1.4.1 leaves the
// watchdog's trigger to the embedder ("no reset handler provided"), so
// machine.reset() (mpremote's `reset`, the end of `deckahedron flash`) and
// the firmware's own watchdog would leave the board hung. On a real RP2040
// the watchdog resets the processor and the peripherals; the flash, the
// panel and the USB host outside the chip keep their state. Here the core
// goes back to its power-on state and starts again at the flash's boot2
// (where main.mjs starts it); MicroPython's start-up re-initialises the
// peripherals it uses, and the USB host enumerates the port again.
const THREAD = 0;

export function watchReset(mcu, clock, onReset) {
  const watchdog = mcu.peripherals[0x40058];
  let due = false;
  const later = clock.createAlarm(() => {
    due = false;
    const core = mcu.core;
    core.registers.fill(0);
    core.N = core.C = core.Z = core.V = false;
    core.PM = false;
    core.SPSEL = 0;
    core.nPRIV = false;
    core.currentMode = THREAD;
    core.IPSR = 0;
    core.pendingInterrupts = 0;
    core.enabledInterrupts = 0;
    core.interruptPriorities = [0xffffffff, 0x0, 0x0, 0x0];
    core.pendingNMI = core.pendingPendSV = core.pendingSVCall = core.pendingSystick = false;
    core.interruptsUpdated = true;
    core.waiting = false;
    core.eventRegistered = false;
    core.VTOR = 0;
    core.SHPR2 = core.SHPR3 = 0;
    core.reset(); // SP from the bootrom's vector table; LR 0 tells boot2 to enter the image
    core.PC = 0x10000000;
    watchdog.enable = watchdog.timer.enable = watchdog.alarm.enable = false;
    const ppb = mcu.ppb;
    ppb.systickIntEnable = false;
    ppb.systickReload = 0;
    onReset(clock.nanos);
  });
  // The trigger comes inside a store instruction: reset between instructions.
  // The watchdog stops at once, as the chip's reset stops it: rp2040js's
  // periodic alarm, its counter at 0, scheduled itself again 0 ns later,
  // firing for ever at the same instant (a watchdog's bite hung the emulator).
  watchdog.onWatchdogTrigger = () => {
    watchdog.alarm.enable = false;
    if (!due) { due = true; later.schedule(0); }
  };
}

// Why the chip last reset: CHIP_RESET, VREG_AND_CHIP_RESET's register at
// 0x40064008. rp2040js leaves that block unimplemented (every read
// 0xffffffff, every cause at once, which firmwares take for a power-on).
// `cause` "power-on" reads HAD_POR alone. "rescue" reads HAD_PSM_RESTART,
// a debugger's rescue reset: CircuitPython then skips the one-second window
// it waits at power-on for a press into safe mode (supervisor/shared/
// safe_mode.c), a busy loop of ~125 million emulated cycles, 4-6 s of a
// host core a boot (docs/rp2040.md), that nothing emulated can press into.
// A watchdog reset (watchReset) leaves the register as it was, as the
// chip's does.
const CHIP_RESET = 0x8;
const CAUSES = { 'power-on': 1 << 8, 'rescue': 1 << 20 };

export function reportResetCause(mcu, cause) {
  const bits = CAUSES[cause];
  if (bits === undefined) throw new Error(`no reset cause ${cause} (known: ${Object.keys(CAUSES).join(', ')})`);
  const block = mcu.peripherals[0x40064];
  const read = block.readUint32.bind(block);
  block.readUint32 = (offset) => (offset === CHIP_RESET ? bits : read(offset));
}
