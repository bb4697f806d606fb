// The board's USB CDC serial port bridged to a stream socket the host
// passes in (its other end is the pseudo-terminal's bridge in
// host_tools/emuboards.py). Bytes pass untouched both ways, 0x03 and 0x04
// included. rp2040js's CDC host has a 512-byte queue and no flow control
// toward the device, so host bytes wait here and are fed in CHUNK-byte
// slices every CHUNK_NS of emulated time, never more than the queue has
// room for: however fast the host writes, nothing is dropped or reordered
// (a real port's flow control), and the device sees them no faster than a
// full-speed USB port would bring them.
//
// The USB host (host_tools/emu/usbhost.mjs) says when bytes may go to the
// device (canSend: it talks to the configured device) and when the host
// has no port to take them (accepts false: unplugged, or it gave up on the
// device): then bytes written are dropped and counted.
//
// reset(): the chip was reset (host_tools/emu/reset.mjs) or the host
// enumerates the device again. The port goes away and the USB host
// enumerates it again when the firmware brings USB up; bytes the host sent
// meanwhile are lost, as when a real board resets.
import net from 'net';
import { USBCDC } from 'rp2040js';

const CHUNK = 64, CHUNK_NS = 1e6;

export class CDCBridge {
  constructor(mcu, clock, fd, { onConnected = () => {} } = {}) {
    this.mcu = mcu;
    this.clock = clock;
    this.onConnected = onConnected;
    this.canSend = () => true;
    this.onFed = () => {}; // bytes are queued for the device
    this.accepts = () => true;
    this.pending = [];
    this.bytesIn = 0;
    this.bytesOut = 0;
    this.dropped = 0; // host bytes lost: no port on the host's side
    this.socket = new net.Socket({ fd, readable: true, writable: true });
    this.socket.on('data', (d) => {
      if (!this.accepts()) { this.dropped += d.length; return; }
      this.pending.push(...d);
      this.bytesIn += d.length;
    });
    this.socket.on('error', () => {}); // the host went away: the port just stays quiet
    this.attach();
    const feed = clock.createAlarm(() => {
      if (this.connected && this.pending.length && this.canSend()) {
        const room = Math.min(CHUNK, 512 - this.cdc.txFIFO.itemCount);
        for (const b of this.pending.splice(0, Math.max(0, room))) this.cdc.sendSerialByte(b);
        this.onFed();
      }
      feed.schedule(CHUNK_NS);
    });
    feed.schedule(CHUNK_NS);
  }

  attach() {
    this.connected = false;
    this.cdc = new USBCDC(this.mcu.usbCtrl);
    this.cdc.onDeviceConnected = () => { this.connected = true; this.onConnected(this.clock.nanos); };
    this.cdc.onSerialData = (data) => { this.bytesOut += data.length; this.socket.write(Buffer.from(data)); };
  }

  reset() {
    this.dropped += this.pending.length;
    this.pending = [];
    this.attach();
  }
}
