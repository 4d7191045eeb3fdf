// The app's parts, set once at start: the store (server state) and the client (network).
import type { Client } from '../api/client.ts';
import type { Store } from '../store/index.ts';

export let client: Client;
export let store: Store;

export function setContext(c: Client): void {
  client = c;
  store = c.store;
}
