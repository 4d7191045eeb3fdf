// Counts of the renderer's work, so tests can bound it by the input's size without a clock.
// Counting is off (one branch per hook) unless `measureRenderWork` runs.

export interface RenderWork {
  // Parts the fence pass moved when closing fences, and characters of text it produced.
  fenceParts: number;
  preprocessedChars: number;
  // Characters of the lines markdown-it's block tokenizer went through (nested parses too).
  blockChars: number;
  // Characters handed to the inline tokenizer, and how often it was entered (nested parses).
  inlineChars: number;
  inlineParses: number;
  // Characters our inline rules scanned looking for a closing marker or a line end.
  scannedChars: number;
  // Characters of plain text searched for links, linkifiers and emoji.
  textChars: number;
}

let meter: RenderWork | undefined;

export function countWork(kind: keyof RenderWork, n: number): void {
  if (meter) meter[kind] += n;
}

export function countingWork(): boolean {
  return meter !== undefined;
}

export function totalWork(work: RenderWork): number {
  return Object.values(work).reduce((a, b) => a + b, 0);
}

// Runs `fn` (synchronous rendering) and returns the work it counted.
export function measureRenderWork(fn: () => void): RenderWork {
  const work: RenderWork = { fenceParts: 0, preprocessedChars: 0, blockChars: 0, inlineChars: 0, inlineParses: 0, scannedChars: 0, textChars: 0 };
  const outer = meter;
  meter = work;
  try {
    fn();
  } finally {
    meter = outer;
  }
  return work;
}
