"""`python -m server`: the same as `mahjong-server`."""

from server.cli import main

raise SystemExit(main())
