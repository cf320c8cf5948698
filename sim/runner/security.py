"""Who may talk to a Dask cluster: the client's TLS configuration and the plain-TCP warning.

Why: a Dask scheduler runs whatever Python its clients submit, on every worker. On a plain
``tcp://`` address anyone who reaches the port is such a client, so ``bwlab run`` says so (one
line on stderr) whenever the scheduler is not on this machine's loopback. A ``tls://`` address
is encrypted and mutually authenticated with Dask's own :class:`distributed.Security`: the
scheduler admits only peers holding a certificate signed by the cluster's CA, and the client
checks the scheduler's the same way (``bwlab cluster-certs`` makes such a CA; docs/security.md).

The files come from ``--tls-ca-file/--tls-cert/--tls-key`` or, for each one not given, from
Dask's standard configuration (``distributed.comm.tls.ca-file``, ``...client.cert``,
``...client.key``; a YAML file or ``DASK_DISTRIBUTED__COMM__TLS__...``). Each is checked before
anything connects or is written: a missing, unreadable or non-PEM file is one line naming it
and the flag (or configuration key) it came from, exit 2.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from pathlib import Path
from urllib.parse import urlsplit

from sim.catalogue.diagnostics import InputError, Problem

# Security field -> (bwlab flag, Dask configuration key): the names Dask's own CLI uses
TLS_SOURCES = {
    "tls_ca_file": ("--tls-ca-file", "distributed.comm.tls.ca-file"),
    "tls_client_cert": ("--tls-cert", "distributed.comm.tls.client.cert"),
    "tls_client_key": ("--tls-key", "distributed.comm.tls.client.key"),
}
PLAIN_SCHEMES = ("tcp", "ws")       # Dask comms without encryption or authentication
ENCRYPTED_SCHEMES = ("tls", "wss")


def scheme_and_host(address: str) -> tuple[str, str | None]:
    """The comm scheme (Dask's default ``tcp`` when none is written) and host of ``address``."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host = parts.hostname
    except ValueError:
        host = None
    return parts.scheme.lower(), host


def is_loopback(host: str | None) -> bool:
    """True when every address ``host`` names is this machine's loopback. A name that does not
    resolve is not loopback (the connection that follows reports it)."""
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0].split("%")[0]).is_loopback
                               for i in infos)


def plain_warning(address: str) -> str | None:
    """The stderr warning for an unencrypted scheduler off this machine's loopback, or None."""
    scheme, host = scheme_and_host(address)
    if scheme not in PLAIN_SCHEMES or is_loopback(host):
        return None
    return (f"warning: {address} is a plain {scheme}:// Dask scheduler: anyone who can reach its "
            "port can run arbitrary Python on every worker and read or alter results; use "
            "tls:// with the cluster's certificates (bwlab cluster-certs, docs/security.md)")


def client_security(address: str, ca_file: Path | None = None, cert: Path | None = None,
                    key: Path | None = None):
    """The client's ``distributed.Security`` for ``address`` (None: Dask's defaults), checked.

    ``tls://``: the flags, else Dask's configuration, must name the CA and the client's
    certificate (its key may be in the same file). ``tcp://`` with ``--tls-*`` flags is refused:
    the files would go unused and the run would travel in clear.
    """
    scheme, _ = scheme_and_host(address)
    given = {f: str(v) for f, v in zip(TLS_SOURCES, (ca_file, cert, key)) if v is not None}
    if scheme not in ENCRYPTED_SCHEMES:
        if given:
            flags = ", ".join(TLS_SOURCES[f][0] for f in given)
            raise InputError([Problem(address, None, "--scheduler", f"{flags} given but this is "
                                      f"a plain {scheme}:// address; give the scheduler's "
                                      "tls://HOST:PORT")])
        return None
    try:
        from distributed import Security
    except ImportError:
        raise InputError([Problem(address, None, "--scheduler", "the Dask backend needs "
                                  "`pip install -e '.[cluster]'`")]) from None
    security = Security(require_encryption=True, **given)
    problems = []
    for field in ("tls_ca_file", "tls_client_cert"):
        if not getattr(security, field):
            flag, config = TLS_SOURCES[field]
            problems.append(Problem(address, None, flag, f"a {scheme}:// scheduler needs {flag} "
                                    f"(or {config} in Dask's configuration); bwlab "
                                    "cluster-certs makes the cluster's files"))
    if not problems:
        problems = _file_problems(security, given)
    if problems:
        raise InputError(problems)
    return security


def _source(field: str, given: dict) -> str:
    flag, config = TLS_SOURCES[field]
    return flag if field in given else config


def _file_problems(security, given: dict) -> list[Problem]:
    """One problem per file that is missing, unreadable or not what it should be (PEM)."""
    problems = []
    for field in TLS_SOURCES:
        value = getattr(security, field)
        if not value or "\n" in value:  # unset key (in the cert file) or PEM held in memory
            continue
        path = Path(value)
        why = None
        if not path.exists():  # a link to nothing is not a missing file: say which it is
            why = "a link that leads nowhere (dangling, or a loop)" if path.is_symlink() \
                else "not found"
        elif not path.is_file():
            why = "is not a file"
        else:
            try:
                path.open("rb").close()
            except OSError as exc:
                why = f"cannot be read: {exc.strerror or exc}"
        if why:
            problems.append(Problem(value, None, _source(field, given), why))
    if problems:
        return problems
    return _pem_problems(security, given)


class _PassPhraseAsked(Exception):
    pass


def _no_pass_phrase():
    raise _PassPhraseAsked


def _encrypted(cert: str, key: str | None) -> bool:
    """Whether the client's key asks for a pass phrase. Why ask first: Dask loads the pair with
    no pass phrase, and OpenSSL then prompts on the terminal (twice) in the middle of the
    checks, or without one fails as "invalid argument", never saying the key is encrypted (the
    inputs audit of stop 74)."""
    if "\n" in cert or (key and "\n" in key):  # PEM held in memory: load_cert_chain reads files
        return False
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_cert_chain(cert, key or None,
                                                                password=_no_pass_phrase)
    except _PassPhraseAsked:
        return True
    except (ssl.SSLError, ValueError, OSError):
        return False  # the pair's own check says what is wrong
    return False


def _pem_problems(security, given: dict) -> list[Problem]:
    """The CA and the certificate must load as PEM certificates, the certificate with its key
    as a pair."""
    ca, cert, key = (getattr(security, f) for f in TLS_SOURCES)
    for field, value, what in (("tls_ca_file", ca, "CA certificate"),
                               ("tls_client_cert", cert, "certificate")):
        try:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            if "\n" in value:
                context.load_verify_locations(cadata=value)
            else:
                context.load_verify_locations(cafile=value)
        except (ssl.SSLError, ValueError) as exc:
            return [Problem(_where(value), None, _source(field, given),
                            f"not a PEM {what} ({_reason(exc)})")]
    if _encrypted(cert, key):
        field, value = ("tls_client_key", key) if key else ("tls_client_cert", cert)
        return [Problem(_where(value), None, _source(field, given),
                        "the key is encrypted (it asks for a pass phrase), and Dask loads it "
                        "without one: give it unencrypted (openssl pkey -in KEY -out NEW), "
                        "readable by you only")]
    try:
        security.get_connection_args("client")
    except (ssl.SSLError, ValueError, OSError) as exc:
        field, value = ("tls_client_key", key) if key else ("tls_client_cert", cert)
        return [Problem(_where(value), None, _source(field, given),
                        f"certificate and key do not load as a pair ({_reason(exc)})")]
    return []


def _where(value: str) -> str:
    return "(PEM in Dask's configuration)" if "\n" in value else value


def _reason(exc: Exception) -> str:
    reason = getattr(exc, "reason", None) or str(exc).splitlines()[0] or type(exc).__name__
    return str(reason).replace("_", " ").lower()
