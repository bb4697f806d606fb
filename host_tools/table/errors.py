"""The table's errors: a command that cannot be done, a database that is not a session's."""


class TableError(Exception):
    """A table command that cannot be done; the message says why."""


class NotSessionDatabase(TableError):
    """A database that is not a session database (another program's): left untouched."""
