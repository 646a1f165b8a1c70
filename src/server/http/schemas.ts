import { apiErrorSchema } from "../../contract/schemas";

/** Error responses for route schemas, so the OpenAPI document lists them. */
export const errorResponses = <const S extends readonly number[]>(...statuses: S) =>
  Object.fromEntries(statuses.map((s) => [s, apiErrorSchema])) as { [K in S[number]]: typeof apiErrorSchema };
