"""GCC libstdc++'s ``std::sort``, ``std::nth_element`` and ``std::partial_sort``, replayed.

torch's CPU kernels (topk, mode, multinomial) run these algorithms on (value, index) pairs
compared by value only, so the order of tied values is whatever the algorithms leave. To
give torch's indices on ties, ember replays them step by step (introsort, introselect, heap
select) with the same comparator. ``less(x, y)`` is the comparator; lists are sorted in place.
"""

from __future__ import annotations

THRESHOLD = 16    # below it std::sort is a (stable) insertion sort


def _lg(n):
    return n.bit_length() - 1


def _move_median_to_first(a, result, x, y, z, less):
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            m = y
        elif less(a[x], a[z]):
            m = z
        else:
            m = x
    elif less(a[x], a[z]):
        m = x
    elif less(a[y], a[z]):
        m = z
    else:
        m = y
    a[result], a[m] = a[m], a[result]


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _partition_pivot(a, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _adjust_heap(a, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length & 1 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _make_heap(a, first, last, less):
    n = last - first
    if n < 2:
        return
    parent = (n - 2) // 2
    while True:
        _adjust_heap(a, first, parent, n, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result, less):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a, first, middle, last, less):
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _sort_heap(a, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last, less)


def partial_sort(a, first, middle, last, less):
    _heap_select(a, first, middle, last, less)
    _sort_heap(a, first, middle, less)


def _insertion_sort(a, first, last, less):
    if first == last:
        return
    for i in range(first + 1, last):
        val = a[i]
        if less(val, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _linear_insert(a, i, less)


def _linear_insert(a, last, less):
    val = a[last]
    nxt = last - 1
    while less(val, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = val


def _introsort_loop(a, first, last, depth, less):
    while last - first > THRESHOLD:
        if depth == 0:
            partial_sort(a, first, last, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def sort(a, first, last, less):
    """GCC's ``std::sort`` of ``a[first:last]`` in place."""
    if first == last:
        return
    _introsort_loop(a, first, last, _lg(last - first) * 2, less)
    if last - first > THRESHOLD:
        _insertion_sort(a, first, first + THRESHOLD, less)
        for i in range(first + THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def nth_element(a, nth, less):
    """GCC's ``std::nth_element`` over all of ``a``, in place."""
    first, last = 0, len(a)
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)
