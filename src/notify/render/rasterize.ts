// SVG → PNG with resvg, at an exact pixel width, on a white background, with our font files only (no system font
// lookup: the same SVG gives the same PNG bytes everywhere).

import { Resvg } from '@resvg/resvg-js';
import { FONT_FAMILY, fontFiles } from './font.js';

export function svgToPng(svg: string, pixelWidth: number): Buffer {
  const files = fontFiles();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.round(pixelWidth) },
    background: '#FFFFFF',
    font: {
      fontFiles: [files.regular, files.bold],
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
      serifFamily: FONT_FAMILY,
      monospaceFamily: FONT_FAMILY,
    },
    shapeRendering: 2,
    textRendering: 1,
  });
  return resvg.render().asPng();
}
