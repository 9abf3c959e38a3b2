/**
 * `shardwise-language-server`: the language server for any LSP editor.
 *   shardwise-language-server --stdio       (also --node-ipc, --socket=<port>)
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write('shardwise-language-server 0.1.0\n');
  process.exit(0);
}
if (args.includes('--help') || args.includes('-h') || !args.some((a) => /^--(stdio|node-ipc|socket|pipe|clientProcessId)/.test(a))) {
  process.stdout.write('Usage: shardwise-language-server --stdio | --node-ipc | --socket=<port>\n');
  process.exit(args.includes('--help') || args.includes('-h') ? 0 : 2);
}
startServer(createConnection(ProposedFeatures.all));
