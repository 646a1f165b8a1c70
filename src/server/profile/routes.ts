import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { profileInputSchema, profileSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { ApiError } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { getProfile, saveProfile } from "./service";

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
};
