// What every part of the running server shares: configuration, database, logger, event hub.
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { EventHub } from './events/hub.ts';
import type { QueueManager } from './events/manager.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { Logger } from './log.ts';
import type { Limiter } from './lib/limiter.ts';

export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  events: EventHub;
  /** This process's event queues; null in commands that do not serve (create-realm). */
  queues: QueueManager | null;
  /** Request and password limits. */
  limiter: RateLimiter;
  /** Seconds since the epoch when this process started (`server_generation`). */
  startedAt: number;
  /** Signs the image proxy's URLs (IMAGE_PROXY_SECRET, or the one kept in the database). */
  imageProxyKey: string;
  /** Link previews being fetched by this process (see actions/link-previews.ts). */
  previews: Set<Promise<void>>;
  /** Outgoing fetches at once per process: link previews, and image proxy requests. */
  fetchSlots: { previews: Limiter; images: Limiter };
}
