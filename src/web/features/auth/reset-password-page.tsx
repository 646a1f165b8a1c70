import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { resetPasswordFormSchema } from "../../../contract/account-schemas";
import { RECOVERY_TEXT } from "../../../contract/texts/account";
import { ApiRequestError } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { announceSession, refreshSession } from "../../lib/session";
import { authErrorMessage, signInWithEmail } from "./api";
import { AuthCard, Field, SubmitButton } from "./components";
import { resetPassword } from "./recovery-api";

/**
 * The page a reset link opens: a new password (the sign-up rule and messages), then the
 * customer is signed in with it; every other session has ended (revokeSessionsOnPasswordReset).
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const email = params.get("email");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(token ? null : RECOVERY_TEXT.resetBadLink);
  const form = useForm<{ newPassword: string }>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { newPassword: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ newPassword }) => {
    setError(null);
    try {
      await resetPassword(token, newPassword);
    } catch (e) {
      setError(e instanceof ApiRequestError && e.status === 400 && e.code !== "VALIDATION" ? RECOVERY_TEXT.resetBadLink : authErrorMessage(e));
      return;
    }
    toast.success(RECOVERY_TEXT.resetDone);
    // Signed in with the new password when the link names the account; else the login page.
    const signedIn = email ? await signInWithEmail({ email, password: newPassword }).then(() => true, () => false) : false;
    if (signedIn) {
      await refreshSession(queryClient);
      announceSession("signed-in");
      navigate("/", { replace: true });
    } else {
      navigate("/login", { replace: true });
    }
  });

  return (
    <AuthCard title={RECOVERY_TEXT.resetHeading} error={error}>
      <PageTitle title={RECOVERY_TEXT.resetHeading} />
      {token && (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
          <Field label={RECOVERY_TEXT.newPassword} error={errors.newPassword?.message}>
            <input type="password" autoComplete="new-password" className="input input-bordered w-full" aria-invalid={Boolean(errors.newPassword)} {...form.register("newPassword")} />
          </Field>
          <SubmitButton busy={isSubmitting}>{RECOVERY_TEXT.reset}</SubmitButton>
        </form>
      )}
      <p className="text-center text-sm">
        <Link to="/forgot-password" className="link link-primary">
          {RECOVERY_TEXT.askAgain}
        </Link>
      </p>
    </AuthCard>
  );
}
