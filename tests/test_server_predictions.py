"""Code actions carry the predicted effect of a transformation (issue #29),
through the real server (pytest-lsp): a profitable fusion says what it does
("fuses 2 nests; %tmp no longer written to memory; compute +0%") and is the
preferred action; a legal but unprofitable fusion (the inner pair of the 2mm chain
fused at depth 1) is offered last (with the other unprofitable rewrites), marked "not
profitable" with the recomputation it causes."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_fusion_profit import PRODUCER_CONSUMER_PAIR, TWO_MM
from tests.test_server_support import code_actions_at, config, pos, serving

pytestmark = pytest.mark.asyncio(loop_scope="module")

from affine_lsp.transforms.fusion import fuse_all  # noqa: E402

# the 2mm chain fused at depth 1: the inner pair left is only fusable with
# recomputation
TEXT = fuse_all(TWO_MM) + "\n" + PRODUCER_CONSUMER_PAIR
URI = "file:///predictions.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT):
        yield


async def actions(client: LanguageClient, p: types.Position) -> list[types.CodeAction]:
    return await code_actions_at(client, URI, p)


async def test_profitable_fusion_title_carries_the_predicted_effect(client: LanguageClient):
    got = await actions(client, pos(TEXT, "affine.for %i", nth=2, delta=3))  # the consumer of @pc
    fuse = [a for a in got if a.title.startswith("Fuse loops here")]
    assert len(fuse) == 1, [a.title for a in got]
    assert fuse[0].title.endswith("(fuses 2 nests; %tmp no longer written to memory; compute +0%)")
    assert fuse[0].is_preferred is True
    assert got.index(fuse[0]) == 0  # predicted profitable: listed first


async def test_unprofitable_fusion_is_listed_last_and_marked(client: LanguageClient):
    got = await actions(client, pos(TEXT, "affine.for %j = 0 to 7", delta=3))  # the inner consumer of @two_mm
    titles = [a.title for a in got]
    fuse = [a for a in got if a.title.startswith("Fuse loops here")]
    assert len(fuse) == 1, titles
    assert "depth 2" in fuse[0].title
    assert fuse[0].title.endswith("(not profitable: legal, but recomputes the producer 7.0x per element: ~3.5x more work)")
    assert not fuse[0].is_preferred
    assert fuse[0].edit is not None  # still offered (legal), as the last action
    # the rewrites predicted unprofitable (this fusion, tiling a nest whose
    # data fit in cache) come after every other action
    marked = [a for a in got if "(not profitable: " in a.title]
    assert fuse[0] in marked and len(marked) < len(got), titles
    assert got[len(got) - len(marked) :] == marked, titles
