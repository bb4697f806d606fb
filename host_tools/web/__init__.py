"""The GM's live table page: a web server beside the console (docs/web.md).

    bridge = Bridge(console)          # on the hub's thread: console.ticks.append(bridge.tick)
    server = WebServer(bridge)        # its own thread and event loop
    print(server.start())             # the URL

Bridge and WebServer load when first asked for: the server brings aiohttp
(~0.3 s), which a table with no page (no terminal, `--no-web`) and the other
commands never need.
"""

DEFAULT_PORT = 8765  # the page's port unless the GM gives one (a free one if it is taken)

__all__ = ["Bridge", "WebServer", "DEFAULT_PORT"]


def __getattr__(name):
    if name == "Bridge":
        from host_tools.web.bridge import Bridge

        return Bridge
    if name == "WebServer":
        from host_tools.web.server import WebServer

        return WebServer
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
