import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { RECOVERY_TEXT } from "../../../contract/texts/account";
import { loginSchema, type LoginInput } from "../../../contract/schemas";
import { AUTH_TEXT } from "../../../contract/texts/auth";
import { useSession } from "../../lib/session";
import { authErrorMessage, signInWithEmail } from "./api";
import { AuthCard, Field, GoogleButton, SubmitButton, useReturnPath, useSignedIn } from "./components";
import { PageTitle } from "../../lib/page-title";

export default function LoginPage() {
  const { user } = useSession();
  const location = useLocation();
  const returnTo = useReturnPath();
  const onSignedIn = useSignedIn();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  if (user && !isSubmitting) return <Navigate to={returnTo} replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const result = (await signInWithEmail(values)) as { twoFactorRedirect?: boolean } | null;
      // Two-step sign-in is on: the password was right, now the code (same return path).
      if (result?.twoFactorRedirect) {
        navigate(`/two-factor?from=${encodeURIComponent(returnTo)}`, { replace: true });
        return;
      }
      await onSignedIn();
    } catch (e) {
      setError(authErrorMessage(e));
    }
  });

  return (
    <AuthCard title={AUTH_TEXT.loginHeading} error={error}>
      <PageTitle title={AUTH_TEXT.loginHeading} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <Field label={AUTH_TEXT.email} error={errors.email?.message}>
          <input type="email" autoComplete="email" className="input input-bordered w-full" aria-invalid={Boolean(errors.email)} {...form.register("email")} />
        </Field>
        <Field label={AUTH_TEXT.password} error={errors.password?.message}>
          <input
            type="password"
            autoComplete="current-password"
            className="input input-bordered w-full"
            aria-invalid={Boolean(errors.password)}
            {...form.register("password")}
          />
        </Field>
        <Link to="/forgot-password" className="link link-primary self-end text-sm">
          {RECOVERY_TEXT.forgotLink}
        </Link>
        <SubmitButton busy={isSubmitting}>{AUTH_TEXT.login}</SubmitButton>
      </form>
      <p className="text-center text-sm">
        {AUTH_TEXT.newHere}{" "}
        <Link to="/signup" state={location.state as unknown} className="link link-primary">
          {AUTH_TEXT.createAccount}
        </Link>
      </p>
      <div className="divider">{AUTH_TEXT.or}</div>
      <GoogleButton onError={setError} />
    </AuthCard>
  );
}
