export { HomePage, preloadBelowTheFold } from "./home-page";
export { HomeFrame } from "./home-frame";
