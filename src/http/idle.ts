// Memory given back when the server turns idle (issue 19). A burst of work (starting up, a
// register's snapshot) grows V8's young generation towards its 16 MB semi-spaces, about 30 MB
// resident, and only a collection that V8 schedules by itself shrinks it again: in a quiet
// server that came 10 to 20 s later in some runs and not within 30 s in others. So the server
// collects by itself once no request has come for a while, and again a while later: V8 shrinks
// the young generation in a full collection only when it has seen next to no allocation over
// the last 5 s, and the first collection may still count the burst.
import type { Server } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Runs V8's full garbage collection. Node offers it only with `--expose-gc`, a flag that
 * `npm start` and `parley serve` cannot pass to their own process; set now, the flag puts `gc`
 * into the contexts made after it, such as the one made here (once).
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

export interface IdleWatch {
  stop(): void;
}

/**
 * Calls `onIdle(n)` at the end of each of the first `calls` whole periods of `periodMs` without a
 * request to `server` (n = 1, 2, ...) that follow requests or, the first time, the start. The
 * first comes between one and two periods after the last request. Counting requests is all it
 * adds to them.
 */
export function watchIdle(server: Server, periodMs: number, calls: number, onIdle: (n: number) => void): IdleWatch {
  let requests = 0;
  let seen = 0;
  // Whole quiet periods so far; the start counts as requests (it leaves as much behind).
  let quiet = 0;
  const count = () => void requests++;
  server.on('request', count);
  const timer = setInterval(() => {
    if (requests !== seen) {
      seen = requests;
      quiet = 0;
    } else if (quiet < calls) {
      quiet++;
      onIdle(quiet);
    }
  }, periodMs);
  // An idle check is no reason to keep the process alive.
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      server.off('request', count);
    },
  };
}
