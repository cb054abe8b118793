"""The random names of a class session: its join code (read aloud, typed on a phone), the teacher's secret and a
student device's id, all drawn by ``secrets`` (the operating system's generator), and the checks that a value from
an address or a cookie is one of them before it reaches the store."""

from __future__ import annotations

import re
import secrets

#: Join-code letters and digits none of which is read as another (no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V).
ALPHABET = "34679ACDEFGHJKMNPQRTWXY"
#: Characters of a join code: 23⁶ ≈ 1.5 × 10⁸ codes, against some tens of sessions open at once.
LENGTH = 6
_CODE = re.compile(f"[{ALPHABET}]{{{LENGTH}}}")
#: Bytes of the teacher's secret and of a device id (hex: twice as many characters).
SECRET_BYTES, DEVICE_BYTES = 32, 16
_SECRET = re.compile(f"[0-9a-f]{{{2 * SECRET_BYTES}}}")
_DEVICE = re.compile(f"[0-9a-f]{{{2 * DEVICE_BYTES}}}")


def new_code() -> str:
    """A fresh join code, ``LENGTH`` characters of ``ALPHABET``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def new_secret() -> str:
    """A fresh teacher's secret (64 hex characters)."""
    return secrets.token_hex(SECRET_BYTES)


def new_device() -> str:
    """A fresh device id (32 hex characters)."""
    return secrets.token_hex(DEVICE_BYTES)


def code(raw) -> str | None:
    """``raw`` as a join code (spaces and case forgiven: "mq3 h7t" is "MQ3H7T"), or ``None`` if it is none."""
    if not isinstance(raw, str):
        return None
    text = raw.replace(" ", "").replace("-", "").upper()
    return text if _CODE.fullmatch(text) else None


def is_secret(raw) -> bool:
    """Whether ``raw`` has the form of a teacher's secret."""
    return isinstance(raw, str) and _SECRET.fullmatch(raw) is not None


def is_device(raw) -> bool:
    """Whether ``raw`` has the form of a device id."""
    return isinstance(raw, str) and _DEVICE.fullmatch(raw) is not None
