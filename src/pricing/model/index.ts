/** The pricing model (pure maths): distributions, the volatility estimator, the digital fair value, calibration scores. */
export { normalCdf, normalPdf, standardisedTCdf, standardisedTPdf, studentTCdf } from './distributions.js';
export { DEFAULT_VOLATILITY, SECONDS_PER_YEAR, VolatilityEstimator, type ObserveResult, type VolatilitySettings } from './volatility.js';
export { digitalFairValue, type DigitalInput, type Tails } from './digital.js';
export { brierScore, logLoss, type Prediction } from './calibration.js';
