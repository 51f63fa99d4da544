/**
 * Test helper (tests only): a plain socket.io-client connection to the simulator's `/markets` namespace
 * (HMAC handshake headers from src/exchange/auth.ts when credentials are given) that records every event,
 * with waits that poll the record instead of sleeping.
 */
import { io, type Socket } from 'socket.io-client';
import { socketHandshakeHeaders, type ApiCredentials } from '../../src/exchange/auth.js';
import { waitUntil } from './sim-http.js';

export interface RecordedEvent {
  readonly name: string;
  readonly payload: unknown;
  readonly atMs: number;
}

export class SocketRecorder {
  readonly events: RecordedEvent[] = [];

  constructor(readonly socket: Socket) {
    socket.onAny((name: string, payload: unknown) => this.events.push({ name, payload, atMs: Date.now() }));
  }

  named(name: string): RecordedEvent[] {
    return this.events.filter((e) => e.name === name);
  }

  /** Waits for the first event `name` after index `from` that satisfies `predicate`. */
  waitFor(name: string, predicate: (payload: unknown) => boolean = () => true, timeoutMs = 3_000, from = 0): Promise<unknown> {
    return waitUntil(
      () => this.events.slice(from).find((e) => e.name === name && predicate(e.payload))?.payload,
      timeoutMs,
      `socket event ${name}`,
    );
  }

  mark(): number {
    return this.events.length;
  }

  close(): void {
    this.socket.disconnect();
  }
}

export interface ConnectOptions {
  readonly creds?: ApiCredentials;
  readonly prefix?: string;
  readonly nowMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly reconnection?: boolean;
}

export async function connectMarkets(socketUrl: string, options: ConnectOptions = {}): Promise<SocketRecorder> {
  const auth = options.creds ? socketHandshakeHeaders(options.creds, options.nowMs ?? Date.now(), options.prefix) : {};
  const socket = io(`${socketUrl}/markets`, {
    transports: ['websocket'],
    extraHeaders: { ...auth, ...options.headers },
    reconnection: options.reconnection ?? false,
    forceNew: true,
  });
  const recorder = new SocketRecorder(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return recorder;
}
