export { JobRunner, sqlOf, type JobFailure, type QueueDefinition } from "./runner";
export { default as jobs } from "./plugin";
export { jobAdminRoutes } from "./admin-routes";
