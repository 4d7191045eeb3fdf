// The worker thread that moves pending user_messages rows (pending-user-messages.ts), on a
// connection of its own to the app's file: a part a message, answered with whether there is more.
// It clears the shared `busy` flag (and wakes whoever waits on it) as soon as its transaction has
// ended, before it answers, so that a statement of the app waiting for the part goes on at once.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { configureConnection } from './connection.ts';
import { RowMover, type PartDone } from './pending-user-messages.ts';

const { file, busy } = workerData as { file: string; busy: Int32Array };
const port = parentPort!;
const db = new SQLite(file, { fileMustExist: true });
configureConnection(db);
const mover = new RowMover(db);

port.on('message', (m: 'part' | 'close') => {
  if (m === 'close') {
    db.close();
    port.close();
    return;
  }
  let done: PartDone;
  try {
    done = { more: mover.movePart() };
  } catch (err) {
    done = { error: (err as Error).message };
  }
  Atomics.store(busy, 0, 0);
  Atomics.notify(busy, 0);
  port.postMessage(done);
});
port.postMessage('ready');
