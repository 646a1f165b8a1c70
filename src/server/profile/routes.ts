import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { profileInputSchema, profileSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { ApiError } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { getProfile, saveProfile } from "./service";
import { deleteAccount } from "./delete-account";
import { deleteAccountResponseSchema, deleteAccountSchema } from "../../contract/account-schemas";

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  /** Signed out, the profile answers in the spec's words (§8): 'No user is logged in'. */
  const requireProfileOwner = async (request: FastifyRequest) => {
    try {
      await app.requireUser(request);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 401) throw new ApiError(401, "UNAUTHORIZED", API_TEXT.noUser);
      throw error;
    }
  };

  const load = async (userId: string) => {
    const profile = await getProfile(db, userId);
    // The session outlived its account (deleted meanwhile).
    if (!profile) throw new ApiError(401, "UNAUTHORIZED", API_TEXT.noUser);
    return profile;
  };

  app.get(
    "/me/profile",
    {
      onRequest: requireProfileOwner,
      schema: {
        tags: ["profile"],
        summary: "The caller's profile",
        response: { 200: profileSchema, ...errorResponses(401) },
      },
    },
    async (request) => load(request.viewer.id),
  );

  app.put(
    "/me/profile",
    {
      onRequest: requireProfileOwner,
      schema: {
        tags: ["profile"],
        summary: "Save the caller's delivery address and phone; a field left out keeps its value",
        body: profileInputSchema,
        response: { 200: profileSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      await saveProfile(db, request.viewer.id, request.body);
      return load(request.viewer.id);
    },
  );

  app.post(
    "/me/delete-account",
    {
      onRequest: requireProfileOwner,
      schema: {
        tags: ["profile"],
        summary:
          "Delete the caller's account: `{password}` for an account that has one, else a sign-in at most 5 minutes old. Orders stay for the store's books without the person; reviews stay as 'Former customer'",
        body: deleteAccountSchema,
        response: { 200: deleteAccountResponseSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      await app.confirmOwner(request, request.body.password);
      await deleteAccount(db, request.viewer.id);
      await app.endAllSessions(request.viewer.id, reply);
      return { deleted: true as const };
    },
  );
};
