"""The GM's live table page: a web server beside the console (docs/web.md).

    bridge = Bridge(console)          # on the hub's thread: console.ticks.append(bridge.tick)
    server = WebServer(bridge)        # its own thread and event loop
    print(server.start())             # the URL
"""

from host_tools.web.bridge import Bridge
from host_tools.web.server import DEFAULT_PORT, WebServer

__all__ = ["Bridge", "WebServer", "DEFAULT_PORT"]
