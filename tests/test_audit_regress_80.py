"""Regression audit of stop 80 (boards compiled once per tile layout, arenas sized to the games
they play, the clustering fast paths)."""

import numpy as np

from sim.analysis.cluster import cluster_ids, clustered_mean


def test_cluster_ids_takes_large_integer_labels_as_before_stop_80():
    """Labels such as board seeds or game ids (any integers) were compacted by np.unique until
    stop 80; the compact-labels fast path must not count them with np.bincount (one slot per
    integer up to the largest: a MemoryError at 10**12)."""
    labels = np.array([10**12, 3, 10**12, 7])
    ids, g = cluster_ids(labels, 4)
    assert g == 3 and ids.tolist() == [2, 0, 2, 1]
    m = clustered_mean(np.array([1.0, 0.0, 1.0, 0.0]), np.array([2**40, 5, 2**40, 5]))
    assert m.n_clusters == 2 and abs(float(m.rate) - 0.5) < 1e-12
