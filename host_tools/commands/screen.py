"""`deckahedron screen`: save what a device's panel shows as a PNG.

    deckahedron screen --port P --png FILE [--scale K]

Fetches the panel buffer in parts (the ``screen`` op: raw 1-bit MONO_HLSB,
1 = black) and writes it as a black-and-white PNG, each pixel K x K
(default 2, as host_tools.screens.core draws them; at most 16). The image comes
from host_tools.screens.core.to_image when that module is there.

Exit codes: 0 saved, 1 the device refused, 2 bad arguments or the file
cannot be written, 3 port missing, busy or silent.
"""

import json
import os
import sys

from host_tools.cli import reporter, seconds

PROG = "deckahedron screen"
EXIT_DEVICE_ERROR = 1
EXIT_USAGE = 2
EXIT_LINK = 3
MAX_SCALE = 16


_complain, _fail = reporter(PROG, EXIT_USAGE)


def add_arguments(parser):
    parser.add_argument("--port", required=True, metavar="P", help="the device's serial port")
    parser.add_argument("--png", required=True, metavar="FILE", help="where to write the PNG")
    parser.add_argument("--scale", type=int, default=2, metavar="K",
                        help="pixels per panel pixel, 1..%d (default 2)" % MAX_SCALE)
    parser.add_argument("--timeout", type=seconds, default=2.0, metavar="S",
                        help="seconds to wait for each answer (default 2)")
    parser.error = _fail


def to_image(buf, w, h):
    """A Pillow mode-"1" image of a MONO_HLSB buffer (1 = black): the shared
    renderer's when host_tools.screens.core exists, else this minimal one."""
    try:
        from host_tools.screens import core as screens
    except ImportError:
        screens = None
    if screens is not None and hasattr(screens, "to_image"):
        return screens.to_image(buf, w, h)
    from PIL import Image

    stride = (w + 7) // 8
    if len(buf) < stride * h:
        raise ValueError("a %dx%d screen needs %d bytes, got %d" % (w, h, stride * h, len(buf)))
    # Pillow's "1" raw mode packs 8 pixels per byte, MSB first, rows padded to
    # a byte, with 1 = white: the same layout with the colours inverted.
    inverted = bytes(0xFF ^ b for b in buf[:stride * h])
    return Image.frombytes("1", (w, h), inverted)


def save_png(buf, w, h, path, scale=1):
    from PIL import Image

    img = to_image(buf, w, h)
    if scale != 1:
        img = img.resize((img.width * scale, img.height * scale), Image.NEAREST)
    img.save(path, format="PNG")
    return img.size


def run(args):
    from host_tools.link import DeviceError, DeviceLink, LinkError

    if not 1 <= args.scale <= MAX_SCALE:
        _complain("--scale must be from 1 to %d, not %d" % (MAX_SCALE, args.scale))
        return EXIT_USAGE
    folder = os.path.dirname(os.path.abspath(args.png))
    if not os.path.isdir(folder):
        _complain("cannot write %s: folder %s does not exist" % (args.png, folder))
        return EXIT_USAGE
    try:
        with DeviceLink(args.port, timeout=args.timeout) as link:
            buf = link.fetch_screen()
            w, h = link.screen_size
    except DeviceError as e:
        sys.stdout.write(json.dumps({"error": e.code, "message": e.message}, indent=2, sort_keys=True) + "\n")
        return EXIT_DEVICE_ERROR
    except LinkError as e:
        _complain(str(e))
        return EXIT_LINK
    try:
        size = save_png(buf, w, h, args.png, args.scale)
    except OSError as e:
        _complain("cannot write %s: %s" % (args.png, e.strerror or e))
        return EXIT_USAGE
    sys.stdout.write("%s: %dx%d panel saved as %dx%d PNG\n" % (args.png, w, h, size[0], size[1]))
    return 0
