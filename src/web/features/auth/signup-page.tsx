import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useLocation } from "react-router";
import { signupSchema, type SignupInput } from "../../../contract/schemas";
import { AUTH_TEXT } from "../../../contract/texts/auth";
import { useSession } from "../../lib/session";
import { authErrorMessage, signUpWithEmail } from "./api";
import { AuthCard, Field, GoogleButton, SubmitButton, useReturnPath, useSignedIn } from "./components";
import { PageTitle } from "../../lib/page-title";

export default function SignupPage() {
  const { user } = useSession();
  const location = useLocation();
  const returnTo = useReturnPath();
  const onSignedIn = useSignedIn();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<SignupInput>({
    resolver: zodResolver(signupSchema),
    defaultValues: { name: "", email: "", password: "" },
  });
  const { errors, isSubmitting } = form.formState;

  if (user && !isSubmitting) return <Navigate to={returnTo} replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      // The account is created with its display name and signed in at once.
      await signUpWithEmail(values);
      await onSignedIn();
    } catch (e) {
      setError(authErrorMessage(e));
    }
  });

  return (
    <AuthCard title={AUTH_TEXT.signupHeading} error={error}>
      <PageTitle title={AUTH_TEXT.signupHeading} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <Field label={AUTH_TEXT.name} error={errors.name?.message}>
          <input type="text" autoComplete="name" className="input input-bordered w-full" aria-invalid={Boolean(errors.name)} {...form.register("name")} />
        </Field>
        <Field label={AUTH_TEXT.email} error={errors.email?.message}>
          <input type="email" autoComplete="email" className="input input-bordered w-full" aria-invalid={Boolean(errors.email)} {...form.register("email")} />
        </Field>
        <Field label={AUTH_TEXT.password} error={errors.password?.message}>
          <input
            type="password"
            autoComplete="new-password"
            className="input input-bordered w-full"
            aria-invalid={Boolean(errors.password)}
            {...form.register("password")}
          />
        </Field>
        <SubmitButton busy={isSubmitting}>{AUTH_TEXT.signup}</SubmitButton>
      </form>
      <p className="text-center text-sm">
        {AUTH_TEXT.haveAccount}{" "}
        <Link to="/login" state={location.state as unknown} className="link link-primary">
          {AUTH_TEXT.pleaseLogin}
        </Link>
      </p>
      <div className="divider">{AUTH_TEXT.or}</div>
      <GoogleButton onError={setError} />
    </AuthCard>
  );
}
