/**
 * The `shardwise` command: runs the CLI (cli.ts) in a worker thread with a small young generation. A whole-repository scan allocates about 35 bytes per byte it
 * parses, and with V8's default sizes the dead trees of finished files pile up to far more than the
 * scan needs; with 2 MiB semi-spaces and a 1 GiB old generation (which also makes V8 collect sooner;
 * no file the CLI reads needs more) the process stays flat (about 130 MiB over Megatron-LM's 1,541
 * candidate files) for about a quarter more CPU. The bundle is one file; the CLI's modules are
 * initialised only where `require('./cli')` runs (and its `main` with the arguments), in the worker (SHARDWISE_NO_WORKER=1: on the main
 * thread). Only `check` reads many files: the commands that read one file or none (`plan`, `layout`, `mfu`, `explain`, `rules`,
 * `docs`, the help) run on the main thread, which spares them a second load of the bundle in the worker and the small young
 * generation's extra collections (`plan` allocates much and briefly: about a fifth of its time).
 */
import { isMainThread, Worker } from 'node:worker_threads';

const HEAP_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 1024 };
// A reader that goes away (`shardwise check | head`, a closed stdout): the rest of the output has
// nowhere to go, which is not the check's failure: no stack trace, and the exit code stays the check's.
if (isMainThread) process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
});
const ONE_FILE_OR_NONE = new Set(['plan', 'layout', 'mfu', 'explain', 'rules', 'docs', 'help', '--help', '-h', '--version', '-V', '-v']);
const inProcess = !isMainThread || process.env.SHARDWISE_NO_WORKER === '1' || ONE_FILE_OR_NONE.has(process.argv[2] ?? '');
if (inProcess) process.exitCode = (require('./cli') as typeof import('./cli')).main(process.argv.slice(2));
else {
  const worker = new Worker(__filename, { argv: process.argv.slice(2), resourceLimits: HEAP_LIMITS, stdout: false, stderr: false });
  worker.on('error', (err) => {
    process.stderr.write(`shardwise: the check stopped: ${String((err as Error)?.message ?? err).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')}\n`);
    process.exitCode = 2;
  });
  worker.on('exit', (code) => {
    process.exitCode ??= code;
  });
}
