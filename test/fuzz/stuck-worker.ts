/** A worker that never answers (a true infinite loop), for testing the pool's watchdog. */
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', () => {
  for (;;) {
    // Spins until the watchdog terminates the thread.
  }
});
parentPort!.postMessage({ type: 'ready' });
