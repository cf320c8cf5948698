"""Special functions in NumPy: normal, Student t and beta quantiles, regularised incomplete beta.

Why not scipy: scipy is a *test* extra of this project (pyproject ``[test]``), not a runtime
dependency, while the reports, the AI ladder and the CI drift gate import ``sim.analysis`` at run
time. The few special functions the statistics layer needs are small and are checked against
scipy in ``tests/test_analysis_special.py`` (scipy serves as the independent oracle there).

Sources:
- normal quantile: P. J. Acklam's rational approximation (relative error < 1.15e-9), refined by
  one Halley step on ``erfc`` (then accurate to ~1e-15); see W. J. Cody (1969) for ``erfc``.
- regularised incomplete beta I_x(a, b): the continued fraction of Numerical Recipes (Press et al.,
  3rd ed., section 6.4, ``betacf``) evaluated by the modified Lentz method, with the symmetry
  I_x(a, b) = 1 - I_{1-x}(b, a) so that the fraction converges quickly.
- quantiles of beta and t: safeguarded Newton (few values) or bisection (large arrays) on the
  monotone CDF.
"""

from __future__ import annotations

import math

import numpy as np

_erfc = np.frompyfunc(math.erfc, 1, 1)
_lgamma = np.frompyfunc(math.lgamma, 1, 1)

# Acklam's coefficients (central and tail rational approximations of the normal quantile).
_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
      1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
      6.680131188771972e01, -1.328068155288572e01)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
      -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
      3.754408661907416e00)


def erfc(x):
    """Complementary error function, elementwise (``math.erfc`` over an array)."""
    return np.asarray(_erfc(np.asarray(x, dtype=float)), dtype=float)


def norm_cdf(x):
    """Standard normal CDF Phi(x), elementwise, accurate in both tails (via ``erfc``)."""
    return 0.5 * erfc(-np.asarray(x, dtype=float) / math.sqrt(2.0))


def norm_sf(x):
    """Standard normal survival function 1 - Phi(x), accurate in the upper tail."""
    return 0.5 * erfc(np.asarray(x, dtype=float) / math.sqrt(2.0))


def norm_ppf(p):
    """Standard normal quantile Phi^{-1}(p), elementwise; -inf/inf at 0/1, nan outside [0, 1]."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    plow = 0.02425
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = (p > 0) & (p < plow)
        hi = (p < 1) & (p > 1 - plow)
        mid = (p >= plow) & (p <= 1 - plow)
        q = np.sqrt(-2 * np.log(np.where(lo, p, 0.5)))
        out = np.where(lo, (((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5])
                       / ((((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1), out)
        q = np.sqrt(-2 * np.log(np.where(hi, 1 - p, 0.5)))
        out = np.where(hi, -(((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5])
                       / ((((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1), out)
        q = np.where(mid, p, 0.5) - 0.5
        r = q * q
        out = np.where(mid, (((((_A[0] * r + _A[1]) * r + _A[2]) * r + _A[3]) * r + _A[4]) * r + _A[5]) * q
                       / (((((_B[0] * r + _B[1]) * r + _B[2]) * r + _B[3]) * r + _B[4]) * r + 1), out)
        # One Halley step: e = Phi(x) - p, u = e * sqrt(2 pi) * exp(x^2 / 2).
        inner = lo | hi | mid
        x = np.where(inner, out, 0.0)
        e = 0.5 * erfc(-x / math.sqrt(2.0)) - np.where(inner, p, 0.5)
        # In the upper tail refine on the survival function to keep relative accuracy.
        e = np.where(hi, (1 - np.where(hi, p, 0.5)) - 0.5 * erfc(x / math.sqrt(2.0)), e)
        u = e * math.sqrt(2 * math.pi) * np.exp(x * x / 2)
        out = np.where(inner, x - u / (1 + x * u / 2), out)
    out = np.where(p == 0, -np.inf, out)
    out = np.where(p == 1, np.inf, out)
    return out if out.ndim else float(out)


def _betacf(a, b, x, max_iter=20000, eps=1e-16):
    """Continued fraction of I_x(a, b) (Numerical Recipes ``betacf``), vectorised with Lentz."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = np.where(np.abs(d) < tiny, tiny, d)
    d = 1.0 / d
    h = d.copy()
    active = np.ones(x.shape, dtype=bool)
    for m in range(1, max_iter + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        h = np.where(active, h * d * c, h)
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = d * c
        h = np.where(active, h * delta, h)
        active &= np.abs(delta - 1.0) > eps
        if not active.any():
            break
    return h


def betainc(a, b, x):
    """Regularised incomplete beta I_x(a, b) for a, b > 0 and 0 <= x <= 1, elementwise."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, x)))
    a, b, x = a.astype(float), b.astype(float), x.astype(float)
    out = np.full(x.shape, np.nan)
    ok = (a > 0) & (b > 0) & (x >= 0) & (x <= 1)
    interior = ok & (x > 0) & (x < 1)
    out[ok & (x == 0)] = 0.0
    out[ok & (x == 1)] = 1.0
    if interior.any():
        ai, bi, xi = a[interior], b[interior], x[interior]
        swap = xi > (ai + 1.0) / (ai + bi + 2.0)
        aa, bb, xx = np.where(swap, bi, ai), np.where(swap, ai, bi), np.where(swap, 1 - xi, xi)
        lbt = (np.asarray(_lgamma(aa + bb), dtype=float) - np.asarray(_lgamma(aa), dtype=float)
               - np.asarray(_lgamma(bb), dtype=float) + aa * np.log(xx) + bb * np.log1p(-xx))
        val = np.exp(lbt) * _betacf(aa, bb, xx) / aa
        out[interior] = np.where(swap, 1.0 - val, val)
    return out if out.ndim else float(out)


def _betainc_scalar(a: float, b: float, x: float) -> float:
    """Scalar I_x(a, b) in plain Python (same continued fraction; fast for one value)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    swap = x > (a + 1.0) / (a + b + 2.0)
    if swap:
        a, b, x = b, a, 1.0 - x
    tiny, eps = 1e-300, 1e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 20001):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) <= eps:
            break
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    val = math.exp(lbt) * h / a
    return 1.0 - val if swap else val


def _beta_ppf_scalar(q: float, a: float, b: float) -> float:
    """Beta quantile by Newton steps on I_x(a, b) - q, kept inside a shrinking bisection bracket."""
    if not (a > 0 and b > 0 and 0 <= q <= 1):
        return math.nan
    if q == 0 or q == 1:
        return float(q)
    lo, hi = 0.0, 1.0
    x = a / (a + b)
    log_norm = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    for _ in range(300):
        f = _betainc_scalar(a, b, x) - q
        if f == 0:
            return x
        if f < 0:
            lo = x
        else:
            hi = x
        log_pdf = log_norm + (a - 1) * math.log(x) + (b - 1) * math.log1p(-x)
        pdf = math.exp(log_pdf) if log_pdf < 700 else math.inf
        new = x - f / pdf if pdf > 0 else 0.5 * (lo + hi)
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        if abs(new - x) <= 1e-15 * max(x, 1e-300) or hi - lo <= 1e-17 * max(hi, 1e-300):
            return new
        x = new
    return x


def beta_ppf(q, a, b, iterations=200):
    """Quantile of the Beta(a, b) distribution at probability q, elementwise.

    Small inputs (<= 64 values) use safeguarded Newton per value; larger arrays use vectorised
    bisection on ``betainc`` (``iterations`` halvings at most).
    """
    q, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (q, a, b)))
    if q.size <= 64:
        out = np.array([_beta_ppf_scalar(float(qq), float(aa), float(bb))
                        for qq, aa, bb in zip(q.ravel(), a.ravel(), b.ravel())]).reshape(q.shape)
        return out if out.ndim else float(out)
    lo, hi = np.zeros(q.shape), np.ones(q.shape)
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        if np.all((mid == lo) | (mid == hi)):
            break
        below = betainc(a, b, mid) < q
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    out = 0.5 * (lo + hi)
    out = np.where(q <= 0, 0.0, np.where(q >= 1, 1.0, out))
    out = np.where((a > 0) & (b > 0) & (q >= 0) & (q <= 1), out, np.nan)
    return out if out.ndim else float(out)


def t_ppf(p, df):
    """Quantile of Student's t with ``df`` degrees of freedom (df = inf gives the normal).

    Uses P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2) (Abramowitz & Stegun 26.7.1), inverted by
    ``beta_ppf``.
    """
    p, df = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(df, dtype=float))
    tail = np.minimum(p, 1 - p)  # one-sided tail probability
    x = beta_ppf(2 * tail, df / 2, 0.5)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.sqrt(df * (1 - x) / x)
    t = np.where(p < 0.5, -t, t)
    t = np.where(p == 0.5, 0.0, t)
    t = np.where(np.isinf(df), norm_ppf(p), t)
    return t if t.ndim else float(t)


def chi2_sf(x, df: int):
    """Chi-square survival function P(X > x) for a positive integer ``df``, closed form.

    Even df = 2m: exp(-x/2) sum_{i<m} (x/2)^i / i!. Odd df = 2m+1:
    2 (1 - Phi(sqrt x)) + 2 phi(sqrt x) sum_{i<m} x^(i+1/2) / (1 * 3 * ... * (2i+1))
    (Abramowitz & Stegun 26.4.4-26.4.5).
    """
    df = int(df)
    if df < 1:
        raise ValueError("df must be a positive integer")
    x = np.clip(np.asarray(x, dtype=float), 0.0, None)
    if df % 2 == 0:
        term = np.exp(-x / 2)
        total = term.copy()
        for i in range(1, df // 2):
            term = term * (x / 2) / i
            total = total + term
    else:
        r = np.sqrt(x)
        total = 2 * norm_sf(r)
        term = r * np.exp(-x / 2) / math.sqrt(2 * math.pi)
        for i in range(df // 2):
            total = total + 2 * term
            term = term * x / (2 * i + 3)
    total = np.clip(total, 0.0, 1.0)
    return total if total.ndim else float(total)
