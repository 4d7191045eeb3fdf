// Event types whose events carry the whole new value of one snapshot field: the client replaces it.
import type { Apply } from '../event-type.ts';

/** An apply by which the event field `from` replaces the snapshot field `to` (when the client has it). */
export function replaceApply(from: string, to: string): Apply {
  return (state, event) => {
    if (to in state) state[to] = structuredClone(event[from]);
  };
}
