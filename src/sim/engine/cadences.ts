/**
 * The cadences of the crypto world's recurring strike markets, shortest first. A module of its own, below both the
 * engine's base types (an OracleSpec names its cadence) and the market set (crypto-markets.ts, which re-exports
 * these and owns what each cadence means: period, label, category, schedule).
 */
export const CADENCES = ['15m', 'hourly', 'daily', 'weekly'] as const;
export type Cadence = (typeof CADENCES)[number];
