import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { AUTH_ERRORS, AUTH_TEXT } from "../../../contract/texts/auth";
import { api } from "../../lib/api";
import { announceSession, refreshSession } from "../../lib/session";
import { authErrorMessage, callbackErrorMessage, safeReturnPath, signInWithGoogle } from "./api";

import type { FromState } from "./require-auth";

/** Where to go after signing in: the page the user was sent from, else home. */
export function useReturnPath(): string {
  const location = useLocation();
  const [params] = useSearchParams();
  return safeReturnPath((location.state as FromState | null)?.from ?? params.get("from"));
}

/** Runs after a successful sign-in or sign-up: refresh the session everywhere, then go back. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const returnTo = useReturnPath();
  return async () => {
    await refreshSession(queryClient);
    announceSession("signed-in");
    navigate(returnTo, { replace: true });
  };
}

export function GoogleButton({ onError }: { onError: (message: string) => void }) {
  const returnTo = useReturnPath();
  const [busy, setBusy] = useState(false);
  // The store says whether Google is configured; without it the button says so in place.
  const options = useQuery({ queryKey: ["sign-in-options"], queryFn: () => api.get<{ google: boolean }>("/api/sign-in-options"), staleTime: Infinity });
  const unavailable = options.data?.google === false;
  return (
    <>
    <button
      aria-describedby={unavailable ? "google-unavailable" : undefined}
      type="button"
      className="btn btn-outline w-full"
      disabled={busy}
      onClick={() => {
        if (unavailable) return onError(AUTH_ERRORS.googleNotConfigured);
        setBusy(true);
        signInWithGoogle(returnTo).catch((error: unknown) => {
          setBusy(false);
          onError(authErrorMessage(error));
        });
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 48 48" className="h-5 w-5">
        <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9 3.6l6.7-6.7C35.6 2.5 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.7 17.7 9.5 24 9.5z" />
        <path fill="#4285F4" d="M46.1 24.6c0-1.6-.1-3.1-.4-4.6H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17z" />
        <path fill="#FBBC05" d="M10.5 28.7c-.5-1.4-.8-3-.8-4.7s.3-3.2.8-4.7l-7.8-6C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6z" />
        <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.3 0-11.6-4.2-13.5-10l-7.8 6C6.6 42.6 14.6 48 24 48z" />
      </svg>
      {AUTH_TEXT.google}
    </button>
    {unavailable && (
      <p id="google-unavailable" className="text-center text-sm" data-testid="google-unavailable">
        {AUTH_ERRORS.googleNotConfigured}
      </p>
    )}
    </>
  );
}

/** The card around the login and sign-up forms, with the provider's error in red below. */
export function AuthCard({ title, children, error }: { title: string; children: ReactNode; error: string | null }) {
  const [params] = useSearchParams();
  const shown = error ?? callbackErrorMessage(params.get("error"));
  return (
    <div className="flex justify-center px-4 py-12">
      <div className="card bg-base-100 border-base-300 w-full max-w-md border shadow-sm">
        <div className="card-body">
          <h1 className="card-title justify-center text-2xl">{title}</h1>
          {children}
          {shown && (
            <p role="alert" className="text-error mt-2 text-center text-sm" data-testid="auth-error">
              {shown}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

export function Field({
  label,
  error,
  children,
}: {
  label: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <label className="form-control block w-full">
      <span className="mb-1 block text-sm font-medium">{label}</span>
      {children}
      {error && (
        <span className="text-error mt-1 block text-sm" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}

/** An auth form's one submit button: disabled, with a spinner, while the form is sent. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {children}
    </button>
  );
}
