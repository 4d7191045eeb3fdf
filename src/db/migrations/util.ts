import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** An auto-increment integer primary key, spelled the way each dialect wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const flag = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.notNull().defaultTo(0);

export interface Migration {
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}
