"""`mahjong-server` / `python -m server`: run the game server."""

from __future__ import annotations

import asyncio
import json
import logging
import sys

from server.app import run_server
from server.config import load_config
from server.embedded import EmbeddedRedis, EmbeddedRedisError
from server.logs import setup_logging
from server.store import Store

log = logging.getLogger("mahjong.server")


def main(argv: list[str] | None = None) -> int:
    cfg = load_config(argv)
    setup_logging(cfg.log_level, cfg.log_json)
    embedded: EmbeddedRedis | None = None
    url = cfg.redis_url
    if not url:
        try:
            embedded = EmbeddedRedis(cfg.data_path, cfg.redis_server)
            embedded.start()
        except EmbeddedRedisError as exc:
            log.error(str(exc))
            return 2
        url = embedded.url

    def ready(port: int) -> None:
        # one machine-readable line on stdout so supervisors and tests learn the port
        print(json.dumps({"listening": port}), flush=True)

    try:
        asyncio.run(run_server(cfg, Store.from_url(url, cfg.redis_pool_size), ready))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        log.error("cannot start: %s", exc)
        return 1
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
