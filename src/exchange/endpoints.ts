/**
 * Every REST endpoint the client calls, as method + path template: the bounded set of `endpoint` labels of the
 * transport's observer hooks and of the metrics; and each one's request kind, its row of the retry table
 * (retry-table.ts).
 *
 * Owns: the list itself and each endpoint's kind. ExchangeApi (api.ts) can only call an endpoint listed here (its calls are typed by
 * `ApiEndpointRef`), so the metrics can pre-set their per-endpoint anomaly series from `API_ENDPOINT_LABELS`.
 */
import { endpointLabel, type EndpointRef } from './errors.js';
import type { RequestKind } from './retry-table.js';

export const API_ENDPOINTS = {
  getMarket: { method: 'GET', pathTemplate: '/markets/{slug}', kind: 'read' },
  getActiveMarkets: { method: 'GET', pathTemplate: '/markets/active', kind: 'read' },
  getActiveMarketsByCategory: { method: 'GET', pathTemplate: '/markets/active/{categoryId}', kind: 'read' },
  getOrderbook: { method: 'GET', pathTemplate: '/markets/{slug}/orderbook', kind: 'read' },
  getUserOrders: { method: 'GET', pathTemplate: '/markets/{slug}/user-orders', kind: 'read' },
  getMarketTrades: { method: 'GET', pathTemplate: '/markets/{slug}/events', kind: 'read' },
  placeOrder: { method: 'POST', pathTemplate: '/orders', kind: 'place' },
  cancelOrder: { method: 'DELETE', pathTemplate: '/orders/{orderId}', kind: 'cancel' },
  cancelOrders: { method: 'POST', pathTemplate: '/orders/cancel-batch', kind: 'cancel' },
  batchCancel: { method: 'POST', pathTemplate: '/orders/batch-cancel', kind: 'cancel' },
  cancelTarget: { method: 'POST', pathTemplate: '/orders/cancel', kind: 'cancel' },
  cancelAll: { method: 'DELETE', pathTemplate: '/orders/all/{slug}', kind: 'cancel' },
  cancelReplace: { method: 'POST', pathTemplate: '/orders/cancel-replace', kind: 'cancel-replace' },
  cancelReplaceBatch: { method: 'POST', pathTemplate: '/orders/cancel-replace/batch', kind: 'cancel-replace' },
  getOrderStatuses: { method: 'POST', pathTemplate: '/orders/status/batch', kind: 'read' },
  getMaintenanceStatus: { method: 'GET', pathTemplate: '/maintenance/status', kind: 'read' },
  getProfile: { method: 'GET', pathTemplate: '/profiles/{address}', kind: 'account' },
  getPositions: { method: 'GET', pathTemplate: '/portfolio/positions', kind: 'read' },
  getHistory: { method: 'GET', pathTemplate: '/portfolio/history', kind: 'read' },
  redeem: { method: 'POST', pathTemplate: '/portfolio/redeem', kind: 'redeem' },
  getTradingAllowance: { method: 'GET', pathTemplate: '/portfolio/trading/allowance', kind: 'account' },
  listApiTokens: { method: 'GET', pathTemplate: '/auth/api-tokens', kind: 'account' },
} as const satisfies Readonly<Record<string, EndpointRef & { readonly kind: RequestKind }>>;

/** One of the endpoints above (method and path template together). */
export type ApiEndpointRef = (typeof API_ENDPOINTS)[keyof typeof API_ENDPOINTS];

/** Their labels, e.g. `GET /markets/{slug}` (see `endpointLabel`). */
export const API_ENDPOINT_LABELS: readonly string[] = Object.values(API_ENDPOINTS).map((endpoint) => endpointLabel(endpoint));
