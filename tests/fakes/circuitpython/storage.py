"""Fake storage: remount as boot.py calls it; getmount('/').readonly."""


class _Mount:
    readonly = False  # as code sees CIRCUITPY after boot.py remounted it writable


_mount = _Mount()
remounts = []


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    remounts.append((mount_path, readonly))
    _mount.readonly = readonly


def getmount(mount_path):
    return _mount
