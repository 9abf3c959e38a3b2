/**
 * `shardwise-language-server`: the language server for any LSP editor.
 *   shardwise-language-server --stdio       (also --node-ipc, --socket=<port>, --pipe=<name>)
 */
import { format } from 'node:util';
import { createConnection, ProposedFeatures, type Connection, type ResponseMessage } from 'vscode-languageserver/node';
import { SHARDWISE_VERSION } from '../release';
import { heavyWorker, isHeavyWorker } from './heavy';
import { startServer } from './server';
import { LifecycleGate, transportFromArgs, type MessageProblem } from './transport';

// The same bundle runs the analysis of a heavy document in a worker thread (heavy.ts).
if (isHeavyWorker()) heavyWorker();
else serve();

function serve(): void {
  const args = process.argv.slice(2);
  if (args.includes('--version') || args.includes('-v')) {
    process.stdout.write(`shardwise-language-server ${SHARDWISE_VERSION}\n`);
    process.exit(0);
  }
  let connection: Connection | undefined;
  /** Dropped frames are answered when JSON-RPC asks for it (id null for a body that is not JSON) and logged. */
  const onProblem = (p: MessageProblem, answer: boolean): void => {
    const response: ResponseMessage = { jsonrpc: '2.0', id: p.id, error: { code: p.code, message: p.message } };
    if (answer) void transport?.writer.write(response).catch(() => undefined);
    connection?.console.warn(`shardwise: ${p.message}`);
  };
  const transport = args.includes('--help') || args.includes('-h') ? undefined : transportFromArgs(args, onProblem);
  if (!transport) {
    process.stdout.write('Usage: shardwise-language-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>\n');
    process.exit(args.includes('--help') || args.includes('-h') ? 0 : 2);
  }
  const gate = new LifecycleGate(transport.reader, transport.writer);
  connection = createConnection(ProposedFeatures.all, gate, transport.writer);
  if (transport.stdio) {
    // stdout carries the protocol: console output goes to the client's log instead.
    const log = connection.console;
    console.log = (...a: unknown[]) => log.log(format(...a));
    console.info = (...a: unknown[]) => log.info(format(...a));
    console.warn = (...a: unknown[]) => log.warn(format(...a));
    console.error = (...a: unknown[]) => log.error(format(...a));
    console.debug = (...a: unknown[]) => log.log(format(...a));
  }
  // The client went away: exit, successfully only after a shutdown request (as after `exit`).
  gate.onClose(() => process.exit(gate.state === 'shutdown' ? 0 : 1));
  startServer(connection);
}
