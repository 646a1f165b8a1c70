import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDollars } from "../../../contract/money";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { EmptyState, QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { summaryQuery } from "./api";

const dashboardText = ADMIN_TEXT.dashboard;

export default function Dashboard() {
  const summary = useQuery(summaryQuery());
  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.dashboard} />
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.dashboard}</h2>
      <QueryView query={summary} isEmpty={() => false} empty={null}>
        {(s) => (
          <div className="grid gap-6 lg:grid-cols-2">
            <section className="card bg-base-100 border-base-300 border lg:col-span-2">
              <div className="card-body">
                <h3 className="card-title">{dashboardText.sales}</h3>
                {s.salesPerDay.every((d) => d.orders === 0) ? (
                  <EmptyState>{dashboardText.noSales}</EmptyState>
                ) : (
                  <div className="h-64" role="img" aria-label={dashboardText.salesLabel} data-testid="sales-chart">
                    <ResponsiveContainer width="100%" height="100%">
                      <BarChart data={s.salesPerDay}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="day" tickFormatter={(d: string) => d.slice(5)} />
                        <YAxis />
                        <Tooltip formatter={(v) => formatDollars(Number(v))} />
                        <Bar dataKey="total" name={dashboardText.salesLabel} fill="#2563eb" />
                      </BarChart>
                    </ResponsiveContainer>
                  </div>
                )}
              </div>
            </section>
            <section className="card bg-base-100 border-base-300 border">
              <div className="card-body">
                <h3 className="card-title">{dashboardText.ordersByStatus}</h3>
                <ul data-testid="orders-by-status">
                  {s.ordersByStatus.map((o) => (
                    <li key={o.status} className="flex justify-between">
                      <span>{ADMIN_TEXT.statuses[o.status]}</span>
                      <span className="font-semibold">{o.count}</span>
                    </li>
                  ))}
                </ul>
              </div>
            </section>
            <section className="card bg-base-100 border-base-300 border">
              <div className="card-body">
                <h3 className="card-title">{dashboardText.topTools}</h3>
                {s.topTools.length === 0 ? (
                  <EmptyState>{dashboardText.noTopTools}</EmptyState>
                ) : (
                  <ol className="list-decimal pl-5">
                    {s.topTools.map((t) => (
                      <li key={t.toolId}>
                        {t.name}: {dashboardText.sold(t.quantity)}, {formatDollars(t.total)}
                      </li>
                    ))}
                  </ol>
                )}
              </div>
            </section>
            <section className="card bg-base-100 border-base-300 border lg:col-span-2">
              <div className="card-body">
                <h3 className="card-title">{dashboardText.lowStock}</h3>
                {s.lowStock.length === 0 ? (
                  <EmptyState>{dashboardText.noLowStock}</EmptyState>
                ) : (
                  <ul data-testid="low-stock">
                    {s.lowStock.map((t) => (
                      <li key={t.toolId}>
                        {t.name}: {dashboardText.left(t.availableQuantity, t.threshold)}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </section>
          </div>
        )}
      </QueryView>
    </div>
  );
}
