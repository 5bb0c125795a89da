from typing import Any, Optional, Union

from ._wurl import (
    LIBRARY_VERSION as LIBRARY_VERSION,
    MAX_INPUT_LEN as MAX_INPUT_LEN,
    KEY_VERSION as KEY_VERSION,
    URL as URL,
    ArrowStringArray as ArrowStringArray,
    Rules as Rules,
    canonical_url as canonical_url,
    canonicalize as canonicalize,
    canonicalize_many as canonicalize_many,
    charset_message as charset_message,
    explain as explain,
    parse as parse,
    resolve as resolve,
)

__version__: str

def canonicalize_arrow(
    urls: Any,
    bases: Any = None,
    charset: Optional[str] = None,
    strict: bool = False,
    rules: Union[Rules, str, None] = None,
    surt: bool = False,
    surt_scheme: bool = False,
) -> Any:
    """Canonicalize an Arrow string array (pyarrow.Array / ChunkedArray or
    any object with __arrow_c_array__); returns a pyarrow array of the same
    length and type (an ArrowStringArray without pyarrow), null for null or
    invalid inputs. `bases`: None, a str/URL, or a string array of the same
    length (null = the row is its own base)."""

def resolve_arrow(urls: Any, bases: Any = None) -> Any:
    """Resolve an Arrow string array (no canonicalization); returns a
    pyarrow array of the same length and type, null for null or invalid
    inputs. `bases` as for canonicalize_arrow."""

def require_key_version(version: int) -> None:
    """Raise RuntimeError unless this wurl makes keys of `version`
    (`wurl canon --key-version N`)."""
