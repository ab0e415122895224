"""A stored shot map's cells cut into blocks: every cell once, in order, whatever the count
(a short last block joins the one before; that join once lost or doubled cells)."""

import pytest

from carromlab.analysis.shotmap import _blocks


@pytest.mark.parametrize("cells", [1, 2, 5, 8, 9, 10, 17, 30, 31])
@pytest.mark.parametrize("size", [1, 4, 8])
def test_blocks_hold_every_cell_once_in_order(cells, size):
    todo = list(range(100, 100 + cells))
    n, chunk = 30, 4096  # every block shorter than a chunk: the last one always joins
    blocks = _blocks(todo, size, n, chunk)
    assert [c for b in blocks for c in b] == todo
    assert all(blocks)


def test_a_long_last_block_stays_apart():
    assert _blocks(list(range(10)), 4, 2100, 4096) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert _blocks(list(range(10)), 4, 1000, 4096) == [[0, 1, 2, 3], [4, 5, 6, 7, 8, 9]]
