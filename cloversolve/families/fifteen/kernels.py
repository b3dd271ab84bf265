"""The numba kernels of the ``fifteen`` search (:mod:`.search` describes the state and runs
them): the legal groups, the perft count, the depth-first search, the encoding of a position's
candidate groups and the cells of a route."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search.kernel import (
    EXHAUSTED,
    FIRST_FAMILY_SLOT,
    FOUND,
    MAX_DEPTH_SLOT,
    NODES_SLOT,
    PAUSED,
    RUNNING,
    STATES_SLOT,
    TABLE_FULL,
    kernel,
)
from ...search.table import insert, probe

# Slots of the kernel's counter array.
_NODES, _STATES, _MAX_DEPTH = NODES_SLOT, STATES_SLOT, MAX_DEPTH_SLOT
_DEPTH, _BUDGET = range(FIRST_FAMILY_SLOT, FIRST_FAMILY_SLOT + 2)


# -- kernels --------------------------------------------------------------------------------


@njit(cache=True)
def _legal_groups(masks, needs, removed, count):
    """Indices of the groups that can be taken with ``removed`` cards gone (``count`` of them)."""
    found = np.empty(masks.shape[0], dtype=np.int64)
    total = 0
    for index in range(masks.shape[0]):
        if masks[index] & removed == 0 and needs[index] <= count:
            found[total] = index
            total += 1
    return found[:total]


@njit(cache=True)
def _count_lines(masks, needs, sizes, depth):
    """Perft: the number of move sequences of exactly ``depth`` moves from the start."""
    groups = masks.shape[0]
    stack_mask = np.zeros(depth + 1, dtype=np.int64)
    stack_count = np.zeros(depth + 1, dtype=np.int64)
    stack_next = np.zeros(depth + 1, dtype=np.int64)
    if depth == 0:
        return 1
    lines = 0
    level = 0
    while level >= 0:
        index = stack_next[level]
        while index < groups and not (
            masks[index] & stack_mask[level] == 0 and needs[index] <= stack_count[level]
        ):
            index += 1
        if index == groups:
            level -= 1
            continue
        stack_next[level] = index + 1
        if level + 1 == depth:
            lines += 1
            continue
        stack_mask[level + 1] = stack_mask[level] | masks[index]
        stack_count[level + 1] = stack_count[level] + sizes[index]
        stack_next[level + 1] = 0
        level += 1
    return lines


@kernel
def _dfs(
    masks,
    needs,
    sizes,
    courts,
    group_keys,
    full,
    force_courts,
    stack_mask,
    stack_count,
    stack_next,
    stack_move,
    stack_hash,
    counters,
    table,
    max_table,
    full_at,
):
    """Depth-first search from the frames on the stack; resumable.

    Runs until a win, exhaustion, ``counters[_BUDGET]`` more nodes, or (``TABLE_FULL``) a table
    that holds ``full_at`` states and should double before the next state is stored (only
    while smaller than ``max_table``; a full largest table stores no more states, which keeps
    the search exact).
    The route is ``stack_move[:counters[_DEPTH]]`` after a win.
    """
    groups = masks.shape[0]
    budget_end = counters[_NODES] + counters[_BUDGET]
    depth = counters[_DEPTH]
    status = RUNNING
    while status == RUNNING:
        if depth == 0:
            status = EXHAUSTED
            break
        if counters[_NODES] >= budget_end:
            status = PAUSED
            break
        if counters[_STATES] >= full_at and table.shape[0] < max_table:
            status = TABLE_FULL
            break
        top = depth - 1
        removed = stack_mask[top]
        count = stack_count[top]
        index = stack_next[top]
        while index < groups and not (masks[index] & removed == 0 and needs[index] <= count):
            index += 1
        if index == groups:
            depth -= 1
            continue
        stack_next[top] = groups if force_courts and courts[index] else index + 1
        child = removed | masks[index]
        stack_move[top] = index
        counters[_NODES] += 1
        if child == full:
            if depth + 1 > counters[_MAX_DEPTH]:
                counters[_MAX_DEPTH] = depth + 1
            status = FOUND
            break
        child_hash = stack_hash[top] ^ group_keys[index]
        if probe(table, child_hash, child):
            continue
        if counters[_STATES] < full_at:
            insert(table, child_hash, child)
            counters[_STATES] += 1
        stack_mask[depth] = child
        stack_count[depth] = count + sizes[index]
        stack_next[depth] = 0
        stack_hash[depth] = child_hash
        depth += 1
        if depth > counters[_MAX_DEPTH]:
            counters[_MAX_DEPTH] = depth
    counters[_DEPTH] = depth
    return status


@njit(cache=True)
def _encode(
    group_slots,
    group_courts,
    order_slots,
    slot_count,
    grid_count,
    card_keys,
    members,
    masks,
    needs,
    sizes,
    courts,
    keys,
):
    """The candidate groups of a position whose cards are all present, as flat arrays,
    written to the first rows of the arrays given (one row per row of ``group_slots``);
    returns how many groups there are.

    ``order_slots`` gives the deck slot of each card in visibility order (``slot_count``
    slots in the deck). The rows hold members (indices, -1 padded), masks, needs (removals
    before the group is all visible), sizes, court flags and Zobrist keys. (Arrays from the
    caller: an array a kernel returns costs Python more than the whole encoding.)
    """
    index_of_slot = np.empty(slot_count, dtype=np.int64)
    for slot in range(slot_count):  # (loops instead of np.full: quicker to compile)
        index_of_slot[slot] = -1
    for index in range(order_slots.shape[0]):
        index_of_slot[order_slots[index]] = index
    count = 0
    for row in range(group_slots.shape[0]):
        present = True
        for column in range(group_slots.shape[1]):
            slot = group_slots[row, column]
            if slot >= 0 and index_of_slot[slot] < 0:
                present = False
        if not present:
            continue
        mask = 0
        key = np.uint64(0)
        size = 0
        last = -1
        for column in range(group_slots.shape[1]):
            members[count, column] = -1
        for column in range(group_slots.shape[1]):
            slot = group_slots[row, column]
            if slot < 0:
                break
            index = index_of_slot[slot]
            members[count, column] = index
            mask |= np.int64(1) << index
            key ^= card_keys[index]
            size += 1
            last = max(last, index)
        masks[count] = mask
        keys[count] = key
        sizes[count] = size
        needs[count] = max(0, last - grid_count + 1)
        courts[count] = group_courts[row]
        count += 1
    return count


@njit(cache=True)
def _route_cells(members, moves, grid_cells, card_count):
    """The cells of each group in ``moves`` (rows ascending, padded with 0), replayed on the
    real grid: each freed cell takes the next stock card, in ascending cell order.

    ``grid_cells`` holds the cell numbers of the grid cards in visibility order.
    """
    cell_of = np.zeros(card_count, dtype=np.int64)
    for card in range(grid_cells.shape[0]):  # (a loop: a slice copy compiles shape checks)
        cell_of[card] = grid_cells[card]
    next_card = grid_cells.shape[0]
    route = np.zeros((moves.shape[0], members.shape[1]), dtype=np.int64)
    for step in range(moves.shape[0]):
        size = 0
        for card in members[moves[step]]:
            if card < 0:
                break
            cell = cell_of[card]
            column = size
            while column > 0 and route[step, column - 1] > cell:
                route[step, column] = route[step, column - 1]
                column -= 1
            route[step, column] = cell
            size += 1
        for column in range(size):
            if next_card < card_count:
                cell_of[next_card] = route[step, column]
                next_card += 1
    return route
