import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify";
import { profileInputSchema, type Profile, type ProfileInput } from "../../../contract/schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
import { QueryView } from "../../components/ui/states";
import { AddressFields, profileQuery, useSaveProfile } from "../account";
import { PageTitle } from "../../lib/page-title";
import { SecuritySection } from "./security";

const profileText = DASHBOARD_TEXT.profile;

export default function MyProfile() {
  const profile = useQuery(profileQuery());
  return (
    <div className="max-w-xl">
      <PageTitle title={DASHBOARD_TEXT.myProfile} />
      <h2 className="mb-4 text-2xl font-semibold">{DASHBOARD_TEXT.myProfile}</h2>
      <QueryView query={profile} isEmpty={() => false} empty={null}>
        {(data) => <ProfileForm key={[data.address, data.phone, data.city, data.region, data.postalCode, data.country].join("|")} profile={data} />}
      </QueryView>
      <SecuritySection />
    </div>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const form = useForm<ProfileInput>({
    resolver: zodResolver(profileInputSchema),
    defaultValues: { address: profile.address, city: profile.city, region: profile.region, postalCode: profile.postalCode, country: profile.country, phone: profile.phone },
  });
  const { errors } = form.formState;
  const mutation = useSaveProfile({ onSuccess: () => toast.success(profileText.saved), onError: (error) => toast.error(error.message) });

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        <dt className="font-medium">{profileText.displayName}</dt>
        <dd data-testid="profile-name">{profile.displayName}</dd>
        <dt className="font-medium">{profileText.email}</dt>
        <dd data-testid="profile-email">{profile.email}</dd>
        {profile.taxExemptCertificate && (
          <>
            <dt className="font-medium">{MONEY_TEXT.tax}</dt>
            <dd data-testid="profile-tax-exempt">{MONEY_TEXT.taxExempt(profile.taxExemptCertificate)}</dd>
          </>
        )}
      </dl>
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="flex flex-col gap-4">
        <label className="block">
          <span className="mb-1 block text-sm font-medium">{profileText.address}</span>
          <input type="text" autoComplete="street-address" className="input input-bordered w-full" {...form.register("address")} />
          {errors.address && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.address.message}
            </span>
          )}
        </label>
        <AddressFields form={form} />
        <label className="block">
          <span className="mb-1 block text-sm font-medium">{profileText.phone}</span>
          <input type="tel" autoComplete="tel" className="input input-bordered w-full" {...form.register("phone")} />
          {errors.phone && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.phone.message}
            </span>
          )}
        </label>
        <button type="submit" className="btn btn-primary self-start" disabled={mutation.isPending}>
          {mutation.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {profileText.save}
        </button>
      </form>
    </div>
  );
}
