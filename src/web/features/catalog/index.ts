export { invalidateTools, relatedList, toolKeys, toolQuery, toolsQuery } from "./api";
export { catalogueQuery } from "./browse-state";
export { ToolCard, ToolGrid } from "./components/tool-card";
