// Message history for the Recent conversations view: the newest messages of every conversation
// (GET /messages with an empty narrow, from the newest back), and older pages on request. What is
// fetched goes into the store like any other fetch; the view derives its rows from the store.
import { signal } from '@preact/signals';
import type { Client } from './client.ts';

export const RECENT_PAGE = 400;

export class RecentHistory {
  /** The oldest message fetched so far; older conversations need "Load more". */
  readonly oldest = signal<number | null>(null);
  readonly foundOldest = signal(false);
  readonly loading = signal(false);
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly client: Client,
    private readonly page = RECENT_PAGE,
  ) {}

  /** The newest page (again on every open: a lost event queue may have missed messages). */
  refresh(): Promise<void> {
    this.refreshing ??= this.fetch('newest').finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** The page before the oldest message fetched so far. */
  async more(): Promise<void> {
    if (this.loading.value || this.foundOldest.value) return;
    const oldest = this.oldest.value;
    if (oldest === null) return this.refresh();
    await this.fetch(oldest);
  }

  private async fetch(anchor: number | 'newest'): Promise<void> {
    this.loading.value = true;
    try {
      const r = await this.client.fetch([], anchor, this.page, 0);
      this.client.store.addFetched(r.messages);
      const first = r.messages[0]?.id;
      if (first !== undefined && (this.oldest.value === null || first < this.oldest.value)) this.oldest.value = first;
      // The newest page reaching the oldest message says so too, unless older pages came before.
      if (r.found_oldest && (anchor !== 'newest' || first === undefined || this.oldest.value === first)) this.foundOldest.value = true;
    } finally {
      this.loading.value = false;
    }
  }
}
