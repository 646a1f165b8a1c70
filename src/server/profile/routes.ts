import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { profileInputSchema, profileSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { ApiError } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { getProfile, saveProfile } from "./service";

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  const load = async (userId: string) => {
    const profile = await getProfile(db, userId);
    // The session outlived its account (deleted meanwhile).
    if (!profile) throw new ApiError(401, "UNAUTHORIZED", API_TEXT.noUser);
    return profile;
  };

  app.get(
    "/me/profile",
    {
      onRequest: app.requireUser,
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
      onRequest: app.requireUser,
      schema: {
        tags: ["profile"],
        summary: "Save the caller's delivery address and phone",
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
