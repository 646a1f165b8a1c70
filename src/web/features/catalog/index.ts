export { invalidateTools, relatedList, toolKeys, toolQuery, toolsQuery } from "./api";
export { catalogueMenuQuery, type CatalogueMenu } from "./menu";
export { catalogueListQuery, catalogueQuery } from "./browse-state";
export { ToolCard, ToolGrid } from "./components/tool-card";
export { cardDetails } from "./components/card-details";
export { toolRatingQuery, toolReviewsQuery, toolReviewViewOf, type ToolReviewView } from "./tool-reviews-api";
export { ToolReviewForm } from "./components/write-review";
export { catalogueFacetsQuery, facetsQueryOf, type FacetsQuery } from "./filters";
