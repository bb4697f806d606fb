// Loading the chip's memories: the bootrom, a UF2 image into the flash, and
// raw partition images (ROMFS, littlefs) at their flash offsets.
import fs from 'fs';

const UF2_MAGIC0 = 0x0a324655, UF2_MAGIC1 = 0x9e5d5157, UF2_MAGIC_END = 0x0ab16f30;
export const FLASH_BASE = 0x10000000;

export function loadBootrom(mcu, path) {
  const rom = fs.readFileSync(path);
  if (rom.length !== 16384) throw new Error(`${path} is ${rom.length} bytes; the RP2040 bootrom is 16384`);
  mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
}

// Copies every block of a UF2 file into the flash; returns the blocks' count.
export function loadUF2(mcu, path) {
  const buf = fs.readFileSync(path);
  let blocks = 0;
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    const dv = new DataView(buf.buffer, buf.byteOffset + off, 512);
    if (dv.getUint32(0, true) !== UF2_MAGIC0 || dv.getUint32(4, true) !== UF2_MAGIC1 ||
        dv.getUint32(508, true) !== UF2_MAGIC_END) {
      throw new Error(`${path}: block ${off / 512} is not a UF2 block`);
    }
    const addr = dv.getUint32(12, true), size = dv.getUint32(16, true);
    if (addr < FLASH_BASE || addr + size > FLASH_BASE + mcu.flash.length || size > 476) {
      throw new Error(`${path}: block ${off / 512} lies outside the flash`);
    }
    mcu.flash.set(buf.subarray(off + 32, off + 32 + size), addr - FLASH_BASE);
    blocks++;
  }
  return blocks;
}

// A partition image at a flash offset; it must fit below `limit`.
export function loadPartition(mcu, data, offset, limit, what) {
  if (offset + data.length > limit) {
    throw new Error(`${what} is ${data.length} bytes: it runs past its partition (0x${offset.toString(16)}..0x${limit.toString(16)})`);
  }
  mcu.flash.set(data, offset);
}
