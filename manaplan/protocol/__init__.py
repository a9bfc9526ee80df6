"""The protocol layer: JSON requests in, JSON answers out (filled in below)."""
