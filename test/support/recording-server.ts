/**
 * A small HTTP server for client tests: listens on 127.0.0.1 port 0, records every request (method, raw path with
 * query, headers, body, arrival time, requests in flight at arrival) and answers from a script.
 *
 * Answers come from queued replies first (`enqueue`, consumed in order), then from the handler (`setHandler`),
 * else 200 `{}`. A reply can delay, hang until the client gives up, or destroy the connection.
 * `recordingServerForFile` keeps one such server for a whole test file.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { perFile } from './lifecycle.js';

export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  /** Path and query exactly as received (what the client signed). */
  readonly url: string;
  readonly pathname: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() when the request line and headers arrived. */
  readonly arrivedAt: number;
  /** Requests in flight (this one included) when it arrived. */
  readonly inFlightAtArrival: number;
}

export type Reply =
  | {
      readonly status?: number;
      /** JSON-encoded unless `rawBody` is given. */
      readonly body?: unknown;
      readonly rawBody?: string | Buffer;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  | { readonly hang: true }
  | { readonly destroy: true };

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface RecordingServer {
  /** e.g. http://127.0.0.1:54321 */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Most requests in flight at once so far. */
  readonly maxInFlight: number;
  setHandler(handler: Handler): void;
  enqueue(...replies: Reply[]): void;
  /** Resolves when `count` requests have arrived (polls; rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export { header as headerOf };

export async function startRecordingServer(initial?: Handler): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const sockets = new Set<Socket>();
  let handler: Handler | undefined = initial;
  let inFlight = 0;
  let maxInFlight = 0;

  const send = (res: ServerResponse, reply: Reply): void => {
    if ('hang' in reply) return;
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    const text = reply.rawBody ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    const arrivedAt = performance.now();
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const inFlightAtArrival = inFlight;
    let done = false;
    const finish = (): void => {
      if (!done) {
        done = true;
        inFlight -= 1;
      }
    };
    res.on('close', finish);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const parsed = new URL(url, 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        index: requests.length,
        method: req.method ?? 'GET',
        url,
        pathname: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        arrivedAt,
        inFlightAtArrival,
      };
      requests.push(recorded);
      const scripted = queue.shift();
      void Promise.resolve(scripted ?? (handler ? handler(recorded) : { status: 200, body: {} })).then(
        (reply) => {
          const delay = 'delayMs' in reply ? (reply.delayMs ?? 0) : 0;
          if (delay > 0) setTimeout(() => send(res, reply), delay);
          else send(res, reply);
        },
        () => send(res, { status: 500, body: { message: 'test handler failed' } }),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    setHandler(next) {
      handler = next;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    async waitForRequests(count, timeoutMs = 5000) {
      const deadline = performance.now() + timeoutMs;
      while (requests.length < count) {
        if (performance.now() > deadline) throw new Error(`only ${requests.length} of ${count} requests arrived`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One recording server for a whole test file: started before its first test (beforeAll), closed after its last
 * (afterAll). Call it at the top level of the file; the handle it returns stands for that server, so use it inside
 * tests and hooks only.
 */
export function recordingServerForFile(initial?: Handler): RecordingServer {
  const server = perFile(
    () => startRecordingServer(initial),
    (running) => running.close(),
  );
  return {
    get url() {
      return server().url;
    },
    get requests() {
      return server().requests;
    },
    get maxInFlight() {
      return server().maxInFlight;
    },
    setHandler: (next) => server().setHandler(next),
    enqueue: (...replies) => server().enqueue(...replies),
    waitForRequests: (count, timeoutMs) => server().waitForRequests(count, timeoutMs),
    close: () => server().close(),
  };
}
