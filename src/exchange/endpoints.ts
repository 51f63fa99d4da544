/**
 * Every REST endpoint the client calls, as method + path template: the bounded set of `endpoint` labels of the
 * transport's observer hooks and of the metrics.
 *
 * Owns: the list itself. ExchangeApi (api.ts) can only call an endpoint listed here (its calls are typed by
 * `ApiEndpointRef`), so the metrics can pre-set their per-endpoint anomaly series from `API_ENDPOINT_LABELS`.
 */
import { endpointLabel, type EndpointRef } from './errors.js';

export const API_ENDPOINTS = {
  getMarket: { method: 'GET', pathTemplate: '/markets/{slug}' },
  getActiveMarkets: { method: 'GET', pathTemplate: '/markets/active' },
  getActiveMarketsByCategory: { method: 'GET', pathTemplate: '/markets/active/{categoryId}' },
  getOrderbook: { method: 'GET', pathTemplate: '/markets/{slug}/orderbook' },
  getUserOrders: { method: 'GET', pathTemplate: '/markets/{slug}/user-orders' },
  getMarketTrades: { method: 'GET', pathTemplate: '/markets/{slug}/events' },
  placeOrder: { method: 'POST', pathTemplate: '/orders' },
  cancelOrder: { method: 'DELETE', pathTemplate: '/orders/{orderId}' },
  cancelOrders: { method: 'POST', pathTemplate: '/orders/cancel-batch' },
  cancelAll: { method: 'DELETE', pathTemplate: '/orders/all/{slug}' },
  cancelReplace: { method: 'POST', pathTemplate: '/orders/cancel-replace' },
  cancelReplaceBatch: { method: 'POST', pathTemplate: '/orders/cancel-replace/batch' },
  getOrderStatuses: { method: 'POST', pathTemplate: '/orders/status/batch' },
  getMaintenanceStatus: { method: 'GET', pathTemplate: '/maintenance/status' },
  getProfile: { method: 'GET', pathTemplate: '/profiles/{address}' },
  getPositions: { method: 'GET', pathTemplate: '/portfolio/positions' },
  redeem: { method: 'POST', pathTemplate: '/portfolio/redeem' },
  getTradingAllowance: { method: 'GET', pathTemplate: '/portfolio/trading/allowance' },
  listApiTokens: { method: 'GET', pathTemplate: '/auth/api-tokens' },
} as const satisfies Readonly<Record<string, EndpointRef>>;

/** One of the endpoints above (method and path template together). */
export type ApiEndpointRef = (typeof API_ENDPOINTS)[keyof typeof API_ENDPOINTS];

/** Their labels, e.g. `GET /markets/{slug}` (see `endpointLabel`). */
export const API_ENDPOINT_LABELS: readonly string[] = Object.values(API_ENDPOINTS).map((endpoint) => endpointLabel(endpoint));
