import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { twoFactorCodeSchema, type TwoFactorCodeInput } from "../../../contract/account-schemas";
import { RECOVERY_TEXT } from "../../../contract/texts/account";
import { ApiRequestError } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { authErrorMessage } from "./api";
import { AuthCard, Field, SubmitButton, useSignedIn } from "./components";
import { verifyBackupCode, verifyTotp } from "./recovery-api";

/** After the password, for an account with two-step sign-in: a code from the app, or a backup code. */
export default function TwoFactorPage() {
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
      if (e instanceof ApiRequestError && e.status === 429) setError(RECOVERY_TEXT.lockedCode);
      else if (e instanceof ApiRequestError && /LOCK/i.test(e.code)) setError(RECOVERY_TEXT.lockedCode);
      else if (e instanceof ApiRequestError && (e.status === 401 || e.status === 400)) setError(/COOKIE|SESSION/i.test(e.code) ? RECOVERY_TEXT.expiredStep : RECOVERY_TEXT.wrongCode);
      else setError(authErrorMessage(e));
      form.reset({ code: "" });
    }
  });

  return (
    <AuthCard title={RECOVERY_TEXT.twoFactorHeading} error={error}>
      <PageTitle title={RECOVERY_TEXT.twoFactorHeading} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <p className="text-sm">{backup ? RECOVERY_TEXT.backupIntro : RECOVERY_TEXT.twoFactorIntro}</p>
        <Field label={RECOVERY_TEXT.code} error={errors.code?.message}>
          <input
            type="text"
            inputMode={backup ? "text" : "numeric"}
            autoComplete="one-time-code"
            className="input input-bordered w-full"
            aria-invalid={Boolean(errors.code)}
            {...form.register("code")}
          />
        </Field>
        <SubmitButton busy={isSubmitting}>{RECOVERY_TEXT.verify}</SubmitButton>
      </form>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setBackup((b) => !b)}>
        {backup ? RECOVERY_TEXT.useApp : RECOVERY_TEXT.useBackup}
      </button>
      <p className="text-center text-sm">
        <Link to="/login" className="link link-primary">
          {RECOVERY_TEXT.backToLogin}
        </Link>
      </p>
    </AuthCard>
  );
}
