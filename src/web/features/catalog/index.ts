export { catalogueQuery, invalidateTools, relatedList, toolKeys, toolQuery, toolsQuery } from "./api";
export { ToolCard, ToolGrid } from "./components/tool-card";
