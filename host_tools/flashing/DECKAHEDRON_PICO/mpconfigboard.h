// The Deckahedron base image: Raspberry Pi Pico (RPI_PICO of MicroPython
// v1.28.0) with a ROMFS partition for the device code and a smaller
// littlefs (docs/rp2040.md, "The base image"). The two sizes are
// host_tools/rp2040.py's ROMFS_BYTES and FS_BYTES; tests/host/test_base_image.py
// fails when they disagree. rp2_flash.c puts the filesystem at the end of the
// 2 MiB flash and the ROMFS right below it: ROMFS 0x10080000-0x100E0000,
// littlefs 0x100E0000 to the end; the firmware must end below the ROMFS.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1152 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (384 * 1024)
