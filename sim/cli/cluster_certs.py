"""``bwlab cluster-certs OUTDIR``: a private CA and the certificates of a small lab's Dask cluster."""

from __future__ import annotations

from pathlib import Path

import click

from ._paths import OUT_FOLDER


@click.command("cluster-certs")
@click.argument("outdir", type=OUT_FOLDER)
@click.option("--days", type=click.IntRange(1, 3650), default=365, show_default=True,
              help="How long the certificates are valid.")
def cluster_certs(outdir: Path, days: int):
    """Write a private CA (ca.pem) and the scheduler's, workers' and client's certificates and
    keys into OUTDIR, for `dask scheduler/worker --tls-*` and `bwlab run --tls-*`.

    The CA's key is not kept: no one can issue more certificates for this cluster; to let a
    machine out, make a new set. Keys are readable by their owner only. Existing files are
    never replaced. See docs/security.md.
    """
    from sim.catalogue.diagnostics import InputError, Problem
    from sim.runner.certs import ROLES, all_files, make_cluster_files, role_files, write_files

    clash = [name for name in all_files() if (outdir / name).exists()]
    if clash:
        raise InputError([Problem(str(outdir / clash[0]), None, "OUTDIR", f"exists ({len(clash)} "
                                  "of the cluster's files are already here); refusing to replace "
                                  "a cluster's keys: choose another folder")])
    try:
        files = make_cluster_files(days)
    except ImportError:
        raise InputError([Problem(str(outdir), None, "cluster-certs", "needs the `cryptography` "
                                  "package: pip install -e '.[cluster]'")]) from None
    write_files(outdir, files)
    click.echo(f"wrote {outdir}: ca.pem and, for each of {', '.join(ROLES)}, NAME.pem "
               "(certificate) and NAME-key.pem (private key, 0600)")
    tls = "--tls-ca-file {d}/ca.pem --tls-cert {d}/{c} --tls-key {d}/{k}".format
    for role, command in (("scheduler", "dask scheduler --host tls://HEAD_IP --dashboard-address "
                                        "127.0.0.1:8787"),
                          ("worker", "dask worker tls://HEAD_IP:8786 --host WORKER_IP"),
                          ("client", "bwlab run EXPERIMENT --backend dask --scheduler "
                                     "tls://HEAD_IP:8786")):
        cert, key = role_files(role)
        click.echo(f"  {role + ':':11} {command} {tls(d=outdir, c=cert, k=key)}")
    click.echo("copy ca.pem and only its own role's pair to each machine; the files are the "
               "cluster's whole access control")
