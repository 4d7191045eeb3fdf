// Declaring and decoding request parameters. Every parameter is declared once: its type, whether
// it is required, its default and its aliases. Values come from the query string and from
// urlencoded or multipart bodies; non-string values arrive JSON-encoded.
import { ApiError, invalidArgument, missingArgument } from '../lib/errors.ts';

export interface ParamSpec<T> {
  /** Turns a raw string into a typed value, or throws an ApiError naming the parameter. */
  parse(raw: string, name: string): T;
  required: boolean;
  defaultValue: T | undefined;
  aliases: string[];
  /** Path parameters come from the URL, not the query string or body. */
  inPath: boolean;
  /** The raw value is JSON (lists, objects, JSON values checked by the route). */
  json?: true;
}

type Parser<T> = (raw: string, name: string) => T;

function spec<T>(parse: Parser<T>): ParamSpec<T> {
  return { parse, required: true, defaultValue: undefined, aliases: [], inPath: false };
}

function jsonSpec<T>(parse: Parser<T>): ParamSpec<T> {
  return { ...spec(parse), json: true };
}

/** Optional: absent means `undefined`, or `defaultValue` when given. */
export function optional<T>(s: ParamSpec<T>): ParamSpec<T | undefined>;
export function optional<T>(s: ParamSpec<T>, defaultValue: T): ParamSpec<T>;
export function optional<T>(s: ParamSpec<T>, defaultValue?: T): ParamSpec<T | undefined> {
  return { ...s, required: false, defaultValue };
}

export function alias<T>(s: ParamSpec<T>, ...aliases: string[]): ParamSpec<T> {
  return { ...s, aliases: [...s.aliases, ...aliases] };
}

export function path<T>(s: ParamSpec<T>): ParamSpec<T> {
  return { ...s, inPath: true };
}

const nullByte = (name: string): ApiError => new ApiError(`${name} contains a null byte`, 'BAD_REQUEST');

/**
 * No parameter of the API nests past a few levels; a value nested deeper is refused before it is
 * decoded, since walking it (the NUL check below, a route's checks) would exhaust the stack.
 */
export const MAX_JSON_DEPTH = 100;

/** Whether JSON text nests arrays and objects deeper than `max`; a scan, so any depth is safe. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

export const tooDeep = (name: string): ApiError => new ApiError(`${name} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`, 'BAD_REQUEST');

/** Whether a decoded JSON value holds a NUL character in any string or key (its depth is bounded). */
function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(hasNul);
  if (typeof v === 'object' && v !== null) return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x));
  return false;
}

function parseJson(raw: string, name: string): unknown {
  if (jsonTooDeep(raw)) throw tooDeep(name);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new ApiError(`Argument "${name}" is not valid JSON.`, 'BAD_REQUEST');
  }
  if (hasNul(v)) throw nullByte(name);
  return v;
}

const INT_RE = /^-?\d+$/;

function toInt(value: unknown, name: string, what = 'is not an integer'): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && INT_RE.test(value.trim())) {
    const n = Number(value.trim());
    if (Number.isSafeInteger(n)) return n;
  }
  throw new ApiError(`${name} ${what}`, 'BAD_REQUEST');
}

export const p = {
  /** A plain string (never JSON-decoded). */
  string(opts: { maxLength?: number; trim?: boolean } = {}): ParamSpec<string> {
    return spec((raw, name) => {
      const v = opts.trim ? raw.trim() : raw;
      if (opts.maxLength !== undefined && v.length > opts.maxLength) {
        throw new ApiError(`${name} is too long (limit: ${opts.maxLength} characters)`, 'BAD_REQUEST');
      }
      return v;
    });
  },
  int(opts: { min?: number; max?: number } = {}): ParamSpec<number> {
    return spec((raw, name) => {
      const n = toInt(raw, name);
      if (opts.min !== undefined && n < opts.min) throw new ApiError(`${name} is too small`, 'BAD_REQUEST');
      if (opts.max !== undefined && n > opts.max) throw new ApiError(`${name} is too large`, 'BAD_REQUEST');
      return n;
    });
  },
  bool(): ParamSpec<boolean> {
    return spec((raw, name) => {
      const v = raw.trim().toLowerCase();
      if (v === 'true') return true;
      if (v === 'false') return false;
      throw new ApiError(`${name} is not a boolean`, 'BAD_REQUEST');
    });
  },
  oneOf<const T extends string>(values: readonly T[]): ParamSpec<T> {
    return spec((raw, name) => {
      if ((values as readonly string[]).includes(raw)) return raw as T;
      throw new ApiError(`Invalid ${name}`, 'BAD_REQUEST');
    });
  },
  intList(): ParamSpec<number[]> {
    return jsonSpec((raw, name) => {
      const v = parseJson(raw, name);
      if (!Array.isArray(v)) throw new ApiError(`${name} is not a list`, 'BAD_REQUEST');
      return v.map((x, i) => toInt(x, `${name}[${i}]`));
    });
  },
  stringList(): ParamSpec<string[]> {
    return jsonSpec((raw, name) => {
      const v = parseJson(raw, name);
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
        throw new ApiError(`${name} is not a list of strings`, 'BAD_REQUEST');
      }
      return v as string[];
    });
  },
  /** A parameter with its own parser of the raw string. */
  custom<T>(parse: (raw: string, name: string) => T): ParamSpec<T> {
    return spec(parse);
  },
  /** Any JSON value, checked by `check`, which returns the typed value or throws. */
  json<T>(check: (value: unknown, name: string) => T): ParamSpec<T> {
    return jsonSpec((raw, name) => check(parseJson(raw, name), name));
  },
  /** A JSON object whose values are checked by the caller. */
  object(): ParamSpec<Record<string, unknown>> {
    return jsonSpec((raw, name) => {
      const v = parseJson(raw, name);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ApiError(`${name} is not a dict`, 'BAD_REQUEST');
      return v as Record<string, unknown>;
    });
  },
  /** A string that is a JSON-encoded or plain integer, or one of some words (e.g. anchor). */
  intOr<const T extends string>(words: readonly T[]): ParamSpec<number | T> {
    return spec((raw, name) => {
      if ((words as readonly string[]).includes(raw)) return raw as T;
      const unquoted = raw.startsWith('"') && raw.endsWith('"') && raw.length > 1 ? raw.slice(1, -1) : raw;
      if ((words as readonly string[]).includes(unquoted)) return unquoted as T;
      return toInt(unquoted, name, 'is not an integer');
    });
  },
};

export type ParamSpecs = Record<string, ParamSpec<unknown>>;
export type Decoded<S extends ParamSpecs> = { [K in keyof S]: S[K] extends ParamSpec<infer T> ? T : never };

export interface RawParams {
  values: Map<string, string>;
  pathValues: Record<string, string>;
}

/** A route's parameters in decoding order, with the names each may arrive under; made once a route. */
const decodingOrder = new WeakMap<ParamSpecs, [string, ParamSpec<unknown>, string[]][]>();

function orderOf(specs: ParamSpecs): [string, ParamSpec<unknown>, string[]][] {
  let ordered = decodingOrder.get(specs);
  if (!ordered) {
    // Path parameters first: an error about the URL comes before one about the body.
    ordered = Object.entries(specs)
      .sort(([, a], [, b]) => Number(b.inPath) - Number(a.inPath))
      .map(([name, s]) => [name, s, [name, ...s.aliases]]);
    decodingOrder.set(specs, ordered);
  }
  return ordered;
}

/** Decodes raw values against the specs; unknown names are returned as `ignored`. */
export function decodeParams<S extends ParamSpecs>(specs: S, raw: RawParams): { params: Decoded<S>; ignored: string[] } {
  const out: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, s, keys] of orderOf(specs)) {
    let value: string | undefined;
    if (s.inPath) {
      value = raw.pathValues[name];
    } else {
      for (const key of keys) {
        const v = raw.values.get(key);
        if (v !== undefined) {
          used.add(key);
          if (value === undefined) value = v;
        }
      }
    }
    if (value === undefined) {
      if (s.required) throw missingArgument(name);
      out[name] = s.defaultValue;
      continue;
    }
    // PostgreSQL text cannot hold NUL (SQLite's can): refused alike on both, before any query.
    if (value.includes('\u0000')) throw nullByte(name);
    out[name] = s.parse(value, name);
  }
  const ignored = [...raw.values.keys()].filter((k) => !used.has(k));
  return { params: out as Decoded<S>, ignored };
}

/** Checks a decoded JSON value is an object with the given field types (for list-of-dict params). */
export function expectObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'not a dict');
  return value as Record<string, unknown>;
}
