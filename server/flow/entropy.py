"""The operating system's randomness, drawn by the shell for the room logic, which draws none of its own: wall seeds, game ids and room codes.

The room logic (``server/room/``) is given what it needs of it (docs/server.md, "Layers"):
a new game's :class:`~server.room.game_room.Seeds` (a wall seed per deal, the claim windows'
recorded randomness, the game's id) and the generator a room code is drawn with. Each wall
seed and game id is recorded in the room's log, so a game replays without this module.
"""

from __future__ import annotations

import random
import secrets

from server.room.game_room import Seeds

#: the generator room codes are drawn with: the operating system's CSPRNG
SYSTEM = random.SystemRandom()


def secret_wall_seed() -> str:
    """A wall seed for a real deal: 256 bits from the operating system's CSPRNG."""
    return secrets.token_hex(32)


def new_game_id() -> str:
    """A game's id (``lobby.game_id``, the archive's key, the ``/g/<id>`` link): 96 random
    bits from the operating system's CSPRNG, URL-safe, so a link cannot be guessed."""
    return secrets.token_urlsafe(12)


#: the seeds of a real game: every one from the operating system's CSPRNG
OS_SEEDS = Seeds(wall_seed=secret_wall_seed, game_id=new_game_id)
