// Helpers of the tests that walk the route table: plausible values for the parameters a request
// needs besides the one under test, since decoding stops at the first bad parameter.
import type { ParamSpec } from '../../src/http/params.ts';
import type { Route } from '../../src/http/route.ts';

export function accepts(spec: ParamSpec<unknown>, raw: string): boolean {
  try {
    spec.parse(raw, 'x');
    return true;
  } catch {
    return false;
  }
}

const FILLERS = ['1', 'true', 'x', '[]', '{}', 'add', 'start', 'stream', 'read', 'direct', 'active'];

/** Values for the required body and query parameters of a route other than `except`. */
export function otherParams(r: Route, except: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(r.params)) {
    if (name === except || spec.inPath || !spec.required) continue;
    const filler = FILLERS.find((f) => accepts(spec, f));
    if (filler !== undefined) out[name] = filler;
  }
  return out;
}

/** The route's URL with its path parameters filled: the given user for users, 1 for the rest. */
export function routeUrl(r: Route, userId: number, values: Record<string, string> = {}): string {
  return '/api/v1' + r.path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(values[n] ?? (n.includes('user') ? String(userId) : '1')));
}
