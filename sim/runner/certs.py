"""A private certificate authority for a small lab's Dask cluster (``bwlab cluster-certs``).

Why: Dask's TLS (``distributed.Security``) admits a peer when its certificate is signed by the
cluster's CA, and checks nothing else (no host names: lab clusters are addressed by IP). So the
whole of a cluster's access control is *who holds a certificate signed by this CA*. This module
makes the CA and three certificates, one per role (scheduler, worker, client), with the
``cryptography`` package that Dask's own ``Security.temporary()`` uses.

The CA's private key is never written: nobody can issue another certificate for this cluster
later, and to let a machine out one makes a new set (``bwlab cluster-certs`` again) and hands it
to the machines that stay in. Private keys are written readable by their owner only (0600),
each file atomically; nothing is written when any file would replace an existing one.
"""

from __future__ import annotations

import datetime
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROLES = ("scheduler", "worker", "client")
CA_FILE = "ca.pem"
MAX_DAYS = 3650


@dataclass(frozen=True)
class Pem:
    name: str      # file name in the output folder
    data: bytes
    private: bool  # a private key: owner-only permissions


def role_files(role: str) -> tuple[str, str]:
    """(certificate, key) file names of ``role``."""
    return f"{role}.pem", f"{role}-key.pem"


def all_files() -> list[str]:
    return [CA_FILE] + [name for role in ROLES for name in role_files(role)]


def _key():
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())  # fast to make, accepted by every OpenSSL


def _name(common: str):
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Board Wars Lab cluster"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _certificate(subject, issuer, public_key, signing_key, days: int, ca: bool):
    """An X.509 v3 certificate: the CA's (may sign, nothing else) or a role's (TLS both ways:
    a worker is a server to the scheduler and a client of it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID

    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(public_key).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))  # clocks a little apart
               .not_valid_after(now + datetime.timedelta(days=days))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca else None),
                              critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key),
                              critical=False))
    usage = dict(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                 data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                 encipher_only=False, decipher_only=False)
    builder = builder.add_extension(x509.KeyUsage(**usage), critical=True)
    if not ca:
        builder = builder.add_extension(x509.ExtendedKeyUsage(
            [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    return builder.sign(signing_key, hashes.SHA256())


def make_cluster_files(days: int = 365) -> list[Pem]:
    """The CA certificate and each role's certificate and private key, in memory (PEM)."""
    from cryptography.hazmat.primitives import serialization

    pem = serialization.Encoding.PEM
    ca_key = _key()
    # a name of its own: two sets made on one day are told apart (and never confused by OpenSSL)
    ca_name = _name(f"Board Wars Lab cluster CA {datetime.date.today()} {secrets.token_hex(4)}")
    ca_cert = _certificate(ca_name, ca_name, ca_key.public_key(), ca_key, days, ca=True)
    files = [Pem(CA_FILE, ca_cert.public_bytes(pem), False)]
    for role in ROLES:
        key = _key()
        cert = _certificate(_name(f"bwlab-{role}"), ca_name, key.public_key(), ca_key, days,
                            ca=False)
        cert_name, key_name = role_files(role)
        files.append(Pem(cert_name, cert.public_bytes(pem), False))
        files.append(Pem(key_name, key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption()), True))
    return files


def write_files(folder: Path, files: list[Pem]) -> None:
    """Each file atomically (a temporary name, then a rename); keys 0600, certificates 0644."""
    folder.mkdir(parents=True, exist_ok=True)
    for pem in files:
        fd, tmp = tempfile.mkstemp(prefix=f".{pem.name}.", suffix=".tmp", dir=folder)  # 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(pem.data)
            if not pem.private:
                os.chmod(tmp, 0o644)
            os.replace(tmp, folder / pem.name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
