# The port's own frozen modules, and the device code's names and strings
# (_deckahedron_names.mpy, written into the board folder from the checkout
# at build time by host_tools/flashing/base_image.py; never imported).
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 (makemanifest.py's own functions)
freeze_mpy("$(BOARD_DIR)", "_deckahedron_names.mpy")  # noqa: F821
