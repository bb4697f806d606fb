"""One table hub per run folder (issue 25).

Two `deckahedron table` on one run folder both handed out the same supply
card and wrote one record that failed its own replay. The first takes an
exclusive ``flock`` on RUN/table.lock and holds it while its process lives
(the kernel lets go when the process dies, however it dies); the file says
who holds it, so a second is refused in one sentence naming the first.
"""

import fcntl
import json
import os
import time

NAME = "table.lock"


class RunFolderBusy(Exception):
    """Another hub holds the run folder; the message names it."""


class RunLock:
    def __init__(self, folder):
        self.path = os.path.join(folder, NAME)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise RunFolderBusy("another deckahedron table (%s) is using the run folder %s: stop it first, or "
                                "give this one another --dir" % (holder, folder))
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "started": time.time()}).encode())
        self.fd = fd

    def release(self):
        if self.fd is not None:
            os.close(self.fd)  # closing the file lets go of the lock
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()
        return False


def _holder(fd):
    """Who holds the lock, in words, from what it wrote in the file."""
    try:
        who = json.loads(os.pread(fd, 200, 0).decode())
        return "pid %d, started %s" % (who["pid"], time.strftime("%Y-%m-%d %H:%M:%S",
                                                                  time.localtime(who["started"])))
    except (OSError, ValueError, KeyError, TypeError):
        return "its pid not written yet"
