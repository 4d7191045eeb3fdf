// Applies of events that add, change and remove entries of a snapshot list one by one.

/**
 * The list with the entries of `changed` in place of those with the same key, without the
 * entries keyed in `gone`, in the snapshot's order. Applying an event twice gives the same list.
 */
export function upsertSorted<T>(list: readonly T[], keyOf: (entry: T) => number, changed: readonly T[], gone: readonly number[], order: (a: T, b: T) => number): T[] {
  const drop = new Set([...changed.map(keyOf), ...gone]);
  return [...list.filter((entry) => !drop.has(keyOf(entry))), ...structuredClone(changed)].sort(order);
}
