import { describe, expect, it } from 'vitest';
import { fontExtent, type FontMetrics } from './glyphs.js';

const EM = [0.001, 0, 0, 0.001, 0, 0];

function extentOf(font: FontMetrics): { ascent: number; descent: number } {
  const { ascent, descent } = fontExtent(font);
  return { ascent: Math.round(ascent * 1000) / 1000, descent: Math.round(descent * 1000) / 1000 };
}

describe('fontExtent: how far a font reaches above and below the baseline, in em', () => {
  it('the ascent and descent the font reports', () => {
    expect(extentOf({ ascent: 0.718, descent: -0.207, bbox: [-166, -225, 1000, 931], fontMatrix: EM })).toEqual({ ascent: 0.718, descent: -0.207 });
  });

  it('no higher than the font bounding box: a line height reported as the ascent is cut to where glyphs end', () => {
    expect(extentOf({ ascent: 1.09, descent: -0.422, bbox: [0, -174, 459, 714], fontMatrix: EM })).toEqual({ ascent: 0.714, descent: -0.174 });
  });

  it('a subset of low glyphs (digits only) has a low bounding box, and its text box ends there', () => {
    // pdf--issue13211.pdf: "15." in a CmPrasanmit subset whose FontBBox is [0 -8 380 469]; the rendered digits end at it.
    expect(extentOf({ ascent: 0.8, descent: -0.2, bbox: [0, -8, 380, 469], fontMatrix: EM })).toEqual({ ascent: 0.469, descent: -0.008 });
  });

  it('a bounding box too low to be real (under a quarter em) is ignored', () => {
    expect(extentOf({ ascent: 0.8, descent: -0.2, bbox: [0, 0, 0, 0], fontMatrix: EM })).toEqual({ ascent: 0.8, descent: -0.2 });
    expect(extentOf({ ascent: 0.8, descent: -0.2, bbox: [0, -10, 500, 200], fontMatrix: EM })).toEqual({ ascent: 0.8, descent: -0.2 });
  });
});
