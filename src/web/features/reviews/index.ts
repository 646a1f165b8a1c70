export { reviewKeys, reviewsQuery } from "./api";
export { useAddReview } from "./add-review-api";
export { ReviewCard, Stars } from "./components/review-card";
