"""``ember.hub``: fetching checkpoints by URL into the hub cache, as ``torch.hub`` does
(``load_state_dict_from_url``; there is no model repository to ``load`` from)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from urllib.parse import urlparse
from urllib.request import urlopen as _urlopen

from .serialization import load as _load

__all__ = ["get_dir", "set_dir", "download_url_to_file", "load_state_dict_from_url"]

_HASH = re.compile(r"-([a-f0-9]*)\.")
_dir: list = [None]


def get_dir() -> str:
    """The hub cache: ``set_dir``'s, else ``$TORCH_HOME/hub`` (``~/.cache/torch/hub``)."""
    if _dir[0] is not None:
        return _dir[0]
    home = os.path.expanduser(os.getenv("TORCH_HOME", os.path.join(
        os.getenv("XDG_CACHE_HOME", "~/.cache"), "torch")))
    return os.path.join(home, "hub")


def set_dir(d) -> None:
    """Use ``d`` as the hub cache."""
    _dir[0] = os.path.expanduser(d)


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None,
                         progress: bool = True) -> None:
    """Copy what ``url`` holds to the file ``dst`` (checking its sha256 prefix if given)."""
    tmp = dst + ".partial"
    digest = hashlib.sha256()
    with _urlopen(url) as src, open(tmp, "wb") as out:  # noqa: S310
        while chunk := src.read(1 << 20):
            digest.update(chunk)
            out.write(chunk)
    if hash_prefix is not None and not digest.hexdigest().startswith(hash_prefix):
        os.remove(tmp)
        raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got '
                           f'"{digest.hexdigest()}")')
    shutil.move(tmp, dst)


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location=None,
                             progress: bool = True, check_hash: bool = False,
                             file_name: str | None = None, weights_only: bool = False):
    """Download ``url`` into ``model_dir`` (the hub's ``checkpoints`` by default) unless it
    is there already, and ``load`` it."""
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urlparse(url).path)
    cached = os.path.join(model_dir, filename)
    if not os.path.exists(cached):
        sys.stdout.write(f'Downloading: "{url}" to {cached}\n')
        match = _HASH.search(filename) if check_hash else None
        download_url_to_file(url, cached, match.group(1) if match else None, progress)
    return _load(cached, map_location=map_location, weights_only=weights_only)


del annotations  # keep dir() to torch's names
