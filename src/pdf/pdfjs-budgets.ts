/**
 * The places in pdfjs's worker code where a document's work is counted against its budget (budget.ts), where a
 * reading stopped by it ends quietly, and where pdfjs's walk of a long page tree is made linear. pdfjs exports none of the classes involved: each is reached through
 * the first object it makes, caught by a setter on Object.prototype that removes itself once it has seen one.
 */
import { currentWorkBudget } from './budget.js';

/** From this many pages on, the page tree is walked once for all pages instead of once for each page. */
const WALK_ONCE_FROM_PAGES = 100;

/**
 * Calls `found` with the first object that sets `property` on itself (or, with `ofValue`, the value set) for which
 * `fits` holds, then stops listening. Objects that do not fit get their property as they would have.
 */
function onFirstAssignment(property: string, fits: (candidate: object) => boolean, found: (candidate: object) => void, ofValue = false): void {
  Object.defineProperty(Object.prototype, property, {
    configurable: true,
    set(this: object, value: unknown) {
      Object.defineProperty(this, property, { value, writable: true, enumerable: true, configurable: true });
      const candidate = ofValue ? value : this;
      if (typeof candidate !== 'object' || candidate === null || !fits(candidate)) return;
      delete (Object.prototype as Record<string, unknown>)[property];
      found(candidate);
    },
  });
}

/**
 * The prototype of the class that brings `method` into `object`'s chain: the last one that defines it itself, not a
 * subclass's that overrides it (pdfjs's image streams override DecodeStream's ensureBuffer with nothing). Found by
 * the method, not by the class's name, which the engine's build does not keep (scripts/build.mjs).
 */
function prototypeIntroducing(object: object, method: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  for (let prototype = Object.getPrototypeOf(object) as Record<string, unknown> | null; prototype; prototype = Object.getPrototypeOf(prototype) as Record<string, unknown> | null) {
    if (Object.hasOwn(prototype, method)) found = prototype;
  }
  return found;
}

interface DecodeStream {
  buffer: Uint8Array;
  minBufferLength: number;
  ensureBuffer(requested: number): Uint8Array;
}

/**
 * Streams that pdfjs decodes in JavaScript (fonts, LZW, a Flate stream Node's zlib refused) grow one buffer as they
 * are read: each larger buffer is counted as inflated bytes (less the one it replaces), and refused past the limit
 * before it is allocated.
 */
function countDecodedBytes(): void {
  onFirstAssignment(
    'minBufferLength',
    (stream) => prototypeIntroducing(stream, 'ensureBuffer') !== undefined,
    (stream) => {
      const prototype = prototypeIntroducing(stream, 'ensureBuffer') as unknown as DecodeStream;
      const ensureBuffer = prototype.ensureBuffer;
      prototype.ensureBuffer = function (this: DecodeStream, requested: number) {
        if (requested > this.buffer.byteLength) {
          // pdfjs's own growth: doubled from minBufferLength until the request fits.
          let size = this.minBufferLength;
          while (size < requested) size *= 2;
          const budget = currentWorkBudget();
          if (!budget.spend('inflatedBytes', size - this.buffer.byteLength)) throw budget.exceeded!;
        }
        return ensureBuffer.call(this, requested);
      };
    },
  );
}

type PageDictEntry = [unknown, unknown];

interface Catalog {
  numPages: number;
  getPageDict(pageIndex: number): Promise<PageDictEntry>;
  getAllPageDicts(): Promise<Map<number, PageDictEntry>>;
}

/**
 * pdfjs finds page N by walking the page tree from its root, visiting every kid before it: reading the size of every
 * page of a flat tree takes time growing with the square of the pages (50,000 took minutes). A long document's tree is
 * walked once (pdfjs's own walk for its recovery) and each page taken from it; a page it could not resolve is looked
 * for the usual way.
 */
function walkLongPageTreesOnce(): void {
  const walks = new WeakMap<Catalog, Promise<Map<number, PageDictEntry> | undefined>>();
  onFirstAssignment(
    'catalog',
    (catalog) => prototypeIntroducing(catalog, 'getPageDict') !== undefined && typeof (catalog as Partial<Catalog>).getAllPageDicts === 'function',
    (catalog) => {
      const prototype = prototypeIntroducing(catalog, 'getPageDict') as unknown as Catalog;
      const getPageDict = prototype.getPageDict;
      prototype.getPageDict = async function (this: Catalog, pageIndex: number) {
        let numPages: number;
        try {
          numPages = this.numPages;
        } catch {
          numPages = 0;
        }
        if (!(numPages >= WALK_ONCE_FROM_PAGES)) return getPageDict.call(this, pageIndex);
        let walk = walks.get(this);
        if (!walk) {
          walk = this.getAllPageDicts().catch(() => undefined);
          walks.set(this, walk);
        }
        const entry = (await walk)?.get(pageIndex);
        return entry && !(entry[0] instanceof Error) ? entry : getPageDict.call(this, pageIndex);
      };
    },
    true,
  );
}

interface StreamSink {
  sinkCapability: { promise: Promise<void> };
}

type StreamSinks = Record<string | symbol, StreamSink>;

/** `sink`, with a handler on each promise its producer may wait on, as the worker makes it. */
function withHandledWaits(sink: StreamSink): StreamSink {
  let capability = sink.sinkCapability;
  Object.defineProperty(sink, 'sinkCapability', {
    enumerable: true,
    get: () => capability,
    set(next: StreamSink['sinkCapability']) {
      next.promise.catch(() => undefined);
      capability = next;
    },
  });
  return sink;
}

/**
 * A document destroyed while its pages are read (a budget stops it) cancels the pages' streams, and pdfjs then rejects
 * the promise a stream's producer waits on when its reader is behind, whether or not a producer waits on it at that
 * moment. pdfjs's worker runs in this thread: a rejection nobody waits on would be the process's unhandled rejection.
 * Message handlers (pdfjs has two classes of them, one in each of its modules) keep their streams in `streamSinks`,
 * assigned as they are made: an accessor on each class's prototype hands them a map that gives each stream's promises
 * a handler. A producer that waits still sees the rejection.
 */
function handleCancelledStreams(classesLeft = 2): void {
  const sinksOf = new WeakMap<object, StreamSinks>();
  const isUnpatchedHandler = (handler: object) => {
    const prototype = prototypeIntroducing(handler, 'sendWithStream');
    return prototype !== undefined && !Object.hasOwn(prototype, 'streamSinks');
  };
  onFirstAssignment('streamSinks', isUnpatchedHandler, (handler) => {
    Object.defineProperty(prototypeIntroducing(handler, 'sendWithStream')!, 'streamSinks', {
      get(this: object) {
        return sinksOf.get(this);
      },
      set(this: object, sinks: StreamSinks) {
        sinksOf.set(this, new Proxy(sinks, { set: (target, streamId, sink: StreamSink) => Reflect.set(target, streamId, withHandledWaits(sink)) }));
      },
    });
    // This handler's map was made before the accessor: it goes through it now.
    const sinks = (handler as { streamSinks: StreamSinks }).streamSinks;
    delete (handler as { streamSinks?: StreamSinks }).streamSinks;
    (handler as { streamSinks: StreamSinks }).streamSinks = sinks;
    if (classesLeft > 1) handleCancelledStreams(classesLeft - 1);
  });
}

let counting = false;

/** Installs the counting once per thread, before pdfjs makes its first document. */
export function countWorkInPdfjs(): void {
  if (counting) return;
  counting = true;
  countDecodedBytes();
  handleCancelledStreams();
  walkLongPageTreesOnce();
}
