// Lists from requests can be long; a statement binds at most 32,766 variables on SQLite and
// 65,535 on PostgreSQL, so a query over a list runs once per slice of it.

export const LIST_CHUNK = 500;

/** Runs `query` on each slice of `items` and joins the rows, in slice order. */
export async function inChunks<T, R>(items: readonly T[], query: (part: T[]) => Promise<R[]>): Promise<R[]> {
  if (items.length <= LIST_CHUNK) return items.length === 0 ? [] : query([...items]);
  const out: R[] = [];
  for (let i = 0; i < items.length; i += LIST_CHUNK) out.push(...(await query(items.slice(i, i + LIST_CHUNK))));
  return out;
}
