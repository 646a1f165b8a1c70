/**
 * The console's calls for the catalogue's records (issue 50): brands, the category tree,
 * specification definitions and products, and a product's tools and missing combinations.
 * Failures are not toasted here: each page tells them beside what was refused.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminTool, ProductCombinationsResult } from "../../../contract/admin-schemas";
import type {
  Brand,
  brandInputSchema,
  brandPatchSchema,
  CategoryNode,
  categoryInputSchema,
  categoryPatchSchema,
  Product,
  productInputSchema,
  productPatchSchema,
  SpecDefinition,
  specDefinitionInputSchema,
  specDefinitionPatchSchema,
} from "../../../contract/catalogue-schemas";
import type { z } from "../../../contract/zod";
import { api } from "../../lib/api";
import { invalidateTools } from "../catalog";
import { adminKeys } from "./api";

const key = (...parts: unknown[]) => [...adminKeys.all, "catalogue", ...parts] as const;
const id = (value: string) => encodeURIComponent(value);

export const brandsQuery = () => queryOptions({ queryKey: key("brands"), queryFn: ({ signal }) => api.get<Brand[]>("/api/admin/brands", signal) });
export const categoriesQuery = () => queryOptions({ queryKey: key("categories"), queryFn: ({ signal }) => api.get<CategoryNode[]>("/api/admin/categories", signal) });
export const specsQuery = () => queryOptions({ queryKey: key("specs"), queryFn: ({ signal }) => api.get<SpecDefinition[]>("/api/admin/specs", signal) });
export const productsQuery = () => queryOptions({ queryKey: key("products"), queryFn: ({ signal }) => api.get<Product[]>("/api/admin/products", signal) });
export const productQuery = (productId: string) =>
  queryOptions({ queryKey: key("product", productId), queryFn: ({ signal }) => api.get<Product>(`/api/admin/products/${id(productId)}`, signal) });
export const productToolsQuery = (productId: string) =>
  queryOptions({ queryKey: key("product", productId, "tools"), queryFn: ({ signal }) => api.get<AdminTool[]>(`/api/admin/products/${id(productId)}/tools`, signal) });

/** After a change, every console list asks again, and the store's own tool lists (names, brands and categories show there). */
function useAfterChange() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.all }), invalidateTools(queryClient)]);
}

type Save<In, Patch> = { current: string | null; input: In | Patch };

export function useSaveBrand() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ current, input }: Save<z.output<typeof brandInputSchema>, z.output<typeof brandPatchSchema>>) =>
      current ? api.patch<Brand>(`/api/admin/brands/${id(current)}`, input) : api.post<Brand>("/api/admin/brands", input),
    onSuccess: after,
  });
}
export function useDeleteBrand() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (slug: string) => api.delete<null>(`/api/admin/brands/${id(slug)}`), onSuccess: after });
}

export function useSaveCategory() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ current, input }: Save<z.output<typeof categoryInputSchema>, z.output<typeof categoryPatchSchema>>) =>
      current ? api.patch<CategoryNode>(`/api/admin/categories/${id(current)}`, input) : api.post<CategoryNode>("/api/admin/categories", input),
    onSuccess: after,
  });
}
export function useDeleteCategory() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (slug: string) => api.delete<null>(`/api/admin/categories/${id(slug)}`), onSuccess: after });
}

export function useSaveSpec() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ current, input }: Save<z.output<typeof specDefinitionInputSchema>, z.output<typeof specDefinitionPatchSchema>>) =>
      current ? api.patch<SpecDefinition>(`/api/admin/specs/${id(current)}`, input) : api.post<SpecDefinition>("/api/admin/specs", input),
    onSuccess: after,
  });
}
export function useDeleteSpec() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (specKey: string) => api.delete<null>(`/api/admin/specs/${id(specKey)}`), onSuccess: after });
}

export function useSaveProduct() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ current, input }: Save<z.output<typeof productInputSchema>, z.output<typeof productPatchSchema>>) =>
      current ? api.patch<Product>(`/api/admin/products/${id(current)}`, input) : api.post<Product>("/api/admin/products", input),
    onSuccess: after,
  });
}
export function useDeleteProduct() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (productId: string) => api.delete<null>(`/api/admin/products/${id(productId)}`), onSuccess: after });
}
export function useCreateCombinations() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (productId: string) => api.post<ProductCombinationsResult>(`/api/admin/products/${id(productId)}/combinations`), onSuccess: after });
}
