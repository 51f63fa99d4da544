/**
 * The metrics package: the metric set, the operations HTTP server, the resume control channel and the
 * exposition checker, in one import.
 */
export {
  createMetrics,
  DROPPED_DEFAULT_METRICS,
  METRIC_NAMES,
  METRIC_PREFIX,
  type CreateMetricsOptions,
  type FeedEvent,
  type HttpStatus,
  type MetricName,
  type Metrics,
  type OrderSide,
  type ResyncReason,
  type RetryReason,
} from './metrics.js';
export {
  evaluateReadiness,
  startMetricsServer,
  type MetricsServer,
  type MetricsServerOptions,
  type Readiness,
  type ReadinessState,
} from './server.js';
export {
  controlFilePath,
  ControlFileError,
  readControlFile,
  requestResume,
  RESUME_PATH,
  type ControlFile,
  type ResumeOutcome,
  type ResumeRequestResult,
} from './control.js';
export { lintExposition, type ExpositionProblem } from './exposition-lint.js';
