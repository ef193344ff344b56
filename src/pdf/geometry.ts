/**
 * Conversions between the contract's displayed page coordinates (top-left origin, rotation applied,
 * relative to the visible page box) and PDF user space (bottom-left origin, unrotated), which drawing
 * with pdf-lib needs.
 */
import type { Box, PageInfo } from './page-text.js';

export type Rotation = PageInfo['rotate'];

/** A rectangle in PDF user space: lower-left corner and positive size. */
export interface PdfRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a page needs to map displayed coordinates to user space: its visible box and its turn. */
export interface PageFrame {
  /** The visible page box (CropBox within the MediaBox) in user space. */
  view: PdfRect;
  rotate: Rotation;
}

/** Offsets are summed in floating point; a box ending a hair past the edge is still on the page. */
const EDGE_TOLERANCE = 1e-6;

export function boxFitsPage(page: Pick<PageInfo, 'width' | 'height'>, box: Box): boolean {
  return (
    box.x >= -EDGE_TOLERANCE &&
    box.y >= -EDGE_TOLERANCE &&
    box.x + box.width <= page.width + EDGE_TOLERANCE &&
    box.y + box.height <= page.height + EDGE_TOLERANCE
  );
}

/** /Rotate as viewers apply it: multiples of 90 brought into 0-270, anything else ignored (as pdfjs does). */
export function normaliseRotation(angle: number): Rotation {
  if (!Number.isInteger(angle) || angle % 90 !== 0) return 0;
  return (((angle % 360) + 360) % 360) as Rotation;
}

/** Corner order in a PDF box array does not matter; this gives the lower-left corner and a positive size. */
export function normaliseRect(rect: PdfRect): PdfRect {
  return {
    x: Math.min(rect.x, rect.x + rect.width),
    y: Math.min(rect.y, rect.y + rect.height),
    width: Math.abs(rect.width),
    height: Math.abs(rect.height),
  };
}

/** The visible page box: the CropBox clipped to the MediaBox, or the MediaBox when they do not overlap (as pdfjs does). */
export function visibleBox(mediaBox: PdfRect, cropBox?: PdfRect): PdfRect {
  const media = normaliseRect(mediaBox);
  if (!cropBox) return media;
  const crop = normaliseRect(cropBox);
  const x = Math.max(media.x, crop.x);
  const y = Math.max(media.y, crop.y);
  const width = Math.min(media.x + media.width, crop.x + crop.width) - x;
  const height = Math.min(media.y + media.height, crop.y + crop.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : media;
}

/** The user-space point shown at displayed (x, y). */
export function displayedPointToPdf(frame: PageFrame, x: number, y: number): [number, number] {
  const { view } = frame;
  const right = view.x + view.width;
  const top = view.y + view.height;
  // The page turns clockwise on display, so displayed x runs along user y at 90 and against user x at 180.
  switch (frame.rotate) {
    case 0:
      return [view.x + x, top - y];
    case 90:
      return [view.x + y, view.y + x];
    case 180:
      return [right - x, view.y + y];
    case 270:
      return [right - y, top - x];
  }
}

/** The user-space rectangle covering a displayed box; turns are multiples of 90 degrees so it stays axis-aligned. */
export function displayedBoxToPdfRect(frame: PageFrame, box: Box): PdfRect {
  const [x1, y1] = displayedPointToPdf(frame, box.x, box.y);
  const [x2, y2] = displayedPointToPdf(frame, box.x + box.width, box.y + box.height);
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
}
