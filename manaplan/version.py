"""The package's version and the version of the JSON protocol it speaks (docs/protocol.md,
"Versions"): here alone, so that the modules that say them import no package."""

__version__ = "0.13.0"
#: the version of the JSON protocol this package speaks (docs/protocol.md, "Versions")
PROTOCOL_VERSION = "4.4"
