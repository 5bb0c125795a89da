"""The key version: the Rust library's, named by the CLI, and pinned by
require_key_version."""

import os
import subprocess

import pytest

import wurl


def test_key_version_is_the_librarys():
    assert isinstance(wurl.KEY_VERSION, int) and wurl.KEY_VERSION >= 1
    cli = os.environ.get("WURL_CLI")
    if cli:
        out = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True)
        assert out.stdout.endswith(f"(key version {wurl.KEY_VERSION})\n"), out.stdout


def test_require_key_version():
    wurl.require_key_version(wurl.KEY_VERSION)
    with pytest.raises(RuntimeError, match=f"makes keys of version {wurl.KEY_VERSION}; its keys would not be those of version 999"):
        wurl.require_key_version(999)
    for bad in ("1", 1.0, True, None):
        with pytest.raises(TypeError):
            wurl.require_key_version(bad)
