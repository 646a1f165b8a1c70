/** Failed jobs: background work that used its last attempt, with its error and a retry (decision 0021). */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "react-toastify";
import type { JobFailureEntry } from "../../../contract/admin-schemas";
import { ADMIN_JOBS_TEXT } from "../../../contract/texts/admin";
import { DataTable } from "../../components/ui/data-table";
import { QueryView } from "../../components/ui/states";
import { api } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { PERSONAL_KEY } from "../../lib/session";
import { when } from "./ui";

const text = ADMIN_JOBS_TEXT;
const failedJobsKey = [PERSONAL_KEY, "admin", "jobs", "failed"] as const;
const failedJobsQuery = queryOptions({
  queryKey: failedJobsKey,
  queryFn: ({ signal }) => api.get<JobFailureEntry[]>("/api/admin/jobs/failed", signal),
});

function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ queued: true }>(`/api/admin/jobs/failed/${encodeURIComponent(id)}/retry`),
    onSuccess: () => {
      toast.success(text.retried);
      return queryClient.invalidateQueries({ queryKey: failedJobsKey });
    },
    meta: { toastError: true },
  });
}

export default function JobsPage() {
  const failed = useQuery(failedJobsQuery);
  const retry = useRetryJob();
  return (
    <div>
      <PageTitle title={text.section} />
      <h2 className="mb-2 text-2xl font-semibold">{text.section}</h2>
      <p className="mb-4 text-sm">{text.intro}</p>
      <QueryView query={failed} isEmpty={(jobs) => jobs.length === 0} empty={text.empty}>
        {(jobs) => (
          <DataTable label={text.section} columns={[text.columns.when, text.columns.queue, text.columns.error, text.columns.attempts, text.columns.actions]}>
            {jobs.map((job) => (
              <tr key={job._id} data-testid="failed-job-row">
                <td>{when(job.failedAt)}</td>
                <td>{job.queue}</td>
                <td className="max-w-md text-xs break-all">{job.error}</td>
                <td>{job.attempts}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-xs"
                    aria-label={text.retryLabel(job.queue, when(job.failedAt))}
                    disabled={retry.isPending && retry.variables === job._id}
                    onClick={() => retry.mutate(job._id)}
                  >
                    {text.retry}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
    </div>
  );
}
