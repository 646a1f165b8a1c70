export { reviewsQuery } from "./api";
export { ReviewCard, Stars } from "./components/review-card";
