"""Answers that the CLI (``commands/``) and the server (``server/``) both
give, without LSP types: plain data and JSON, never lsprotocol or pygls.
``server/`` and ``commands/`` import this package, never each other
(``tests/test_layering.py`` checks it; ``commands/serve.py``, which starts
the server, is the one exception).
"""
