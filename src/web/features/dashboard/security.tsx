/**
 * My Profile's Security section: whether the e-mail is verified (and the link again), change
 * password (other devices signed out), signed-in devices with 'Sign out' each (bearer tokens
 * included: they are sessions), two-step sign-in with an authenticator app, and deleting the
 * account (the password, or a fresh Google sign-in, then a confirm dialog). The QR code's
 * library is loaded only when a customer turns two-step sign-in on.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify";
import { changePasswordSchema, passwordOnlySchema, type DeleteAccountInput, twoFactorCodeSchema, type ChangePasswordInput, type PasswordOnlyInput, type TwoFactorCodeInput } from "../../../contract/account-schemas";
import { RECOVERY_TEXT, SECURITY_TEXT } from "../../../contract/texts/account";
import { ApiRequestError } from "../../lib/api";
import { announceSession, PERSONAL_KEY, sessionQuery, useSession } from "../../lib/session";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import {
  authErrorMessage,
  changePassword,
  deleteAccount,
  disableTwoFactor,
  enableTwoFactor,
  listSessions,
  listSignInMethods,
  revokeSession,
  sendVerification,
  signInWithGoogle,
  verifyTotp,
} from "../auth";

const message = (e: unknown) => (e instanceof ApiRequestError && e.code === "INVALID_PASSWORD" ? SECURITY_TEXT.wrongPassword : authErrorMessage(e));

export function SecuritySection() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <section className="mt-10 flex flex-col gap-8" aria-labelledby="security-heading">
      <h3 id="security-heading" className="text-xl font-semibold">
        {SECURITY_TEXT.heading}
      </h3>
      <Verification email={user.email} verified={Boolean(user.emailVerified)} />
      <ChangePassword />
      <Devices />
      <TwoFactor enabled={Boolean(user.twoFactorEnabled)} />
      <DeleteAccount />
    </section>
  );
}

function Verification({ email, verified }: { email: string; verified: boolean }) {
  const send = useMutation({ mutationFn: () => sendVerification(email), onSuccess: () => toast.success(SECURITY_TEXT.verificationSent), onError: (e) => toast.error(message(e)) });
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="email-verification">
      <span className={verified ? "badge badge-success" : "badge badge-warning"}>{verified ? SECURITY_TEXT.emailVerified : SECURITY_TEXT.emailNotVerified}</span>
      {!verified && (
        <button type="button" className="btn btn-sm" disabled={send.isPending} onClick={() => send.mutate()}>
          {SECURITY_TEXT.sendAgain}
        </button>
      )}
    </div>
  );
}

function ChangePassword() {
  const form = useForm<ChangePasswordInput>({ resolver: zodResolver(changePasswordSchema), defaultValues: { currentPassword: "", newPassword: "" } });
  const { errors } = form.formState;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      toast.success(SECURITY_TEXT.passwordChanged);
      form.reset();
      void queryClient.invalidateQueries({ queryKey: [PERSONAL_KEY, "devices"] });
    },
    onError: (e) => toast.error(message(e)),
  });
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => mutation.mutate(v))} className="flex flex-col gap-3" aria-label={SECURITY_TEXT.changePassword}>
      <h4 className="font-semibold">{SECURITY_TEXT.changePassword}</h4>
      <label className="block">
        <span className="mb-1 block text-sm font-medium">{SECURITY_TEXT.currentPassword}</span>
        <input type="password" autoComplete="current-password" className="input input-bordered w-full" {...form.register("currentPassword")} />
        {errors.currentPassword && <span role="alert" className="text-error mt-1 block text-sm">{errors.currentPassword.message}</span>}
      </label>
      <label className="block">
        <span className="mb-1 block text-sm font-medium">{SECURITY_TEXT.newPassword}</span>
        <input type="password" autoComplete="new-password" className="input input-bordered w-full" {...form.register("newPassword")} />
        {errors.newPassword && <span role="alert" className="text-error mt-1 block text-sm">{errors.newPassword.message}</span>}
      </label>
      <button type="submit" className="btn btn-primary self-start" disabled={mutation.isPending}>
        {SECURITY_TEXT.savePassword}
      </button>
    </form>
  );
}

function Devices() {
  const queryClient = useQueryClient();
  const devices = useQuery({ queryKey: [PERSONAL_KEY, "devices"], queryFn: listSessions });
  const current = useQuery({ queryKey: ["session-token"], queryFn: () => fetch("/api/auth/get-session", { credentials: "same-origin" }).then((r) => r.json() as Promise<{ session?: { id: string } } | null>) });
  const revoke = useMutation({
    mutationFn: revokeSession,
    onSuccess: () => {
      toast.success(SECURITY_TEXT.deviceSignedOut);
      void queryClient.invalidateQueries({ queryKey: [PERSONAL_KEY, "devices"] });
    },
    onError: (e) => toast.error(message(e)),
  });
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-semibold">{SECURITY_TEXT.devices}</h4>
      <ul className="flex flex-col gap-2" data-testid="devices">
        {(devices.data ?? []).map((d) => (
          <li key={d.id} className="flex items-center justify-between gap-3 border-b border-base-300 pb-2">
            <span className="text-sm">
              {d.id === current.data?.session?.id ? <strong>{SECURITY_TEXT.thisDevice}</strong> : (d.userAgent ?? SECURITY_TEXT.unknownDevice).slice(0, 60)}
              {d.ipAddress ? ` · ${d.ipAddress}` : ""} · {SECURITY_TEXT.signedInSince(new Date(d.createdAt).toLocaleDateString())}
            </span>
            {d.id !== current.data?.session?.id && (
              <button type="button" className="btn btn-sm btn-outline" disabled={revoke.isPending} onClick={() => revoke.mutate(d.token)}>
                {SECURITY_TEXT.signOutDevice}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TwoFactor({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<{ svg: string; secret: string; backupCodes: string[] } | null>(null);
  const passwordForm = useForm<PasswordOnlyInput>({ resolver: zodResolver(passwordOnlySchema), defaultValues: { password: "" } });
  const codeForm = useForm<TwoFactorCodeInput>({ resolver: zodResolver(twoFactorCodeSchema), defaultValues: { code: "" } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });

  const start = useMutation({
    mutationFn: async ({ password }: PasswordOnlyInput) => {
      const { totpURI, backupCodes } = await enableTwoFactor(password);
      const { renderSVG } = await import("uqr");
      return { svg: renderSVG(totpURI), secret: new URL(totpURI).searchParams.get("secret") ?? "", backupCodes };
    },
    onSuccess: (data) => {
      setSetup(data);
      passwordForm.reset();
    },
    onError: (e) => toast.error(message(e)),
  });
  const confirm = useMutation({
    mutationFn: ({ code }: TwoFactorCodeInput) => verifyTotp(code),
    onSuccess: () => {
      toast.success(SECURITY_TEXT.enabled);
      void refresh();
    },
    onError: (e) => toast.error(message(e)),
  });
  const stop = useMutation({
    mutationFn: ({ password }: PasswordOnlyInput) => disableTwoFactor(password),
    onSuccess: () => {
      toast.success(SECURITY_TEXT.disabled);
      setSetup(null);
      passwordForm.reset();
      void refresh();
    },
    onError: (e) => toast.error(message(e)),
  });

  return (
    <div className="flex flex-col gap-3" data-testid="two-factor">
      <h4 className="font-semibold">{SECURITY_TEXT.twoFactor}</h4>
      <p className="text-sm">{enabled ? SECURITY_TEXT.twoFactorOn : SECURITY_TEXT.twoFactorOff}</p>
      {setup && !enabled && (
        <div className="flex flex-col gap-3">
          <p className="text-sm">{SECURITY_TEXT.scan}</p>
          <div className="w-48 bg-white p-2" role="img" aria-label={SECURITY_TEXT.scan} dangerouslySetInnerHTML={{ __html: setup.svg }} />
          <p className="text-sm">
            {SECURITY_TEXT.secret} <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <form noValidate className="flex items-end gap-2" onSubmit={codeForm.handleSubmit((v) => confirm.mutate(v))}>
            <label className="block">
              <span className="mb-1 block text-sm font-medium">{RECOVERY_TEXT.code}</span>
              <input type="text" inputMode="numeric" autoComplete="one-time-code" className="input input-bordered" {...codeForm.register("code")} />
            </label>
            <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
              {SECURITY_TEXT.confirm}
            </button>
          </form>
        </div>
      )}
      {setup && (
        <div>
          <p className="text-sm">{SECURITY_TEXT.backupCodes}</p>
          <ul className="grid grid-cols-2 gap-1 font-mono text-sm" data-testid="backup-codes">
            {setup.backupCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
      )}
      {(!setup || enabled) && (
        <form noValidate className="flex items-end gap-2" onSubmit={passwordForm.handleSubmit((v) => (enabled ? stop : start).mutate(v))}>
          <label className="block">
            <span className="mb-1 block text-sm font-medium">{SECURITY_TEXT.password}</span>
            <input type="password" autoComplete="current-password" className="input input-bordered" {...passwordForm.register("password")} />
          </label>
          <button type="submit" className="btn btn-outline" disabled={start.isPending || stop.isPending}>
            {enabled ? SECURITY_TEXT.turnOff : SECURITY_TEXT.turnOn}
          </button>
        </form>
      )}
    </div>
  );
}

/** The server's reason in the customer's words: a wrong password, a stale Google sign-in, the last admin. */
const deleteMessage = (e: unknown) => (e instanceof ApiRequestError && e.status !== 429 && e.status !== 0 && e.code !== "INVALID_PASSWORD" ? e.message : message(e));

function DeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const methods = useQuery({ queryKey: [PERSONAL_KEY, "sign-in-methods"], queryFn: listSignInMethods });
  const hasPassword = (methods.data ?? []).some((m) => m.providerId === "credential");
  const [asking, setAsking] = useState<DeleteAccountInput | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const deleted = useRef(false);
  useEffect(
    () => () => {
      if (!deleted.current) return;
      queryClient.setQueryData(sessionQuery.queryKey, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === PERSONAL_KEY });
      announceSession("signed-out");
    },
    [queryClient],
  );
  const form = useForm<PasswordOnlyInput>({ resolver: zodResolver(passwordOnlySchema), defaultValues: { password: "" } });
  const { errors } = form.formState;
  const mutation = useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      setAsking(null);
      deleted.current = true;
      // Home first; the session is forgotten once this page has gone (below): forgotten while
      // the protected page is still shown, it would send the browser to /login instead.
      void navigate("/", { replace: true });
    },
    onError: (e) => {
      setAsking(null);
      setProblem(deleteMessage(e));
    },
  });
  const ask = (input: DeleteAccountInput) => {
    setProblem(null);
    setAsking(input);
  };
  if (!methods.data) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="delete-account">
      <h4 className="font-semibold">{SECURITY_TEXT.deleteHeading}</h4>
      <p className="text-sm">{SECURITY_TEXT.deleteIntro}</p>
      {hasPassword ? (
        <form noValidate className="flex flex-wrap items-end gap-2" aria-label={SECURITY_TEXT.deleteHeading} onSubmit={form.handleSubmit((v) => ask({ password: v.password }))}>
          <label className="block">
            <span className="mb-1 block text-sm font-medium">{SECURITY_TEXT.password}</span>
            <input type="password" autoComplete="current-password" className="input input-bordered" {...form.register("password")} />
            {errors.password && <span role="alert" className="text-error mt-1 block text-sm">{errors.password.message}</span>}
          </label>
          <button type="submit" className="btn btn-error btn-outline" disabled={mutation.isPending}>
            {SECURITY_TEXT.deleteButton}
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-sm">{SECURITY_TEXT.deleteWithGoogle}</p>
          <button type="button" className="btn btn-sm" onClick={() => void signInWithGoogle("/dashboard/profile").catch((e: unknown) => setProblem(authErrorMessage(e)))}>
            {SECURITY_TEXT.signInWithGoogleAgain}
          </button>
          <button type="button" className="btn btn-error btn-outline" disabled={mutation.isPending} onClick={() => ask({})}>
            {SECURITY_TEXT.deleteButton}
          </button>
        </div>
      )}
      {problem && (
        <p role="alert" className="text-error text-sm" data-testid="delete-account-error">
          {problem}
        </p>
      )}
      <ConfirmDialog
        open={asking !== null}
        question={SECURITY_TEXT.deleteQuestion}
        description={SECURITY_TEXT.deleteIntro}
        confirmLabel={SECURITY_TEXT.deleteConfirm}
        cancelLabel={SECURITY_TEXT.deleteCancel}
        busy={mutation.isPending}
        onConfirm={() => asking && mutation.mutate(asking)}
        onCancel={() => setAsking(null)}
      />
    </div>
  );
}
