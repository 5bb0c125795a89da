"""Type stubs of the extension module wurl._wurl (see wurl/__init__.py)."""

from typing import Any, Iterable, Literal, Optional, Sequence, Tuple, Union, final

__version__: str
LIBRARY_VERSION: str
MAX_INPUT_LEN: int
KEY_VERSION: int

HostKind = Literal["none", "empty", "domain", "ipv4", "ipv6"]

@final
class URL:
    """A parsed, resolved or canonicalized URL (immutable). Components are
    None when absent and "" when present and empty."""

    @property
    def scheme(self) -> Optional[str]: ...
    @property
    def user(self) -> Optional[str]: ...
    @property
    def password(self) -> Optional[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def port(self) -> Optional[str]: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def query(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def invalid(self) -> bool: ...
    @property
    def invalid_reason(self) -> Optional[str]: ...
    @property
    def host_kind(self) -> HostKind: ...
    @property
    def hierarchical(self) -> bool: ...
    def serialize(self) -> Optional[str]:
        """The serialization, or None for an invalid URL."""
    def canonicalize(self, charset: Optional[str] = None, strict: bool = False) -> "URL":
        """Canonicalizes this URL and returns the new URL."""
    def resolve(self, ref: str) -> "URL":
        """Resolves `ref` against this URL (no canonicalization)."""
    def state(self) -> bytes:
        """The URL's state: its whole value as bytes (what a pickle holds)."""
    @classmethod
    def from_state(cls, state: Union[bytes, bytearray, memoryview]) -> "URL":
        """The URL of a state; ValueError for bytes that are not one."""
    def __str__(self) -> str:
        """The serialization; ValueError (with the reason) for an invalid URL."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...

@final
class ArrowStringArray:
    """An Arrow string array made by canonicalize_arrow (C data interface)."""

    def __arrow_c_array__(self, requested_schema: Optional[Any] = None) -> Tuple[Any, Any]: ...
    def __len__(self) -> int: ...
    @property
    def type_name(self) -> str: ...

class Rules:
    """A compiled rules specification (docs/keys.md); ValueError for a bad
    one, naming the bad part."""
    def __init__(self, spec: str) -> None: ...
    @property
    def spec(self) -> str: ...
    def __str__(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def parse(url: str) -> URL:
    """Parses `url` (no resolution, no canonicalization)."""

def resolve(base: Union[str, URL], ref: str) -> URL:
    """Resolves `ref` against `base`, without canonicalization."""

def canonicalize(
    url: Union[str, URL],
    base: Union[str, URL, None] = None,
    charset: Optional[str] = None,
    strict: bool = False,
    rules: Union[Rules, str, None] = None,
    surt: bool = False,
    surt_scheme: bool = False,
    model: str = "2012",
) -> Optional[str]:
    """The canonical serialization of `url` resolved against `base` (or
    itself), or None when invalid; with `rules` applied and, with `surt`
    (`surt_scheme` keeps the scheme), in SURT form. `model`: "2012" (the
    default) or "url-standard" (the WHATWG URL Standard; a str `url`, no
    `strict`)."""

def canonical_url(
    url: str,
    base: Union[str, URL, None] = None,
    charset: Optional[str] = None,
    strict: bool = False,
) -> URL:
    """Like canonicalize, but returns the canonical URL record."""

def canonicalize_many(
    urls: Iterable[Optional[str]],
    base: Union[str, URL, Sequence[Optional[str]], None] = None,
    charset: Optional[str] = None,
    strict: bool = False,
    rules: Union[Rules, str, None] = None,
    surt: bool = False,
    surt_scheme: bool = False,
    model: str = "2012",
) -> list[Optional[str]]:
    """canonicalize over a batch, with the GIL released; None in, None out.
    `model` as for canonicalize."""

def explain(
    url: str,
    url2: Optional[str] = None,
    base: Optional[str] = None,
    charset: Optional[str] = None,
    strict: bool = False,
    rules: Union[Rules, str, None] = None,
    model: str = "2012",
) -> dict[str, Any]:
    """Why `url` has its key (and with `url2`, whether the two share one):
    {"model", "urls": [{"input", "base", "steps": [{"stage", "what",
    "before", "after"}], "canonical", "invalid", "key", "surt"}],
    "same_key", "parts_at"}, as `wurl explain -f json` writes it."""

def charset_message(label: str) -> Optional[str]:
    """The message wurl gives for a charset label that names no encoding
    (the ValueError's of a bad `charset`), or None when it names one."""

def canonicalize_arrow(
    urls: Any,
    bases: Any = None,
    charset: Optional[str] = None,
    strict: bool = False,
    rules: Union[Rules, str, None] = None,
    surt: bool = False,
    surt_scheme: bool = False,
) -> ArrowStringArray: ...

def resolve_arrow(
    urls: Any,
    bases: Any = None,
) -> ArrowStringArray: ...
