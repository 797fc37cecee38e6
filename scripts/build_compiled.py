"""Build the optional compiled wheel: the pure-Python wheel with the rules' hot modules compiled
by mypyc (as black and mypy ship). The pure-Python wheel stays the reference; this one must pass
the same suite (`.ci/run` builds it and runs the suite on it).

    python scripts/build_compiled.py --outdir dist-compiled

It builds the pure wheel with `python -m build`, compiles the modules of COMPILED from a copy of
`src/` with `mypyc.build.mypycify` (mypy's dev dependency brings it, with setuptools), and writes
a platform wheel holding the pure wheel's files and the compiled extensions beside them (an
extension module is imported before the `.py` file of the same name).

The value modules (attrs classes, `Wire` subclasses), `game` (which builds instances with
`object.__new__`), `schema` (which reads class namespaces), `setup` (whose input checks
rely on plain Python accepting any argument type) and the wings stay pure Python.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMPILED = (
    "drawing",
    "ending",
    "feeding",
    "flow",
    "legal",
    "life",
    "limits",
    "nature",
    "objectives",
    "powers",
    "satisfaction",
    "table",
    "world",
)
"""The modules of `gaia_rules` compiled: the rules that run at every decision."""


def _compile(work: Path) -> list[Path]:
    """Compile COMPILED in a copy of the package under ``work``; the extension files built."""
    shutil.copytree(ROOT / "src" / "gaia_rules", work / "gaia_rules")
    sources = [f"gaia_rules/{name}.py" for name in COMPILED]
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "sys.argv = ['setup.py', 'build_ext', '--inplace']\n"
        f"setup(name='gaia_rules_compiled', ext_modules=mypycify({sources!r}, opt_level='3'))\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=work, check=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(work.glob(f"*{suffix}")) + sorted((work / "gaia_rules").glob(f"*{suffix}"))


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _platform_tag() -> str:
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{version}-{version}-{platform}"


def build(outdir: Path) -> Path:
    """Build the compiled wheel into ``outdir``; its path."""
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(work / "pure"), str(ROOT)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (pure,) = (work / "pure").glob("*.whl")
        extensions = _compile(work / "compile")
        tag = _platform_tag()
        target = outdir / pure.name.replace("py3-none-any", tag)
        records: list[str] = []
        with zipfile.ZipFile(pure) as source, zipfile.ZipFile(target, "w") as wheel:
            record_name = next(n for n in source.namelist() if n.endswith(".dist-info/RECORD"))
            for info in source.infolist():
                if info.filename == record_name:
                    continue
                data = source.read(info)
                if info.filename.endswith(".dist-info/WHEEL"):
                    text = data.decode().replace("Root-Is-Purelib: true", "Root-Is-Purelib: false")
                    data = text.replace("Tag: py3-none-any", f"Tag: {tag}").encode()
                wheel.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
                records.append(_record_line(info.filename, data))
            for path in extensions:
                name = path.relative_to(work / "compile").as_posix()
                data = path.read_bytes()
                wheel.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
                records.append(_record_line(name, data))
            records.append(f"{record_name},,")
            wheel.writestr(record_name, "\n".join(records) + "\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist-compiled")
    args = parser.parse_args()
    print(build(args.outdir))


if __name__ == "__main__":
    main()
