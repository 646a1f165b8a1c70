import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { twoFactorCodeSchema, type TwoFactorCodeInput } from "../../../contract/account-schemas";
import { RECOVERY_TEXT as T } from "../../../contract/texts/account";
import { ApiRequestError } from "../../lib/api";
import { usePageTitle } from "../../lib/page-title";
import { authErrorMessage } from "./api";
import { AuthCard, Field, SubmitButton, useSignedIn } from "./components";
import { verifyBackupCode, verifyTotp } from "./recovery-api";

/** After the password, for an account with two-step sign-in: a code from the app, or a backup code. */
export default function TwoFactorPage() {
  usePageTitle(T.twoFactorHeading);
  const onSignedIn = useSignedIn();
  const [backup, setBackup] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<TwoFactorCodeInput>({ resolver: zodResolver(twoFactorCodeSchema), defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setError(null);
    try {
      await (backup ? verifyBackupCode(code) : verifyTotp(code));
      await onSignedIn();
    } catch (e) {
      if (e instanceof ApiRequestError && e.status === 429) setError(T.lockedCode);
      else if (e instanceof ApiRequestError && /LOCK/i.test(e.code)) setError(T.lockedCode);
      else if (e instanceof ApiRequestError && (e.status === 401 || e.status === 400)) setError(/COOKIE|SESSION/i.test(e.code) ? T.expiredStep : T.wrongCode);
      else setError(authErrorMessage(e));
      form.reset({ code: "" });
    }
  });

  return (
    <AuthCard title={T.twoFactorHeading} error={error}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <p className="text-sm">{backup ? T.backupIntro : T.twoFactorIntro}</p>
        <Field label={T.code} error={errors.code?.message}>
          <input
            type="text"
            inputMode={backup ? "text" : "numeric"}
            autoComplete="one-time-code"
            className="input input-bordered w-full"
            aria-invalid={Boolean(errors.code)}
            {...form.register("code")}
          />
        </Field>
        <SubmitButton busy={isSubmitting}>{T.verify}</SubmitButton>
      </form>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setBackup((b) => !b)}>
        {backup ? T.useApp : T.useBackup}
      </button>
      <p className="text-center text-sm">
        <Link to="/login" className="link link-primary">
          {T.backToLogin}
        </Link>
      </p>
    </AuthCard>
  );
}
