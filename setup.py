"""Build hook: ship the top-level templates/ and static/ inside the package, catalogues compiled.

The repository keeps `templates/` and `static/` beside `scorer/` (the layout the design
asks for); an installed package has no such neighbours, so the build copies them into
`scorer/` and compiles each `.po` catalogue to the `.mo` Flask-Babel reads. Everything else
is declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED_FOLDERS = ("templates", "static")


class BuildWithAssets(build_py):
    """build_py, plus the page assets and the compiled catalogues."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the source tree itself
        package = Path(self.build_lib) / "scorer"
        for name in SHIPPED_FOLDERS:
            shutil.rmtree(package / name, ignore_errors=True)  # no file a checkout dropped
            shutil.copytree(ROOT / name, package / name, dirs_exist_ok=True)
        compile_catalogues(ROOT / "scorer" / "translations", package / "translations")


def compile_catalogues(source: Path, target: Path) -> None:
    """Each <lang>/LC_MESSAGES/messages.po under `source` as a .mo under `target`."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in source.glob("*/LC_MESSAGES/messages.po"):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as handle:
            catalogue = read_po(handle, locale=po.parts[-3])
        with mo.open("wb") as handle:
            write_mo(handle, catalogue)


setup(cmdclass={"build_py": BuildWithAssets})
