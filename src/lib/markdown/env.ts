// Per-render state shared by the markdown-it rules through `env`.
import type { CompiledLinkifier } from './linkify.ts';
import type { Stashed } from './preprocess.ts';
import type { MarkdownContext, RenderResult } from './types.ts';

export interface RenderEnv {
  ctx: MarkdownContext;
  linkifiers: CompiledLinkifier[];
  stash: Stashed[];
  listStarts: Map<number, number>;
  result: RenderResult;
}

export function renderEnv(env: unknown): RenderEnv {
  return env as RenderEnv;
}

const WORD_RE = /[\p{L}\p{N}_]/u;
export function isWordChar(c: string | undefined): boolean {
  return c !== undefined && WORD_RE.test(c);
}

// Mentions and stream links start the text or follow whitespace or one of ' " ( { [ / <.
export function mentionMayStartAfter(c: string | undefined): boolean {
  return c === undefined || /\s/.test(c) || `'"({[/<`.includes(c);
}
