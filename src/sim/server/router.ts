/**
 * A small method + path router for node:http: patterns such as `/markets/:slug/orderbook`, literal
 * segments preferred over parameters (so `/markets/active` never reaches `/markets/:slug`).
 *
 * Owns: route matching and path-parameter decoding. Invariants: a parameter is one non-empty path segment,
 * percent-decoded; a segment that does not decode is a 400, never an exception; an unmatched path is
 * reported as such (the server answers the framework 404).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { invalidField, type JsonBody } from './http-errors.js';
import type { ApiToken } from './hmac-verify.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** What a handler returns; `body: null` sends no body. */
export interface Reply {
  readonly status: number;
  readonly body: JsonBody | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** What the request log keeps of the request's content besides its path (e.g. the markets a batch named). */
  readonly logDetail?: RequestLogDetail;
}

/** The content of a request the log keeps (see request-log.ts). */
export interface RequestLogDetail {
  /** Market slugs the request's operations named, each once, in first-seen order. */
  readonly markets: readonly string[];
  /** Operations the request carried. */
  readonly operations: number;
}

export interface RequestContext {
  readonly method: string;
  /** Path and query exactly as received (what the client signed). */
  readonly url: string;
  /** Path without query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  /** The body as received ('' when none). */
  readonly rawBody: string;
  /** Server time (injected clock) at the start of the request. */
  readonly nowMs: number;
  /** The verified API token; null on public routes. */
  readonly token: ApiToken | null;
}

export type AuthRequirement = 'public' | 'hmac' | 'admin';

export interface RouteDef {
  readonly method: HttpMethod;
  readonly pattern: string;
  readonly auth: AuthRequirement;
  /** Scope the token must carry (hmac routes only). */
  readonly scope?: 'trading';
  /** Short name for metrics and the request log (e.g. `POST /orders`). Defaults to `METHOD pattern`. */
  readonly name?: string;
  readonly handler: (ctx: RequestContext) => Reply | Promise<Reply>;
}

interface CompiledRoute {
  readonly route: RouteDef;
  readonly segments: readonly ({ readonly literal: string } | { readonly param: string })[];
  readonly literalCount: number;
}

export interface RouteMatch {
  readonly route: RouteDef;
  readonly params: Readonly<Record<string, string>>;
}

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDef[]) {
    this.compiled = routes.map((route) => {
      const segments = splitPath(route.pattern).map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
      return { route, segments, literalCount: segments.filter((s) => 'literal' in s).length };
    });
  }

  /** The best match for `method path`, or null. Throws a 400 HttpError for an undecodable parameter. */
  match(method: string, path: string): RouteMatch | null {
    const parts = splitPath(path);
    let best: { compiled: CompiledRoute; raw: Record<string, string> } | null = null;
    for (const compiled of this.compiled) {
      if (compiled.route.method !== method || compiled.segments.length !== parts.length) continue;
      const raw: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const segment = compiled.segments[i];
        const part = parts[i];
        if (segment === undefined || part === undefined) ok = false;
        else if ('literal' in segment) ok = segment.literal === part;
        else if (part.length === 0) ok = false;
        else raw[segment.param] = part;
      }
      if (ok && (best === null || compiled.literalCount > best.compiled.literalCount)) best = { compiled, raw };
    }
    if (!best) return null;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(best.raw)) {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        throw invalidField(name, `${name} is not a valid URL path segment`);
      }
    }
    return { route: best.compiled.route, params };
  }
}

function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}
