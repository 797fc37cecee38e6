"""The world's SVG as an RGB image, rasterised by CairoSVG (``render_mode="rgb_array"``).

CairoSVG draws with the cairo library, which the operating system provides (``apt install
libcairo2``, ``brew install cairo``); without it this says so instead of failing in a
traceback.
"""

from __future__ import annotations

import io

import numpy as np
import numpy.typing as npt

from gaia_rules.errors import GaiaRulesError

__all__ = ["PictureError", "rgb_array"]


class PictureError(GaiaRulesError, RuntimeError):
    """The picture cannot be rasterised here (CairoSVG or the cairo library is missing)."""


def rgb_array(svg: str) -> npt.NDArray[np.uint8]:
    """``svg`` drawn at its own size, as ``height x width x 3`` bytes (white background).

    Raises:
        PictureError: CairoSVG or the cairo library it draws with is not installed.
    """
    try:
        import cairosvg  # noqa: PLC0415 (optional, and slow to import)
        from PIL import Image  # noqa: PLC0415
    except (ImportError, OSError) as exc:
        raise PictureError(
            "rgb_array rendering needs CairoSVG and the cairo library: "
            f"pip install 'gaia-rules[rl]' and apt install libcairo2 ({exc})"
        ) from None
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), background_color="white")
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
