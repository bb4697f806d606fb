// The board's USB CDC serial port bridged to a stream socket the host
// passes in (its other end is the pseudo-terminal's bridge in
// host_tools/emuboards.py). Bytes pass untouched both ways, 0x03 and 0x04
// included. rp2040js's CDC host has a 512-byte queue and no flow control
// toward the device, so host bytes are fed in CHUNK-byte slices every
// CHUNK_NS of emulated time, as fast as a full-speed USB port would.
import net from 'net';
import { USBCDC } from 'rp2040js';

const CHUNK = 64, CHUNK_NS = 1e6;

export class CDCBridge {
  constructor(mcu, clock, fd, { onConnected = () => {} } = {}) {
    this.cdc = new USBCDC(mcu.usbCtrl);
    this.pending = [];
    this.connected = false;
    this.bytesIn = 0;
    this.bytesOut = 0;
    this.socket = new net.Socket({ fd, readable: true, writable: true });
    this.socket.on('data', (d) => { this.pending.push(...d); this.bytesIn += d.length; });
    this.socket.on('error', () => {}); // the host went away: the port just stays quiet
    this.cdc.onDeviceConnected = () => { this.connected = true; onConnected(clock.nanos); };
    this.cdc.onSerialData = (data) => { this.bytesOut += data.length; this.socket.write(Buffer.from(data)); };
    const feed = clock.createAlarm(() => {
      if (this.connected && this.pending.length) {
        const room = Math.min(CHUNK, 512 - this.cdc.txFIFO.itemCount);
        for (const b of this.pending.splice(0, Math.max(0, room))) this.cdc.sendSerialByte(b);
      }
      feed.schedule(CHUNK_NS);
    });
    feed.schedule(CHUNK_NS);
  }
}
