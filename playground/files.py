"""Files the bot uploads: kept with their bytes so the page and the tests can see them, with
Telegram's photo sizes (thumbnails made lazily) and file_id / file_unique_id / file_path."""

from __future__ import annotations

import io
import secrets
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

from playground.limits import FILE_BYTES_MAX, bad_request, check_photo_dimensions

# Telegram keeps a photo in several sizes; these are the longest sides of the smaller ones.
THUMB_SIDES = (90, 320, 800)
PHOTO_SIDE_MAX = 2560
_EXT = {"PNG": "png", "JPEG": "jpg", "GIF": "gif", "WEBP": "webp"}
_MIME = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}


@dataclass
class StoredFile:
    file_id: str
    unique_id: str
    kind: str  # "photo", "animation" or "document"
    file_path: str
    mime_type: str
    width: int = 0
    height: int = 0
    file_name: str | None = None
    _data: bytes | None = None
    source: StoredFile | None = None  # a thumbnail is made from this on first use
    sizes: list[StoredFile] = field(default_factory=list)  # a photo's PhotoSizes, small first

    @property
    def data(self) -> bytes:
        if self._data is None:
            assert self.source is not None
            with Image.open(io.BytesIO(self.source.data)) as src:
                im = src.convert("RGB")
                im.thumbnail((self.width, self.height))
                out = io.BytesIO()
                im.save(out, "JPEG", quality=85)
            self._data = out.getvalue()
        return self._data

    def photo_size(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.unique_id,
            "width": self.width,
            "height": self.height,
        }
        if self._data is not None:
            out["file_size"] = len(self._data)
        return out

    def to_api(self) -> Any:
        """The value of the message field (``photo`` is a list of PhotoSize)."""
        if self.kind == "photo":
            return [s.photo_size() for s in self.sizes]
        out: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.unique_id,
            "file_size": len(self.data),
            "mime_type": self.mime_type,
        }
        if self.file_name:
            out["file_name"] = self.file_name
        if self.kind == "animation":
            out.update(width=self.width, height=self.height, duration=0)
        return out

    def to_file(self) -> dict[str, Any]:
        """The ``File`` object of getFile."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.unique_id,
            "file_size": len(self.data),
            "file_path": self.file_path,
        }

    @property
    def largest(self) -> StoredFile:
        return self.sizes[-1] if self.sizes else self


class FileStore:
    def __init__(self) -> None:
        self.by_id: dict[str, StoredFile] = {}
        self.by_path: dict[str, StoredFile] = {}
        self._count = 0

    def _new_ids(self) -> tuple[str, str]:
        return "AgAC" + secrets.token_urlsafe(24), "AQAD" + secrets.token_urlsafe(9)

    def _keep(self, f: StoredFile) -> StoredFile:
        self.by_id[f.file_id] = f
        self.by_path[f.file_path] = f
        return f

    def _path(self, folder: str, ext: str) -> str:
        self._count += 1
        return f"{folder}/file_{self._count}.{ext}"

    def add(self, kind: str, data: bytes, file_name: str | None, mime: str | None) -> StoredFile:
        """Store an upload; a photo is checked against Telegram's photo rules."""
        if len(data) > FILE_BYTES_MAX:
            raise bad_request("file is too big")
        if kind == "photo":
            return self._add_photo(data)
        width = height = 0
        fmt = None
        try:
            with Image.open(io.BytesIO(data)) as im:
                width, height, fmt = im.width, im.height, im.format
        except (UnidentifiedImageError, OSError):
            pass
        ext = (file_name or "").rsplit(".", 1)[-1] if file_name and "." in file_name else None
        ext = ext or _EXT.get(fmt or "", "bin")
        mime = mime or _MIME.get(fmt or "", "application/octet-stream")
        folder = "animations" if kind == "animation" else "documents"
        file_id, unique = self._new_ids()
        return self._keep(
            StoredFile(
                file_id,
                unique,
                kind,
                self._path(folder, ext),
                mime,
                width,
                height,
                file_name=file_name,
                _data=data,
            )
        )

    def _add_photo(self, data: bytes) -> StoredFile:
        try:
            with Image.open(io.BytesIO(data)) as im:
                width, height, fmt = im.width, im.height, im.format or "PNG"
                im.verify()
        except (UnidentifiedImageError, OSError, SyntaxError) as e:
            raise bad_request("IMAGE_PROCESS_FAILED") from e
        check_photo_dimensions(width, height, len(data))
        longest = max(width, height)
        sizes: list[StoredFile] = []
        full_id, unique = self._new_ids()
        full = StoredFile(
            full_id,
            unique,
            "photo",
            self._path("photos", _EXT.get(fmt, "jpg")),
            _MIME.get(fmt, "image/jpeg"),
            width,
            height,
            _data=data,
        )
        if longest > PHOTO_SIDE_MAX:
            scale = PHOTO_SIDE_MAX / longest
            full.width, full.height = max(1, round(width * scale)), max(1, round(height * scale))
            full._data, full.source = (
                None,
                StoredFile("", "", "photo", "", "", width, height, _data=data),
            )
        for side in THUMB_SIDES:
            if longest > side:
                scale = side / longest
                thumb_id, thumb_unique = self._new_ids()
                sizes.append(
                    self._keep(
                        StoredFile(
                            thumb_id,
                            thumb_unique,
                            "photo",
                            self._path("photos", "jpg"),
                            "image/jpeg",
                            max(1, round(width * scale)),
                            max(1, round(height * scale)),
                            source=full,
                        )
                    )
                )
        sizes.append(full)
        full.sizes = sizes
        for s in sizes:
            s.sizes = sizes
        return self._keep(full)

    def get(self, file_id: str | None) -> StoredFile:
        """The stored file; a missing id (a Bot API caller may leave it out) is as unknown
        as a wrong one."""
        f = None if file_id is None else self.by_id.get(file_id)
        if f is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return f
