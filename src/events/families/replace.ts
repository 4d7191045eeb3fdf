// Families whose events carry the whole new value of one snapshot field: the client replaces it.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

/** A family whose event field `from` replaces the snapshot field `to` (when the client has it). */
export function replaceFamily(from: string, to: string): EventFamily {
  return {
    apply(state: State, event: BaseEvent): void {
      if (to in state) state[to] = structuredClone(event[from]);
    },
  };
}
