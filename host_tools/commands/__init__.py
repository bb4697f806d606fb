"""The `deckahedron` subcommands, one module each (host_tools/cli.py lists them)."""
