"""``affine-lsp serve``: run the language server (stdio by default)."""

from __future__ import annotations

import argparse
import logging
import os
import sys

LOG_LEVELS = ("debug", "info", "warning", "error")


def add_arguments(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk LSP over standard input/output (the default)")
    mode.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        help="listen on a TCP socket instead, e.g. 127.0.0.1:2087 (port 0: any free port, printed). A loopback address only "
        "unless --allow-remote. A client must send the line 'affine-lsp-token: TOKEN' (ending in CRLF or LF) before its first "
        "message; TOKEN is generated at each start and written to a file readable only by you, whose path is printed on standard "
        "error, or read from --token-file. One client at a time (another is told so and closed); a client that disconnects leaves "
        "the server waiting for the next one (each gets a fresh session); a client's exit notification ends the server",
    )
    mode.add_argument(
        "--socket",
        metavar="PATH",
        help="listen on a Unix domain socket created at PATH with mode 0600 (only you can connect; no token unless --token-file): "
        "the recommended way to reach a long-running server. Sessions as with --tcp",
    )
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="with --tcp (or --socket): the token is the content of FILE (which must not be readable by others); "
        "when FILE does not exist, a new token is written there (mode 0600)",
    )
    p.add_argument("--allow-remote", action="store_true", help="let --tcp listen on an address that is not loopback (the token is sent in clear text)")
    p.add_argument("--session-child", action="store_true", help=argparse.SUPPRESS)  # one session of --tcp/--socket (serve_listener)
    p.add_argument("--log-level", choices=LOG_LEVELS, default="warning", help="logging level of the server's log (stderr or --log-file)")
    p.add_argument("--log-file", metavar="FILE", help="write the log to FILE instead of standard error (default: $AFFINE_LSP_LOG_FILE)")
    p.add_argument(
        "--debug-mirror",
        action="store_true",
        help="also keep pygls' copy of every document and check after each change that it equals ours (slow; for debugging)",
    )


def parse_hostport(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", text
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port in {text!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range in {text!r}")
    return host, number


M_ARENA_MAX = -8  # glibc's mallopt parameter


def limit_malloc_arenas(count: int = 2) -> bool:
    """At most ``count`` glibc malloc arenas (as ``MALLOC_ARENA_MAX``): by
    default every thread that allocates through malloc (isl does, in the
    analysis and request threads) may get an arena of its own, whose free
    space is never handed back (the peak it saves: docs/performance.md).
    Called before any thread starts; False where there is no glibc or the
    environment already says (``MALLOC_ARENA_MAX``)."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(M_ARENA_MAX, count))
    except (OSError, AttributeError):
        return False


def run(args: argparse.Namespace) -> int:
    log_file = args.log_file or os.environ.get("AFFINE_LSP_LOG_FILE")
    level = os.environ.get("AFFINE_LSP_LOG_LEVEL", args.log_level) if not args.log_file else args.log_level
    handler: logging.Handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.WARNING))

    if args.tcp or args.socket:
        from affine_lsp.commands import serve_listener

        tcp = None
        if args.tcp:
            try:
                tcp = parse_hostport(args.tcp)
            except argparse.ArgumentTypeError as e:
                print(f"affine-lsp serve: {e}", file=sys.stderr)
                return 2
        session = serve_listener.session_command(args.log_level, args.log_file, args.debug_mirror)
        return serve_listener.run(tcp=tcp, unix_path=args.socket, token_file=args.token_file, allow_remote=args.allow_remote, session_cmd=session)
    if args.token_file or args.allow_remote:
        print("affine-lsp serve: --token-file and --allow-remote go with --tcp or --socket", file=sys.stderr)
        return 2

    limit_malloc_arenas()

    early = None
    if os.environ.get("AFFINE_LSP_EARLY_INITIALIZE", "1") != "0":
        # initialize answered from its cache before pygls and the server load.
        from affine_lsp.server.runtime import early_initialize, early_open

        # With early_open, read on the descriptor (every byte kept for the replay).
        reader = early_open.reader_for(sys.stdin.buffer)
        early = early_initialize.read_first(reader or sys.stdin.buffer)
        if early_initialize.answer(early, sys.stdout.buffer) and reader is not None and early.message is not None:
            # The first opened file's first diagnostics, before the server loads.
            early_open.publish_first(early.message, reader, sys.stdout.buffer)
        if reader is not None:
            early.prefix = bytes(reader.data)

    from affine_lsp.server import create_server
    from affine_lsp.server.runtime import memory

    # Hand the interpreter to the event loop more often while a worker thread
    # analyses (requests stay responsive).
    sys.setswitchinterval(0.001)

    server = create_server(debug_mirror=args.debug_mirror)
    # The parser tables, the analyses and the dataflow worker are loaded
    # (forked) once initialize is answered (see on_initialized).
    server.prefork = os.environ.get("AFFINE_LSP_PREFORK", "1") != "0"
    server.early = early
    memory.install(server)  # (server/runtime/memory.py: what the collector walks, and when)
    if early is not None:
        server.start_io(stdin=early_initialize.Replay(early.prefix, sys.stdin.buffer))  # the bytes read again
    else:
        server.start_io()
    if not args.session_child:
        return server.exit_code or 0  # the client's exit: 0 after shutdown, else 1 (the LSP); the input's end: 0
    from affine_lsp.commands import serve_listener as sl

    return {None: sl.SESSION_DISCONNECTED, 0: 0}.get(server.exit_code, sl.SESSION_EXIT_WITHOUT_SHUTDOWN)
