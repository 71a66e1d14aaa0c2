export { createNodeMetrics, type MetricSources, type NodeMetrics, type TriggerOutcome } from "./metrics.js";
export { checkReadiness, type Readiness, type ReadinessChecks } from "./health.js";
export { routeLabeler, UNMATCHED } from "./route-label.js";
export { opsEndpoints, OPS_PATHS, type OpsEndpoints } from "./ops-endpoints.js";
