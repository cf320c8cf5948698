"""Experiments at scale: experiment files, batches of games in parallel (joblib locally, Dask on a
cluster), atomic per-batch Parquet results with a manifest, resume, and streaming aggregates."""
