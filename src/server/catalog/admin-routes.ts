/**
 * The console's catalogue records (issue 50): brands, the category tree and the specification
 * definitions. Registered inside the admin plugin, so its admin guard covers every route here.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  brandInputSchema,
  brandPatchSchema,
  brandSchema,
  categoryInputSchema,
  categoryPatchSchema,
  categorySchema,
  keyParamsSchema,
  productInputSchema,
  productPatchSchema,
  productSchema,
  slugParamsSchema,
  specDefinitionInputSchema,
  specDefinitionPatchSchema,
  specDefinitionSchema,
} from "../../contract/catalogue-schemas";
import { adminToolSchema, productCombinationsResultSchema } from "../../contract/admin-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { errorResponses } from "../http/schemas";
import { actorOf } from "../audit";
import {
  createBrand,
  createCategory,
  createSpecDefinition,
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  updateProduct,
  deleteBrand,
  deleteCategory,
  deleteSpecDefinition,
  listBrands,
  listCategories,
  listSpecDefinitions,
  updateBrand,
  updateCategory,
  updateSpecDefinition,
} from "./catalogue";
import { createMissingCombinations, listProductTools } from "./service";

const tags = ["admin"];

export const catalogueAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  // ---------------------------------------------------------------- brands
  app.get("/brands", { schema: { tags, summary: "Every brand, by name", response: { 200: z.array(brandSchema), ...errorResponses(401, 403) } } }, () => listBrands(db));
  app.post(
    "/brands",
    { schema: { tags, summary: "Add a brand", body: brandInputSchema, response: { 201: brandSchema, ...errorResponses(400, 401, 403, 409) } } },
    async (request, reply) => reply.status(201).send(await createBrand(db, request.body, actorOf(request))),
  );
  app.patch(
    "/brands/:slug",
    { schema: { tags, summary: "Rename a brand or change its slug", params: slugParamsSchema, body: brandPatchSchema, response: { 200: brandSchema, ...errorResponses(400, 401, 403, 404, 409) } } },
    (request) => updateBrand(db, request.params.slug, request.body, actorOf(request)),
  );
  app.delete(
    "/brands/:slug",
    { schema: { tags, summary: "Delete a brand no tool names (else 409 BRAND_IN_USE)", params: slugParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request, reply) => {
      await deleteBrand(db, request.params.slug, actorOf(request));
      return reply.status(204).send(null);
    },
  );

  // ---------------------------------------------------------------- categories
  app.get(
    "/categories",
    { schema: { tags, summary: "The category tree: parents before children, siblings by position", response: { 200: z.array(categorySchema), ...errorResponses(401, 403) } } },
    () => listCategories(db),
  );
  app.post(
    "/categories",
    { schema: { tags, summary: "Add a category under a parent", body: categoryInputSchema, response: { 201: categorySchema, ...errorResponses(400, 401, 403, 409) } } },
    async (request, reply) => reply.status(201).send(await createCategory(db, request.body, actorOf(request))),
  );
  app.patch(
    "/categories/:slug",
    {
      schema: {
        tags,
        summary: "Rename, reorder or move a category (under its own descendant: 409 CATEGORY_CYCLE)",
        params: slugParamsSchema,
        body: categoryPatchSchema,
        response: { 200: categorySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateCategory(db, request.params.slug, request.body, actorOf(request)),
  );
  app.delete(
    "/categories/:slug",
    {
      schema: { tags, summary: "Delete a category without tools or children (else 409 CATEGORY_IN_USE)", params: slugParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (request, reply) => {
      await deleteCategory(db, request.params.slug, actorOf(request));
      return reply.status(204).send(null);
    },
  );

  // ---------------------------------------------------------------- specification definitions
  app.get("/specs", { schema: { tags, summary: "Every specification definition", response: { 200: z.array(specDefinitionSchema), ...errorResponses(401, 403) } } }, () => listSpecDefinitions(db));
  app.post(
    "/specs",
    { schema: { tags, summary: "Define a specification", body: specDefinitionInputSchema, response: { 201: specDefinitionSchema, ...errorResponses(400, 401, 403, 409) } } },
    async (request, reply) => reply.status(201).send(await createSpecDefinition(db, request.body, actorOf(request))),
  );
  app.patch(
    "/specs/:key",
    { schema: { tags, summary: "Change a specification's name, unit, kind or whether shoppers filter on it", params: keyParamsSchema, body: specDefinitionPatchSchema, response: { 200: specDefinitionSchema, ...errorResponses(400, 401, 403, 404, 409) } } },
    (request) => updateSpecDefinition(db, request.params.key, request.body, actorOf(request)),
  );
  app.delete(
    "/specs/:key",
    { schema: { tags, summary: "Delete a specification no tool has a value of (else 409 SPEC_IN_USE)", params: keyParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request, reply) => {
      await deleteSpecDefinition(db, request.params.key, actorOf(request));
      return reply.status(204).send(null);
    },
  );

  // ---------------------------------------------------------------- products
  app.get("/products", { schema: { tags, summary: "Every product, by name", response: { 200: z.array(productSchema), ...errorResponses(401, 403) } } }, () => listProducts(db));
  app.post(
    "/products",
    { schema: { tags, summary: "Add a product: its options; tools join it with PATCH /api/admin/tools/:id {productId, optionValues}", body: productInputSchema, response: { 201: productSchema, ...errorResponses(400, 401, 403) } } },
    async (request, reply) => reply.status(201).send(await createProduct(db, request.body, actorOf(request))),
  );
  app.get(
    "/products/:id",
    { schema: { tags, summary: "One product", params: idParamsSchema, response: { 200: productSchema, ...errorResponses(400, 401, 403, 404) } } },
    (request) => getProduct(db, request.params.id),
  );
  app.patch(
    "/products/:id",
    { schema: { tags, summary: "Change a product (its options must still fit its tools' values)", params: idParamsSchema, body: productPatchSchema, response: { 200: productSchema, ...errorResponses(400, 401, 403, 404) } } },
    (request) => updateProduct(db, request.params.id, request.body, actorOf(request)),
  );
  app.delete(
    "/products/:id",
    { schema: { tags, summary: "Delete a product; its tools stay, in no product", params: idParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      await deleteProduct(db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );
  app.get(
    "/products/:id/tools",
    { schema: { tags, summary: "A product's tools, archived ones too, in the order of its options' values", params: idParamsSchema, response: { 200: z.array(adminToolSchema), ...errorResponses(400, 401, 403, 404) } } },
    (request) => listProductTools(db, request.params.id),
  );
  app.post(
    "/products/:id/combinations",
    {
      schema: {
        tags,
        summary:
          "Create, in one step, a tool for each combination of the product's option values that has none: copies of its default tool (else its first) with no stock; a product without a tool: 409 PRODUCT_HAS_NO_TOOLS",
        params: idParamsSchema,
        response: { 201: productCombinationsResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send({ created: await createMissingCombinations(db, request.params.id, actorOf(request)) }),
  );
};
