import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { forgotPasswordSchema, type ForgotPasswordInput } from "../../../contract/account-schemas";
import { AUTH_TEXT } from "../../../contract/texts/auth";
import { RECOVERY_TEXT } from "../../../contract/texts/account";
import { PageTitle } from "../../lib/page-title";
import { authErrorMessage } from "./api";
import { AuthCard, Field, SubmitButton } from "./components";
import { requestPasswordReset } from "./recovery-api";

/** Asks for a reset link. The answer is the same whether or not the e-mail has an account. */
export default function ForgotPasswordPage() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const form = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setError(null);
    try {
      await requestPasswordReset(email);
      setSent(true);
    } catch (e) {
      setError(authErrorMessage(e));
    }
  });

  return (
    <AuthCard title={RECOVERY_TEXT.forgotHeading} error={error}>
      <PageTitle title={RECOVERY_TEXT.forgotHeading} />
      {sent ? (
        <p role="status" data-testid="forgot-sent">
          {RECOVERY_TEXT.sent}
        </p>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
          <p className="text-sm">{RECOVERY_TEXT.forgotIntro}</p>
          <Field label={AUTH_TEXT.email} error={errors.email?.message}>
            <input type="email" autoComplete="email" className="input input-bordered w-full" aria-invalid={Boolean(errors.email)} {...form.register("email")} />
          </Field>
          <SubmitButton busy={isSubmitting}>{RECOVERY_TEXT.send}</SubmitButton>
        </form>
      )}
      <p className="text-center text-sm">
        <Link to="/login" className="link link-primary">
          {RECOVERY_TEXT.backToLogin}
        </Link>
      </p>
    </AuthCard>
  );
}
