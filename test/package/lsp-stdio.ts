/** The few LSP messages the package tests send to an installed `shardwise-language-server --stdio`. */
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export type StdioServer = ChildProcessByStdio<Writable, Readable, null>;

export function lspOverStdio(server: StdioServer): { initialize(): Promise<{ id: number; result: { capabilities: Record<string, unknown> } }>; shutdownAndExit(): Promise<number | null> } {
  const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
  const send = (m: object): void => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...m });
    server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  return {
    /** Sends initialize and resolves with the first message back (the reply), within 20 s. */
    initialize() {
      let out = '';
      const answered = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to initialize: ${out.slice(0, 200)}`)), 20_000);
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          const m = /Content-Length: (\d+)\r\n\r\n/.exec(out);
          if (m && out.length >= m.index + m[0].length + Number(m[1])) {
            clearTimeout(timer);
            resolve(out.slice(m.index + m[0].length, m.index + m[0].length + Number(m[1])));
          }
        });
      });
      send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
      return answered.then((text) => JSON.parse(text));
    },
    /** initialized, shutdown, exit: resolves with the server's exit code. */
    shutdownAndExit() {
      send({ method: 'initialized', params: {} });
      send({ id: 2, method: 'shutdown' });
      send({ method: 'exit' });
      return exited;
    },
  };
}
