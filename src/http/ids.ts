// Parameters that name rows by ID: checked against the ID range so that an oversized number is a
// clear 400 rather than a database error on PostgreSQL.
import { p, type ParamSpec } from './params.ts';
import { badRequest } from '../lib/errors.ts';
import { MAX_DB_ID } from '../lib/limits.ts';

export { isDbId } from '../lib/limits.ts';

export const id = (): ParamSpec<number> => p.int({ max: MAX_DB_ID });

export function idList(): ParamSpec<number[]> {
  return p.json((value, name) => {
    if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
    return value.map((v, i) => {
      if (!Number.isSafeInteger(v)) throw badRequest(`${name}[${i}] is not an integer`);
      if ((v as number) > MAX_DB_ID || (v as number) < -MAX_DB_ID) throw badRequest(`${name}[${i}] is too large`);
      return v as number;
    });
  });
}
