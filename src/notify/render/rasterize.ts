// SVG → PNG with resvg, at an exact pixel width, on a white background (or a transparent one, for map tiles laid
// over a map), with our font files only (no system font lookup: the same SVG gives the same PNG bytes everywhere).

import { Resvg } from '@resvg/resvg-js';
import { FONT_FAMILY, fontFiles } from './font.js';

/** resvg's font options: our files, or none at all for a picture without text (map tiles need no font installed). */
function fontOptions(svg: string) {
  if (!/<text[\s>]/.test(svg)) return { loadSystemFonts: false };
  const files = fontFiles();
  return {
    fontFiles: [files.regular, files.bold],
    loadSystemFonts: false,
    defaultFontFamily: FONT_FAMILY,
    sansSerifFamily: FONT_FAMILY,
    serifFamily: FONT_FAMILY,
    monospaceFamily: FONT_FAMILY,
  };
}

export function svgToPng(svg: string, pixelWidth: number, options: { transparent?: boolean } = {}): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.round(pixelWidth) },
    ...(options.transparent ? {} : { background: '#FFFFFF' }),
    font: fontOptions(svg),
    shapeRendering: 2,
    textRendering: 1,
  });
  return resvg.render().asPng();
}
