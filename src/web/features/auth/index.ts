export { RequireAuth, type FromState } from "./require-auth";
