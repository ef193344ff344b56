import { VerbosityLevel, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { CROP_BOX, cropBoxPdf } from '../../test/support/pdfs.js';
import {
  boxFitsPage,
  displayedBoxToPdfRect,
  displayedPointToPdf,
  normaliseRotation,
  visibleBox,
  type PageFrame,
} from './geometry.js';

const [cropX, cropY, cropWidth, cropHeight] = CROP_BOX;
const CROP_VIEW = { x: cropX, y: cropY, width: cropWidth, height: cropHeight };

describe('boxFitsPage', () => {
  const page = { width: 612, height: 792 };

  it('accepts a box touching the edges of the page as displayed', () => {
    expect(boxFitsPage(page, { x: 0, y: 0, width: 612, height: 792 })).toBe(true);
  });

  it('FIELD_GEOMETRY_INVALID: a box leaving the page on any side does not fit', () => {
    expect(boxFitsPage(page, { x: -1, y: 10, width: 10, height: 10 })).toBe(false);
    expect(boxFitsPage(page, { x: 10, y: -0.5, width: 10, height: 10 })).toBe(false);
    expect(boxFitsPage(page, { x: 603, y: 10, width: 10, height: 10 })).toBe(false);
    expect(boxFitsPage(page, { x: 10, y: 783, width: 10, height: 10 })).toBe(false);
  });

  it('uses the displayed size: a landscape box fits a page turned by 90 only', () => {
    const box = { x: 0, y: 0, width: 700, height: 500 };
    expect(boxFitsPage({ width: 792, height: 612 }, box)).toBe(true);
    expect(boxFitsPage(page, box)).toBe(false);
  });
});

describe('displayedPointToPdf', () => {
  it.each([0, 90, 180, 270] as const)(
    'rotation %i and CropBox origin applied: agrees with the pdfjs viewport',
    async (rotate) => {
      const pdf = await getDocument({ data: await cropBoxPdf(rotate), verbosity: VerbosityLevel.ERRORS }).promise;
      try {
        const viewport = (await pdf.getPage(1)).getViewport({ scale: 1 });
        const frame: PageFrame = { view: CROP_VIEW, rotate };
        for (const [x, y] of [[0, 0], [37, 81], [viewport.width, viewport.height]] as const) {
          const [expectedX, expectedY] = viewport.convertToPdfPoint(x, y) as [number, number];
          const [actualX, actualY] = displayedPointToPdf(frame, x, y);
          expect(actualX).toBeCloseTo(expectedX, 9);
          expect(actualY).toBeCloseTo(expectedY, 9);
        }
      } finally {
        await pdf.destroy();
      }
    },
  );
});

describe('displayedBoxToPdfRect', () => {
  const box = { x: 10, y: 20, width: 100, height: 40 };

  it('rotation 0: the displayed top edge is the user-space top edge, measured from the CropBox', () => {
    expect(displayedBoxToPdfRect({ view: CROP_VIEW, rotate: 0 }, box)).toEqual({ x: 60, y: 540, width: 100, height: 40 });
  });

  it('rotation 90: displayed width runs along user y', () => {
    expect(displayedBoxToPdfRect({ view: CROP_VIEW, rotate: 90 }, box)).toEqual({ x: 70, y: 110, width: 40, height: 100 });
  });

  it('rotation 180: both axes reversed', () => {
    expect(displayedBoxToPdfRect({ view: CROP_VIEW, rotate: 180 }, box)).toEqual({ x: 340, y: 120, width: 100, height: 40 });
  });

  it('rotation 270: displayed width runs against user y', () => {
    expect(displayedBoxToPdfRect({ view: CROP_VIEW, rotate: 270 }, box)).toEqual({ x: 390, y: 490, width: 40, height: 100 });
  });
});

describe('page box rules shared with pdfjs', () => {
  it('the visible box is the CropBox clipped to the MediaBox, whatever corner order the file uses', () => {
    const media = { x: 0, y: 0, width: 600, height: 800 };
    expect(visibleBox(media, { x: 450, y: 600, width: -400, height: -500 })).toEqual(CROP_VIEW);
    expect(visibleBox(media, { x: 500, y: 700, width: 200, height: 200 })).toEqual({ x: 500, y: 700, width: 100, height: 100 });
    expect(visibleBox(media, { x: 700, y: 900, width: 10, height: 10 })).toEqual(media);
    expect(visibleBox(media)).toEqual(media);
  });

  it('rotation: multiples of 90 brought into 0-270, other values ignored', () => {
    expect([0, 90, -90, 450, 720, 45, 91.5].map(normaliseRotation)).toEqual([0, 90, 270, 90, 0, 0, 0]);
  });
});
