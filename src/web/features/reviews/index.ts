export { reviewKeys, reviewsQuery, useAddReview } from "./api";
export { ReviewCard, Stars } from "./components/review-card";
