"""Clients of the mahjong server (the reference terminal client lives in ``clients.cli``)."""
