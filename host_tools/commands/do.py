"""`deckahedron do`: send one command to a device and print its reply.

    deckahedron do --port P OP [key=value ...]
    deckahedron do --port /dev/pts/5 flip suit=crown net=1
    deckahedron do --port /dev/ttyACM0 breather cards=3,7

OP is any app op (hello, state, press, ...) or rules command (flip, end_flip,
...): docs/protocol.md lists them with their arguments. Each value is read
as JSON when it parses as JSON (numbers, true/false/null, lists, objects,
"quoted strings") and as a plain string otherwise: ``net=1`` is the number 1,
``suit=crown`` the string "crown", ``card='"3"'`` the string "3". Card
arguments take plain forms: ``keep=19,4`` is the list ["19", "4"], ``card=3``
the card "3" (``coerce``).

``state`` without arguments prints the whole state even when the device
sends it in parts (``state part=N`` prints that one part as it came);
``crashlog`` without arguments prints the device's crash log as plain text
(every part joined).

Output: the result as JSON (sorted keys, indented) on stdout, exit 0.
A device error: {"error": code, "message": ...} on stdout, exit 1.
Bad arguments: one line on stderr, exit 2. Port missing, busy or silent: one
line on stderr, exit 3.

Events the device sends meanwhile are not acknowledged: they stay on the
device for the program that stores them (the table hub).
"""

import json
import sys

from shared_rules import protocol as P

from host_tools.cli import reporter, seconds, whole
from host_tools.console.typed import OPS, Usage, coerce, parse_pairs

PROG = "deckahedron do"
EXIT_DEVICE_ERROR = 1
EXIT_USAGE = 2
EXIT_LINK = 3


_complain, _fail = reporter(PROG, EXIT_USAGE)


def add_arguments(parser):
    parser.add_argument("--port", required=True, metavar="P", help="the device's serial port (e.g. /dev/ttyACM0)")
    parser.add_argument("--timeout", type=seconds, default=2.0, metavar="S",
                        help="seconds to wait for each answer (default 2)")
    parser.add_argument("--retries", type=whole(0, 20, "3"), default=3, metavar="N",
                        help="re-sends (same request id) before giving up (default 3)")
    parser.add_argument("op", metavar="OP", help="the command: " + ", ".join(OPS))
    parser.add_argument("pairs", nargs="*", metavar="key=value", help="its arguments")
    parser.error = _fail


def run(args):
    from host_tools.link import DeviceError, DeviceLink, LinkError

    try:
        if args.op not in OPS:
            raise Usage("unknown op %r (one of: %s)" % (args.op, ", ".join(OPS)))
        call_args = coerce(args.op, parse_pairs(args.pairs))
        P.request(1, args.op, call_args)  # refuse what cannot be framed before touching the port
    except Usage as e:
        _complain(str(e))
        return EXIT_USAGE
    except P.FrameError as e:
        _complain("the request cannot be sent: %s" % e.message)
        return EXIT_USAGE
    try:
        with DeviceLink(args.port, timeout=args.timeout, retries=args.retries) as link:
            if args.op == "state" and not call_args:
                result = link.state()  # every part, joined
            elif args.op == "crashlog" and not call_args:
                text = crash_log(link)
                sys.stdout.write(text if text else "(the crash log is empty)\n")
                return 0
            else:
                result = link.call(args.op, call_args)
    except DeviceError as e:
        sys.stdout.write(json.dumps({"error": e.code, "message": e.message}, indent=2, sort_keys=True) + "\n")
        return EXIT_DEVICE_ERROR
    except LinkError as e:
        _complain(str(e))
        return EXIT_LINK
    sys.stdout.write(json.dumps(result, indent=2, sort_keys=True) + "\n")
    return 0


def crash_log(link):
    """The device's crash log, every part joined."""
    parts, i, n = [], 0, 1
    while i < n:
        r = link.call("crashlog", {"part": i})
        n = r.get("parts") if isinstance(r.get("parts"), int) else 1
        parts.append(str(r.get("data", "")))
        i += 1
    return "".join(parts)
