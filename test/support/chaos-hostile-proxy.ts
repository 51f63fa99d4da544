/**
 * A hostile HTTP proxy for bad-input tests: it forwards every request to the simulator unchanged (path, query,
 * headers and body, so HMAC signatures still verify) and returns the simulator's answer, except for requests
 * matching a rule, whose answer it replaces with a hostile one (bad JSON, wrong types, NaN, a mutated copy of the
 * real answer). Listens on 127.0.0.1 port 0.
 *
 * Owns: the rules, a log of what it replaced, and the moment each request reached it (`receipts`: the hop adds its own
 * latency, different per request, so the simulator's arrival stamps are not the bot's spacing; a rate-limit check
 * judges the moments the bot's requests reached the rig instead). Invariant: a rule applies at most `times` times, in
 * the order the rules were added; unmatched requests pass through byte for byte.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { authHeaderNames } from '../../src/exchange/auth.js';

/** A request as it reached the proxy: when (Date.now), what, and its signed timestamp (ms; null when unsigned). */
export interface ProxyReceipt {
  readonly atMs: number;
  readonly method: string;
  readonly path: string;
  readonly signedAtMs: number | null;
}

export interface HostileRule {
  readonly name: string;
  readonly method: string;
  readonly path: RegExp;
  /** How many matching requests to poison (default 1). */
  readonly times?: number;
  /** The hostile answer: a raw body, or a function of the real answer's parsed JSON (its result is sent as JSON). */
  readonly answer: { readonly status?: number; readonly rawBody: string } | { readonly status?: number; readonly mutate: (real: unknown) => unknown };
}

export interface HostileProxy {
  readonly url: string;
  /** Adds a rule; returns a probe telling how many times it has fired. */
  poison(rule: HostileRule): () => number;
  /** Rules not yet used up. */
  pending(): string[];
  /** Uses up every rule: what one case poisoned never reaches the next one. */
  disarm(): void;
  /** Every request received so far, in arrival order. */
  receipts(): readonly ProxyReceipt[];
  close(): Promise<void>;
}

interface ActiveRule {
  readonly rule: HostileRule;
  left: number;
  fired: number;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function startHostileProxy(targetBaseUrl: string): Promise<HostileProxy> {
  const target = new URL(targetBaseUrl);
  const rules: ActiveRule[] = [];
  const sockets = new Set<Socket>();
  const received: ProxyReceipt[] = [];
  const timestampHeader = authHeaderNames().timestamp.toLowerCase();

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const signed = req.headers[timestampHeader];
    const signedAtMs = typeof signed === 'string' ? Date.parse(signed) : Number.NaN;
    received.push({ atMs: Date.now(), method: req.method ?? '', path, signedAtMs: Number.isFinite(signedAtMs) ? signedAtMs : null });
    void (async () => {
      const body = await readAll(req);
      const active = rules.find((r) => r.left > 0 && r.rule.method === req.method && r.rule.path.test(path));
      const upstream = await new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string' && key !== 'host') headers[key] = value;
        const forward = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, host: target.host } },
          (answer) => {
            void readAll(answer).then((text) => {
              const out: Record<string, string> = {};
              for (const [key, value] of Object.entries(answer.headers)) if (typeof value === 'string') out[key] = value;
              resolve({ status: answer.statusCode ?? 502, headers: out, body: text });
            }, reject);
          },
        );
        forward.on('error', reject);
        forward.end(body);
      });
      if (active === undefined || upstream.status >= 300) {
        res.writeHead(upstream.status, upstream.headers);
        res.end(upstream.body);
        return;
      }
      active.left -= 1;
      active.fired += 1;
      const answer = active.rule.answer;
      const text = 'rawBody' in answer ? answer.rawBody : JSON.stringify(answer.mutate(parseJson(upstream.body.toString('utf8'))));
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    poison(rule) {
      const active: ActiveRule = { rule, left: rule.times ?? 1, fired: 0 };
      rules.push(active);
      return () => active.fired;
    },
    pending: () => rules.filter((r) => r.left > 0).map((r) => r.rule.name),
    disarm() {
      for (const active of rules) active.left = 0;
    },
    receipts() {
      return received;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
