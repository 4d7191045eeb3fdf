// Events between several server processes: every action's events go once onto a Redis stream,
// and every process reads the whole stream, in order, into its own queues. A process that loses
// Redis keeps its read position and catches up when the connection returns; events published
// meanwhile wait in the client's offline queue.
import type { Redis } from 'ioredis';
import type ioredisTypes from 'ioredis';
import { lazy } from '../lazy.ts';
import type { Logger } from '../log.ts';
import type { EventHub } from './hub.ts';
import type { QueueDirectory } from './manager.ts';
import type { ParleyEvent } from './registry.ts';

const ioredis = lazy<typeof ioredisTypes>('ioredis');

/** Roughly how many events the stream keeps for processes catching up. */
const STREAM_LENGTH = 100_000;
const READ_BATCH = 500;
const BLOCK_MS = 2000;

/** How long a queue's owner record lives without its queue being removed (a crashed owner). */
const OWNER_TTL_SECONDS = 24 * 3600;

export class RedisBus implements EventHub, QueueDirectory {
  /** This process's base URL, where other processes forward long-polls of its queues. */
  selfUrl = '';
  private readonly writer: Redis;
  private readonly reader: Redis;
  private readonly key: string;
  private lastId = '$';
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(
    url: string,
    prefix: string,
    /** Where this process delivers what it reads: its queue manager. */
    private readonly local: EventHub,
    private readonly log: Logger,
  ) {
    this.key = `${prefix}:events`;
    this.writer = new (ioredis().Redis)(url, { lazyConnect: true, maxRetriesPerRequest: null });
    this.reader = new (ioredis().Redis)(url, { lazyConnect: true, maxRetriesPerRequest: null });
  }

  async start(): Promise<void> {
    await Promise.all([this.writer.connect(), this.reader.connect()]);
    // Start after the newest entry: queues restored from a save have what came before.
    const newest = await this.reader.xrevrange(this.key, '+', '-', 'COUNT', 1);
    this.lastId = newest[0]?.[0] ?? '0-0';
    this.running = true;
    this.loop = this.readLoop();
  }

  publish(event: ParleyEvent, userIds: readonly number[]): void {
    const data = JSON.stringify({ event, userIds });
    this.writer.xadd(this.key, 'MAXLEN', '~', String(STREAM_LENGTH), '*', 'e', data).catch((err: unknown) => {
      this.log.error({ err }, 'could not publish an event to Redis');
    });
  }

  /** An entry of its own kind ('s'), so every process ends the polls of those sessions. */
  sessionsEnded(userId: number): void {
    this.writer.xadd(this.key, 'MAXLEN', '~', String(STREAM_LENGTH), '*', 's', String(userId)).catch((err: unknown) => {
      this.log.error({ err }, 'could not publish ended sessions to Redis');
    });
  }

  private async readLoop(): Promise<void> {
    while (this.running) {
      try {
        const res = await this.reader.xread('COUNT', READ_BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', this.key, this.lastId);
        for (const [, entries] of res ?? []) {
          for (const [id, fields] of entries) {
            this.lastId = id;
            const data = fields[1];
            if (data === undefined) continue;
            if (fields[0] === 's') {
              this.local.sessionsEnded(Number(data));
              continue;
            }
            const { event, userIds } = JSON.parse(data) as { event: ParleyEvent; userIds: number[] };
            this.local.publish(event, userIds);
          }
        }
      } catch (err) {
        if (!this.running) return;
        this.log.warn({ err }, 'reading events from Redis failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private ownerKey(queueId: string): string {
    return `${this.key}:owner:${queueId}`;
  }

  claim(queueId: string): void {
    if (!this.selfUrl) return;
    this.writer.set(this.ownerKey(queueId), this.selfUrl, 'EX', OWNER_TTL_SECONDS).catch((err: unknown) => this.log.warn({ err }, 'could not record a queue owner'));
  }

  release(queueId: string): void {
    this.writer.del(this.ownerKey(queueId)).catch((err: unknown) => this.log.warn({ err }, 'could not remove a queue owner'));
  }

  async ownerElsewhere(queueId: string): Promise<string | null> {
    const owner = await this.writer.get(this.ownerKey(queueId));
    return owner && owner !== this.selfUrl ? owner : null;
  }

  async stop(): Promise<void> {
    this.running = false;
    // The blocked read ends with the connection.
    this.reader.disconnect();
    await this.loop?.catch(() => undefined);
    await this.writer.quit().catch(() => undefined);
  }
}
