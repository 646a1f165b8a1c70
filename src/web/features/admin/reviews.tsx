import { useQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { PageTitle } from "../../lib/page-title";
import { reviewsQuery, useSetReviewHidden } from "./api";
import { AdminList, useFilters } from "./ui";

const reviewsText = ADMIN_TEXT.reviews;

export default function ReviewsPage() {
  const { values, page, set } = useFilters(["hidden"] as const);
  const reviews = useQuery(reviewsQuery({ ...values, page }));
  const setHidden = useSetReviewHidden();
  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.reviews} />
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.reviews}</h2>
      <label className="form-control mb-4">
        <span className="label-text">{reviewsText.filter}</span>
        <select className="select select-bordered" value={values.hidden} onChange={(e) => set("hidden", e.target.value)}>
          <option value="">{reviewsText.all}</option>
          <option value="false">{reviewsText.visible}</option>
          <option value="true">{reviewsText.hiddenOnly}</option>
        </select>
      </label>
      <AdminList
        query={reviews}
        label={ADMIN_TEXT.sections.reviews}
        empty={reviewsText.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[reviewsText.columns.name, reviewsText.columns.rating, reviewsText.columns.text, reviewsText.columns.author, reviewsText.columns.state, reviewsText.columns.actions]}
      >
        {(r) => (
          <tr key={r._id} data-testid="admin-review-row">
            <td>
              {r.name}
              {r.verifiedBuyer && <span className="badge badge-success badge-soft badge-sm ml-2">{reviewsText.verified}</span>}
            </td>
            <td>{r.rating}</td>
            <td className="max-w-md break-words">{r.description}</td>
            <td>{r.authorEmail ?? ADMIN_TEXT.orders.none}</td>
            <td>{r.hidden ? reviewsText.hidden : reviewsText.shown}</td>
            <td>
              <button
                type="button"
                className="btn btn-xs"
                disabled={setHidden.isPending}
                onClick={() =>
                  setHidden.mutate(
                    { id: r._id, hidden: !r.hidden },
                    { onSuccess: () => toast.success(r.hidden ? reviewsText.restoredToast : reviewsText.hiddenToast) },
                  )
                }
              >
                {r.hidden ? reviewsText.restore : reviewsText.hide}
              </button>
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}
