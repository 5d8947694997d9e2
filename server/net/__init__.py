"""The network edge: the WebSocket and HTTP on one port (the only code that touches websockets), where each connection comes from, and the browser client's files."""
