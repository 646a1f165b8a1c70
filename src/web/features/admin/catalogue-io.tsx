/**
 * The catalogue's spreadsheet (issue 51): the export is a plain download; the import uploads the
 * file (a dry run or the real thing), then follows its job's progress until it says what it
 * created, updated and left unchanged, or lists the file's problems by line and column.
 */
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { CatalogueImport } from "../../../contract/catalogue-io";
import type { ApiErrorBody } from "../../../contract/schemas";
import { CATALOGUE_IO_CONSOLE_TEXT } from "../../../contract/texts/catalogue-io";
import { TEXT } from "../../../contract/texts/site";
import { DataTable } from "../../components/ui/data-table";
import { api, ApiRequestError } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { PERSONAL_KEY } from "../../lib/session";

const text = CATALOGUE_IO_CONSOLE_TEXT;
export const CATALOGUE_CSV_URL = "/api/admin/catalogue.csv";
/** A failed import's rows with errors, as CSV (io-routes.ts). */
const badRowsUrl = (importId: string) => `/api/admin/catalogue/imports/${encodeURIComponent(importId)}/bad-rows.csv`;
const IMPORTS_URL = "/api/admin/catalogue/imports";
/** How often a running import is asked for its progress. */
const POLL_MS = 1_000;

const importQuery = (id: string) =>
  queryOptions({
    queryKey: [PERSONAL_KEY, "admin", "catalogue-import", id],
    queryFn: ({ signal }) => api.get<CatalogueImport>(`${IMPORTS_URL}/${encodeURIComponent(id)}`, signal),
    refetchInterval: (query) => (query.state.data?.status === "done" || query.state.data?.status === "failed" ? false : POLL_MS),
  });

/** The file as multipart (the JSON fetcher does not send files). */
async function startImport(file: File, dryRun: boolean): Promise<{ _id: string }> {
  const form = new FormData();
  form.append("file", file);
  let response: Response;
  try {
    response = await fetch(`${IMPORTS_URL}?dryRun=${dryRun}`, { method: "POST", credentials: "same-origin", headers: { accept: "application/json" }, body: form });
  } catch {
    throw new ApiRequestError(0, "NETWORK", TEXT.states.networkError);
  }
  const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody> & { _id?: string };
  if (!response.ok || !body._id) throw new ApiRequestError(response.status, body.error ?? `HTTP_${response.status}`, body.message ?? TEXT.states.error, body);
  return { _id: body._id };
}

function ImportStatus({ id }: { id: string }) {
  const status = useQuery(importQuery(id));
  const data = status.data;
  if (status.isError) return <p role="alert" className="text-error">{status.error.message}</p>;
  if (!data) return <p role="status">{text.queued}</p>;
  if (data.status === "queued" || data.status === "running") {
    return (
      <div role="status" className="flex flex-col gap-2">
        <span>{data.status === "queued" ? text.queued : text.running(data.processed, data.rows)}</span>
        <progress className="progress progress-primary w-full max-w-md" aria-label={text.progress} max={Math.max(data.rows, 1)} value={data.rows > 0 ? data.processed : undefined} />
      </div>
    );
  }
  if (data.status === "done") {
    return (
      <p role="status" className="text-success font-semibold" data-testid="import-outcome">
        {(data.dryRun ? text.dryDone : text.done)(data.created, data.updated, data.unchanged)}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3" data-testid="import-outcome">
      <p role="alert" className="text-error font-semibold">
        {text.failed(data.errors.length)}
      </p>
      {/* Rows to put right and import again; a file refused whole (unreadable, its header) has none. */}
      {data.errors.some((error) => error.line > 1) && (
        <a className="btn btn-outline w-fit" href={badRowsUrl(data._id)} download>
          {text.downloadBadRows}
        </a>
      )}
      <DataTable label={text.errorsTable} columns={text.columns} small>
        {data.errors.map((error, i) => (
          <tr key={`${error.line}-${error.column}-${i}`} data-testid="import-error">
            <td>{error.line}</td>
            <td>{error.column || text.wholeFile}</td>
            <td>{error.message}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

export default function CatalogueIoPage() {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [current, setCurrent] = useState<string | null>(null);
  const start = useMutation({ mutationFn: ({ chosen, dry }: { chosen: File; dry: boolean }) => startImport(chosen, dry), onSuccess: ({ _id }) => setCurrent(_id) });
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) return setMissing(true);
    setMissing(false);
    setCurrent(null);
    start.mutate({ chosen: file, dry: dryRun });
  };
  return (
    <div>
      <PageTitle title={text.title} />
      <h2 className="mb-2 text-2xl font-semibold">{text.title}</h2>
      <p className="mb-4 text-sm">{text.intro}</p>
      <section className="card bg-base-200 mb-6" aria-labelledby={`${fileId}-export`}>
        <div className="card-body flex flex-col gap-3">
          <h3 id={`${fileId}-export`} className="card-title">
            {text.exportTitle}
          </h3>
          <p className="text-sm">{text.exportHint}</p>
          <a className="btn w-fit" href={CATALOGUE_CSV_URL} download="catalogue.csv">
            {text.download}
          </a>
        </div>
      </section>
      <section className="card bg-base-200 mb-6" aria-labelledby={`${fileId}-import`}>
        <form className="card-body flex flex-col gap-3" onSubmit={submit} noValidate>
          <h3 id={`${fileId}-import`} className="card-title">
            {text.importTitle}
          </h3>
          <label className="form-control flex flex-col gap-1" htmlFor={fileId}>
            <span className="label-text">{text.file}</span>
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            className="file-input file-input-bordered w-full max-w-md"
            aria-invalid={missing || undefined}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setMissing(false);
            }}
          />
          {missing && (
            <p role="alert" className="text-error text-sm">
              {text.chooseFile}
            </p>
          )}
          <label className="flex cursor-pointer items-center gap-2">
            <input type="checkbox" className="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
            <span>{text.dryRun}</span>
          </label>
          <button type="submit" className="btn btn-primary w-fit" disabled={start.isPending}>
            {start.isPending ? text.sending : dryRun ? text.checking : text.submit}
          </button>
          {start.isError && (
            <p role="alert" className="text-error">
              {text.startFailed} {start.error.message}
            </p>
          )}
        </form>
      </section>
      {current && <ImportStatus key={current} id={current} />}
    </div>
  );
}
