// The USB host at the other end of the cable, which a test can take away
// and give back, and the parts of the RP2040's USB device controller that
// this needs and rp2040js 1.4.1 leaves out (its host is always there and
// always polling).
//
// The controller (RP2040 datasheet 4.1.4): SIE_STATUS.SUSPENDED is the
// bus's state, set after 3 ms without frames (USB 2.0 7.1.7.6), clear while
// the host sends them; INTR.DEV_SUSPEND is raised at each change of it and
// cleared by writing 1 to SIE_STATUS.SUSPENDED; a resume from the host sets
// SIE_STATUS.RESUME (write-1-to-clear) and INTR.DEV_RESUME_FROM_HOST; each
// frame's start-of-frame packet sets INTR.DEV_SOF, cleared by reading
// SOF_RD (MicroPython's CDC flushes what it wrote before the host opened
// the port 16 frames after the host raises DTR: without frames it never
// would). The controller runs on clk_usb: while that is stopped
// (CLK_USB_CTRL.ENABLE clear, or the whole chip DORMANT) it sees nothing of
// the bus. MicroPython's tinyusb forces VBUS-detect on (dcd_rp2040.c
// FORCE_VBUS_DETECT), so the device cannot tell a host that stopped sending
// frames from a pulled cable: both read CONNECTED and SUSPENDED.
//
// The host: 'attached' (frames every 1 ms, it polls the device's endpoints),
// 'suspended' (it stopped sending frames: a laptop asleep; what it has to
// send waits, its session with the device stays) or 'unplugged' (the cable
// is out: VBUS off on the board's VBUS-sense GPIO where it has one, bytes
// written to the port are lost, the session ends). Given back, a suspended
// host resumes the bus (20 ms of K, USB 2.0 7.1.7.7) and carries on; a
// plugged-in one waits 100 ms (7.1.7.3) and enumerates the device afresh.
// Either needs the device's controller clocked to see it: a device that
// does not answer (DORMANT: clk_usb stopped) is reset and enumerated again
// every RETRY_NS, TRIES times (about what Linux's hub driver does before
// "unable to enumerate USB device"), then given up on: no port on the
// host until the cable is pulled and put back.
//
// Endpoint transfers the device arms while the host does not poll it stay
// armed (their buffer-control words keep AVAILABLE) until it does; an
// enumeration drops them (a bus reset clears the device's endpoints). So
// does the CDC data OUT endpoint while the host has nothing to send: a host
// sends an OUT token only with data (rp2040js's USBCDC answered every arm
// at once, with zero bytes when it had none: a zero-length transfer every
// ~35 us that kept the emulated core in tinyusb's interrupt and task, and
// left a completion pending at any moment, which tinyusb drops without
// re-arming when it lands while the bus is suspended). Every CDC port's
// OUT endpoint alike (CircuitPython has two: host_tools/sim/emu/cdc.mjs).
const SOF_RD = 0x48, SIE_STATUS = 0x50;
const SUSPENDED = 1 << 4, RESUME = 1 << 11;
const INTR_DEV_SUSPEND = 1 << 14, INTR_DEV_SOF = 1 << 17;
const BUF_CTRL_FIRST = 0x80, BUF_CTRL_LAST = 0xfc, AVAILABLE = 1 << 10;
const CLK_USB_ENABLE = 1 << 11;
const FRAME_NS = 1e6, IDLE_NS = 3e6, RESUME_NS = 20e6, ATTACH_NS = 100e6;
export const RETRY_NS = 500e6, TRIES = 8;

export class UsbHost {
  // onChange({t, host, link}): the host's state ('attached', 'suspended',
  // 'unplugged') or its link with the device ('up', 'enumerating', 'none',
  // 'gave_up') changed.
  constructor(mcu, clock, cdc, dormancy, { vbus = null, onChange = () => {} } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.cdc = cdc;
    this.dormancy = dormancy;
    this.usb = mcu.usbCtrl;
    this.vbus = vbus === null ? null : mcu.gpio[vbus];
    this.onChange = onChange;
    this.state = 'attached';
    this.link = 'enumerating'; // the host waits for the device to bring USB up
    this.suspended = false; // the device controller's view of the bus
    this.suspendChanged = false;
    this.idleSince = null; // when the frames stopped
    this.held = new Set(); // buffer-control offsets armed while the host did not poll
    this.retryAt = null;
    this.tries = 0;
    this.counts = { away: 0, back: 0, resumes: 0, enumerations: 0, retries: 0, gave_up: 0 };
    cdc.canSend = () => this.polling();
    cdc.onFed = () => this.replay();
    cdc.accepts = () => this.state !== 'unplugged' && this.link !== 'gave_up';
    const connected = cdc.onConnected;
    cdc.onConnected = (t) => { this.setLink('up'); connected(t); };
    this.wireController();
    this.driveVbus();
    const frame = clock.createAlarm(() => { this.frame(); frame.schedule(FRAME_NS); });
    frame.schedule(FRAME_NS);
  }

  summary() {
    return { host: this.state, link: this.link, suspended: this.suspended, clocked: this.clocked(),
      held: this.held.size, dropped: this.cdc.dropped, ...this.counts };
  }

  clocked() {
    return !this.dormancy.halted && (this.mcu.clocks.usbCtrl & CLK_USB_ENABLE) !== 0;
  }

  // The host sends frames and polls the device's endpoints.
  polling() {
    return this.state === 'attached' && (this.link === 'up' || this.link === 'enumerating') && this.clocked();
  }

  wireController() {
    const usb = this.usb;
    const read = usb.readUint32.bind(usb), write = usb.writeUint32.bind(usb);
    const updated = usb.sieStatusUpdated.bind(usb), dpram = usb.DPRAMUpdated.bind(usb);
    const resetDevice = usb.resetDevice.bind(usb);
    this.resetDevice = resetDevice;
    this.dpram = dpram;
    usb.readUint32 = (offset) => {
      if (offset === SIE_STATUS) return (read(offset) | (this.suspended ? SUSPENDED : 0)) >>> 0;
      if (offset === SOF_RD && usb.intRaw & INTR_DEV_SOF) { usb.intRaw &= ~INTR_DEV_SOF; usb.checkInterrupts(); }
      return read(offset);
    };
    usb.writeUint32 = (offset, value) => {
      if (offset === SIE_STATUS && usb.rawWriteValue & SUSPENDED) this.suspendChanged = false;
      write(offset, value);
    };
    usb.sieStatusUpdated = () => {
      updated();
      if (this.suspendChanged) usb.intRaw |= INTR_DEV_SUSPEND;
      else usb.intRaw &= ~INTR_DEV_SUSPEND;
      usb.checkInterrupts();
    };
    usb.DPRAMUpdated = (offset, value) => this.arm(offset, value);
    // The device brings its controller up (at boot, after a reset): a host
    // that is there enumerates it; one that is not does when it comes back.
    usb.resetDevice = () => {
      if (this.state === 'attached') { this.setLink('enumerating'); resetDevice(); }
      else this.link = 'none';
    };
  }

  setSuspended(value) {
    if (value !== this.suspended) {
      this.suspended = value;
      this.suspendChanged = true;
      this.usb.sieStatusUpdated();
    }
  }

  setLink(link) {
    if (link !== this.link) {
      this.link = link;
      this.onChange({ t: this.clock.nanos, host: this.state, link });
    }
  }

  driveVbus() {
    if (this.vbus) this.vbus.setInputValue(this.state !== 'unplugged');
  }

  // Once a millisecond, the bus as the device's controller sees it.
  frame() {
    const now = this.clock.nanos;
    const frames = this.state === 'attached' && (this.link === 'up' || this.link === 'enumerating');
    if (frames) this.idleSince = null;
    else if (this.idleSince === null) this.idleSince = now;
    if (this.clocked()) {
      if (frames) {
        this.setSuspended(false);
        this.usb.sofFrameNumber = (this.usb.sofFrameNumber + 1) & 0x7ff;
        this.usb.intRaw |= INTR_DEV_SOF;
        this.usb.checkInterrupts();
      } else if (now - this.idleSince >= IDLE_NS) {
        this.setSuspended(true);
      }
      if (this.held.size && this.polling()) this.replay();
    }
    if (this.retryAt !== null && now >= this.retryAt) this.enumerate();
  }

  // The device wrote a buffer-control word: a transfer it arms waits until
  // the host polls that endpoint.
  arm(offset, value) {
    const armed = offset >= BUF_CTRL_FIRST && offset <= BUF_CTRL_LAST && (value & AVAILABLE || (value >>> 16) & AVAILABLE);
    if (armed && (!this.polling() || this.nothingToSend(offset))) this.held.add(offset);
    else this.dpram(offset, value);
  }

  nothingToSend(offset) {
    // an OUT endpoint's buffer control (DPRAM 0x84 + 8 n) of a CDC port with nothing queued
    return (offset - BUF_CTRL_FIRST) % 8 === 4 && this.cdc.idleOut((offset - BUF_CTRL_FIRST - 4) / 8);
  }

  replay() {
    const view = this.mcu.usbDPRAMView;
    const held = [...this.held];
    this.held.clear();
    for (const offset of held) this.arm(offset, view.getUint32(offset, true));
  }

  // A reset and a fresh enumeration, if the device answers; else later.
  enumerate() {
    if (this.state !== 'attached') { this.retryAt = null; return; }
    if (this.clocked()) {
      this.retryAt = null;
      this.counts.enumerations++;
      this.held.clear();
      this.cdc.reset();
      this.setLink('enumerating');
      this.setSuspended(false); // the reset is bus activity
      this.resetDevice();
    } else if (++this.tries >= TRIES) {
      this.retryAt = null;
      this.counts.gave_up++;
      this.setLink('gave_up');
    } else {
      this.counts.retries++;
      this.retryAt = this.clock.nanos + RETRY_NS;
    }
  }

  away(mode) {
    const state = { suspend: 'suspended', unplug: 'unplugged' }[mode];
    if (!state) throw new Error(`host away: suspend or unplug, not ${mode}`);
    if (state === this.state) return;
    this.counts.away++;
    this.state = state;
    this.retryAt = null;
    if (state === 'unplugged') {
      this.cdc.dropPending();
      this.link = 'none';
    }
    this.driveVbus();
    this.onChange({ t: this.clock.nanos, host: state, link: this.link });
  }

  back() {
    if (this.state === 'attached') return;
    const was = this.state;
    this.counts.back++;
    this.state = 'attached';
    this.driveVbus();
    this.onChange({ t: this.clock.nanos, host: 'attached', link: this.link });
    this.tries = 0;
    if (was === 'suspended' && this.link === 'up' && this.clocked()) {
      // The resume: the device's controller sees it, and frames follow.
      this.counts.resumes++;
      this.usb.sieStatus |= RESUME;
      this.setSuspended(false);
    } else if (was === 'suspended' && this.link === 'up') {
      this.link = 'none'; // the device slept through the resume: the host resets it
      this.retryAt = this.clock.nanos + RESUME_NS;
    } else {
      this.link = 'none';
      this.retryAt = this.clock.nanos + ATTACH_NS;
    }
  }
}
