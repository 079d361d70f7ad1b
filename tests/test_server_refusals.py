"""A request the server refuses (a rename onto a name in use) is an answer
to the client with the reason, and one INFO line in the log: no ERROR, no
traceback."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.test_server_support import SERVER_CMD, make_client, open_doc, pos, server_env, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

LOG = Path(tempfile.mkdtemp(prefix="affine-lsp-refusals-")) / "server.log"
CMD = [*SERVER_CMD[: SERVER_CMD.index("--log-level")], "--log-level", "info", "--log-file", str(LOG)]
URI = "file:///tmp/affine-lsp-test/refusals.mlir"
TEXT = "func.func @f(%a: index, %b: index) -> index {\n  %c = arith.addi %a, %b : index\n  return %c : index\n}\n"


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=CMD, client_factory=make_client, server_env=server_env()))
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    open_doc(lsp_client, URI, TEXT)
    yield
    await lsp_client.shutdown_session()


async def test_a_refused_rename_is_logged_as_a_refusal_not_a_fault(client: LanguageClient) -> None:
    with pytest.raises(JsonRpcException) as e:
        await client.text_document_rename_async(
            types.RenameParams(text_document=types.TextDocumentIdentifier(uri=URI), position=pos(TEXT, "%c ="), new_name="%a")
        )
    assert "'%a' is already defined in this function" in str(e.value)
    # The answer precedes the log line by a moment: a second request orders them.
    await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=pos(TEXT, "%c =")))
    log = LOG.read_text()
    assert "request refused: '%a' is already defined in this function" in log
    assert "Traceback" not in log and " ERROR " not in log, log
