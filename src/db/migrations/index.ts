// Every migration, in order. A migration's name never changes once it has landed.
import type { Migration } from './util.ts';
import { migration as core } from './0001_core.ts';
import { migration as shared } from './0002_shared.ts';
import { migration as personal } from './0005_personal.ts';

export const migrations: Migration[] = [core, shared, personal];
