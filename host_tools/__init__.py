"""Host side of the Deckahedron handheld: the `deckahedron` command."""
