export { catalogueMenuQuery, invalidateTools, relatedList, toolKeys, toolQuery, toolsQuery, type CatalogueMenu } from "./api";
export { catalogueQuery } from "./browse-state";
export { ToolCard, ToolGrid } from "./components/tool-card";
export { toolRatingQuery, toolReviewsQuery, toolReviewViewOf, type ToolReviewView } from "./tool-reviews-api";
export { ToolReviewForm } from "./components/write-review";
