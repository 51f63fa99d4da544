/**
 * One markout figure of a replay report: the mean markout per fill at one horizon, in USDC, over the fills whose later
 * price was known. Its own module so the report and its sections (./surface-report.ts) share it without a circle.
 */
export interface MarkoutFigure {
  readonly horizonMs: number;
  /** Fills whose later price was known (the recording ran long enough after them). */
  readonly fills: number;
  readonly meanUsdc: number;
}
