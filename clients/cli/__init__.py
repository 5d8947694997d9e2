"""``mahjong-cli``: the reference terminal client (Textual).

* :mod:`clients.cli.model` — the pure client state (server messages in, model out);
* :mod:`clients.cli.session` — the WebSocket session with resume and reconnect;
* :mod:`clients.cli.render` — model to rich renderables; :mod:`clients.cli.tiles` — tiles;
* :mod:`clients.cli.advice` — shanten and waits help; :mod:`clients.cli.autoplay` — ``--bot``;
* :mod:`clients.cli.app` — the Textual screens; :mod:`clients.cli.replay` — the log viewer;
* :mod:`clients.cli.main` — the command line.
"""
