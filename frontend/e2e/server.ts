// Starts a real Trove server on a random port and stops it again.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));

export interface Server {
  url: string;
  dir: string;
  stop(): Promise<void>;
  log(): string;
}

export function troveBinary(): string {
  const bin = resolve(process.env.TROVE_BIN ?? join(here, '..', '..', 'build', 'bin', 'trove'));
  if (!existsSync(bin)) {
    throw new Error(`no Trove binary at ${bin}: run "make build" first (or set TROVE_BIN)`);
  }
  return bin;
}

export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'trove-e2e-'));
  const child: ChildProcess = spawn(
    troveBinary(),
    ['serve', '--addr', '127.0.0.1:0', '--data-dir', join(dir, 'data'), '--config-dir', join(dir, 'config')],
    { env: { ...process.env, TROVE_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`Trove did not start in 20 s:\n${log}`)), 20_000);
    const onData = (b: Buffer) => {
      log += b.toString();
      const m = /msg="trove started" addr=(127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolveUrl(`http://${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Trove exited (${code}) before it started:\n${log}`));
    });
  });
  return {
    url,
    dir,
    log: () => log,
    // Stops the server and removes its folder (KEEP_E2E_DIR=1 keeps it).
    stop: async () => {
      await new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.on('exit', () => {
          clearTimeout(kill);
          done();
        });
        child.kill('SIGTERM');
      });
      if (process.env.KEEP_E2E_DIR !== '1') rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Watches a folder through the API and waits until count of its files are indexed (or failed). */
export async function watchAndIndex(server: Server, path: string, count: number): Promise<void> {
  const res = await fetch(server.url + '/api/watch/directory', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path }),
  });
  if (res.status >= 300) throw new Error(`watching ${path}: ${res.status} ${await res.text()}`);
  await vi.waitFor(
    async () => {
      const st = await (await fetch(server.url + '/api/files/stats')).json();
      if (st.total_files + st.failed_files < count) throw new Error(`indexed ${st.total_files} of ${count} files`);
    },
    { timeout: 60_000, interval: 200 },
  );
}

/**
 * Asks Trove's MCP server as an AI agent would: one JSON-RPC request to
 * POST /mcp (the transport is stateless). Answers the JSON-RPC reply.
 */
export async function mcp(url: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(url + '/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  if (!res.ok) throw new Error(`MCP ${method}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Calls a tool of Trove's MCP server as an AI agent would. */
export const callTool = (url: string, tool: string, args: Record<string, unknown>) => mcp(url, 'tools/call', { name: tool, arguments: args });
