// The board's USB CDC serial ports bridged to stream sockets the host passes
// in (their other ends are the pseudo-terminals' bridges in
// host_tools/sim/emulated.py). Bytes pass untouched both ways, 0x03 and 0x04
// included. rp2040js's CDC host has a 512-byte queue and no flow control
// toward the device, so host bytes wait here and are fed in CHUNK-byte
// slices every CHUNK_NS of emulated time, never more than the queue has
// room for: however fast the host writes, nothing is dropped or reordered
// (a real port's flow control), and the device sees them no faster than a
// full-speed USB port would bring them.
//
// One port or two. MicroPython has one CDC interface: the link. CircuitPython
// with usb_cdc.enable(console=True, data=True) (its boot.py) has two: the
// console (the REPL, the first) and usb_cdc.data (the link, the last).
// rp2040js's USBCDC enumerates the device, but it serves only the last CDC
// data interface and raises DTR only on interface 0; here every CDC data
// interface of the configuration descriptor is a port with its own
// endpoints and queue, and DTR is raised on each one's communication
// interface (CircuitPython's usb_cdc.data.connected reads DTR). `fd` is the
// link's socket, `consoleFd` the console's (null: a second port's bytes go
// nowhere, and nothing reaches it).
//
// The USB host (host_tools/sim/emu/usbhost.mjs) says when bytes may go to the
// device (canSend: it talks to the configured device) and when the host
// has no port to take them (accepts false: unplugged, or it gave up on the
// device): then bytes written are dropped and counted.
//
// reset(): the chip was reset (host_tools/sim/emu/reset.mjs) or the host
// enumerates the device again. The ports go away and the USB host
// enumerates them again when the firmware brings USB up; bytes the host sent
// meanwhile are lost, as when a real board resets.
import net from 'net';
import { USBCDC } from 'rp2040js';

const CHUNK = 64, CHUNK_NS = 1e6, QUEUE = 512, DTR_GAP_NS = 10e6;
const INTERFACE = 4, ENDPOINT = 5, CDC_COMM_CLASS = 2, CDC_DATA_CLASS = 10, BULK = 2;

// Every CDC data interface of a configuration descriptor, in order:
// [{itf, comm (its communication interface), in, out}].
export function cdcPorts(descriptors) {
  const out = [];
  let comm = null, port = null;
  for (let i = 0; i + 1 < descriptors.length && descriptors[i] >= 2; i += descriptors[i]) {
    const len = descriptors[i], type = descriptors[i + 1];
    if (type === INTERFACE && len === 9) {
      const itf = descriptors[i + 2], cls = descriptors[i + 5];
      port = null;
      if (cls === CDC_COMM_CLASS) comm = itf;
      else if (cls === CDC_DATA_CLASS && descriptors[i + 4] === 2) {
        port = { itf, comm: comm ?? itf - 1, in: -1, out: -1 };
        out.push(port);
      }
    } else if (type === ENDPOINT && len === 7 && port && (descriptors[i + 3] & 3) === BULK) {
      const address = descriptors[i + 2];
      if (address & 0x80) port.in = address & 0xf; else port.out = address & 0xf;
    }
  }
  return out;
}

class Port {
  constructor(bridge, fd, name) {
    this.name = name;
    this.pending = []; // host bytes not yet fed
    this.queue = []; // fed bytes the device has not read yet (rp2040js's 512-byte FIFO)
    this.ep = null; // {itf, comm, in, out} once the device is configured
    this.socket = null;
    if (fd === null || fd === undefined) return;
    this.socket = new net.Socket({ fd, readable: true, writable: true });
    this.socket.on('data', (d) => {
      if (!bridge.accepts()) { bridge.dropped += d.length; return; }
      this.pending.push(...d);
      bridge.bytesIn += d.length;
    });
    this.socket.on('error', () => {}); // the host went away: the port just stays quiet
  }

  write(data) { if (this.socket) this.socket.write(Buffer.from(data)); }
}

export class CDCBridge {
  constructor(mcu, clock, fd, { onConnected = () => {}, consoleFd = null } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.onConnected = onConnected;
    this.canSend = () => true;
    this.onFed = () => {}; // bytes are queued for the device
    this.accepts = () => true;
    this.bytesIn = 0;
    this.bytesOut = 0;
    this.dropped = 0; // host bytes lost: no port on the host's side
    this.link = new Port(this, fd, 'link');
    this.console = new Port(this, consoleFd, 'console');
    this.attach();
    const feed = clock.createAlarm(() => {
      if (this.connected && this.canSend()) {
        let fed = false;
        for (const port of this.ports()) {
          if (!port.pending.length || !port.ep) continue;
          const room = Math.min(CHUNK, QUEUE - port.queue.length);
          port.queue.push(...port.pending.splice(0, Math.max(0, room)));
          fed = true;
        }
        if (fed) this.onFed();
      }
      feed.schedule(CHUNK_NS);
    });
    feed.schedule(CHUNK_NS);
  }

  // The link's host bytes not yet fed (the one port's, on MicroPython).
  get pending() { return this.link.pending; }
  set pending(v) { this.link.pending = v; }

  ports() { return [this.link, this.console]; }

  attach() {
    this.connected = false;
    this.bound = false;
    for (const port of this.ports()) { port.ep = null; port.queue = []; }
    this.byIn = new Map();
    this.byOut = new Map();
    const usb = this.mcu.usbCtrl;
    this.cdc = new USBCDC(usb);
    const write0 = usb.onEndpointWrite, read0 = usb.onEndpointRead;
    usb.onEndpointWrite = (endpoint, buffer) => {
      this.bind();
      const port = this.byIn.get(endpoint);
      if (port) { this.bytesOut += buffer.length; port.write(buffer); } else write0(endpoint, buffer);
    };
    usb.onEndpointRead = (endpoint, size) => {
      this.bind();
      const port = this.byOut.get(endpoint);
      if (!port) { read0(endpoint, size); return; }
      usb.endpointReadDone(endpoint, Uint8Array.from(port.queue.splice(0, Math.min(size, port.queue.length))));
    };
    this.cdc.onDeviceConnected = () => {
      this.bind();
      this.connected = true;
      // rp2040js raised DTR on interface 0; the other ports' communication
      // interfaces get theirs one after another (one control transfer at a time).
      let at = 0;
      for (const port of this.ports()) {
        if (!port.ep || port.ep.comm === 0) continue;
        at += DTR_GAP_NS;
        const cdc = this.cdc, comm = port.ep.comm;
        clock_alarm(this.clock, at, () => { if (this.cdc === cdc) cdc.cdcSetControlLineState(3, comm); });
      }
      this.onConnected(this.clock.nanos);
    };
  }

  // Once the whole configuration descriptor is in: which endpoints are whose.
  bind() {
    const cdc = this.cdc;
    if (this.bound || cdc.descriptorsSize == null || cdc.descriptors.length < cdc.descriptorsSize) return;
    this.bound = true;
    const found = cdcPorts(cdc.descriptors);
    if (!found.length) return;
    const assign = (port, ep) => { port.ep = ep; this.byIn.set(ep.in, port); this.byOut.set(ep.out, port); };
    assign(this.link, found[found.length - 1]);
    if (found.length > 1) assign(this.console, found[0]);
  }

  // The device armed an OUT transfer on a port with nothing queued for it:
  // a host sends no OUT token without data, so the transfer waits.
  idleOut(endpoint) {
    this.bind();
    const port = this.byOut.get(endpoint);
    return port !== undefined && port.queue.length === 0;
  }

  // Drop what the host had not sent yet (a reset, a pulled cable).
  dropPending() {
    for (const port of this.ports()) { this.dropped += port.pending.length; port.pending = []; }
  }

  reset() {
    this.dropPending();
    this.attach();
  }
}

function clock_alarm(clock, ns, fn) {
  const alarm = clock.createAlarm(fn);
  alarm.schedule(ns);
  return alarm;
}
