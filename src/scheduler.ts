// Background work of a server process: delivering scheduled messages when they come due
// (including those that came due while no server was running).
import type { AppContext } from './context.ts';
import { deliverDueScheduledMessages } from './actions/scheduled-delivery.ts';
import { LIMITS } from './lib/limits.ts';

export interface Scheduler {
  /** Stops polling and waits for a delivery under way. */
  stop(): Promise<void>;
}

export function startScheduler(app: AppContext, intervalMs: number = LIMITS.scheduledDeliveryPollMs): Scheduler {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = (): void => {
    running = deliverDueScheduledMessages(app)
      .then(() => undefined)
      .catch((err: unknown) => app.log.error({ err }, 'scheduled message pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  // The first pass at once: messages that came due while the server was down go out now.
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
