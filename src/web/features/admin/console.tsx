/**
 * The admin console, /admin/*: one lazily loaded chunk (the dashboard's chart library in a
 * chunk of its own), so a shopper never downloads any of it. A visitor is sent to log in; a signed-in customer is sent home (the API
 * answers them 403 anyway).
 */
import { lazy, Suspense } from "react";
import { Navigate, NavLink, Route, Routes, useLocation } from "react-router";
import { ToastContainer } from "react-toastify";
import { TOAST_OPTIONS } from "../../../contract/constants";
import { ADMIN_JOBS_TEXT, ADMIN_MONEY_TEXT, ADMIN_TEXT } from "../../../contract/texts/admin";
import { TEXT } from "../../../contract/texts/site";
import { Spinner } from "../../components/ui/states";
import { useSession } from "../../lib/session";
import AuditPage from "./audit";
import OrdersPage, { OrderPage } from "./orders";
import ReviewsPage from "./reviews";
import ToolsPage, { ToolLedgerPage } from "./tools";
import UsersPage from "./users";
import { MAIL_ADMIN_TEXT } from "../../../contract/texts/mail";
import { ADMIN_QUOTE_TEXT } from "../../../contract/texts/quotes";
import { ADMIN_TRADE_TEXT } from "../../../contract/texts/trade";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { REFUND_TEXT } from "../../../contract/texts/refunds";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import { CATALOGUE_IO_CONSOLE_TEXT } from "../../../contract/texts/catalogue-io";

/** The dashboard carries the chart library: a chunk of its own, loaded only when it is opened. */
const Dashboard = lazy(() => import("./dashboard"));
const MailPage = lazy(() => import("./mail"));
/** Failed background jobs (decision 0021): a chunk of its own. */
const JobsPage = lazy(() => import("./jobs"));
/** The catalogue's spreadsheet (issue 51): export and import, a chunk of its own. */
const CatalogueIoPage = lazy(() => import("./catalogue-io"));
/** Refunds (issue 40): the refund worker's jobs, a chunk of its own. */
const RefundsPage = lazy(() => import("./refunds"));
const ReturnsPage = lazy(() => import("./returns"));
/** The money pages (issue 31): one chunk each, loaded when opened. */
const TaxRatesPage = lazy(() => import("./tax-rates"));
const PromotionsPage = lazy(() => import("./promotions"));
const ShippingPage = lazy(() => import("./shipping"));
const StoreSettingsPage = lazy(() => import("./store-settings"));
/** Quotes (issue 41): a chunk of its own. */
const QuotesSection = lazy(() => import("./quotes"));
/** Trade accounts (issue 43): a chunk of its own. */
const AccountsSection = lazy(() => import("./accounts"));
/** The catalogue's records (issue 50): one chunk each. */
const BrandsPage = lazy(() => import("./brands"));
const CategoriesPage = lazy(() => import("./categories"));
const SpecsPage = lazy(() => import("./specs"));
const ProductsSection = lazy(() => import("./products"));

const sectionsText = ADMIN_TEXT.sections;
const SECTIONS = [
  { to: "/admin", label: sectionsText.dashboard, end: true },
  { to: "/admin/tools", label: sectionsText.tools },
  { to: "/admin/products", label: CATALOGUE_ADMIN_TEXT.sections.products },
  { to: "/admin/categories", label: CATALOGUE_ADMIN_TEXT.sections.categories },
  { to: "/admin/brands", label: CATALOGUE_ADMIN_TEXT.sections.brands },
  { to: "/admin/specs", label: CATALOGUE_ADMIN_TEXT.sections.specs },
  { to: "/admin/catalogue-io", label: CATALOGUE_IO_CONSOLE_TEXT.section },
  { to: "/admin/orders", label: sectionsText.orders },
  { to: "/admin/reviews", label: sectionsText.reviews },
  { to: "/admin/users", label: sectionsText.users },
  { to: "/admin/quotes", label: ADMIN_QUOTE_TEXT.section },
  { to: "/admin/accounts", label: ADMIN_TRADE_TEXT.section },
  { to: "/admin/tax-rates", label: ADMIN_MONEY_TEXT.sections.taxRates },
  { to: "/admin/promotions", label: ADMIN_MONEY_TEXT.sections.promotions },
  { to: "/admin/shipping", label: ADMIN_MONEY_TEXT.sections.shipping },
  { to: "/admin/settings", label: ADMIN_MONEY_TEXT.sections.settings },
  { to: "/admin/audit", label: sectionsText.audit },
  { to: "/admin/mail", label: MAIL_ADMIN_TEXT.section },
  { to: "/admin/jobs", label: ADMIN_JOBS_TEXT.section },
  { to: "/admin/refunds", label: PAYMENT_TEXT.refunds.title },
  { to: "/admin/returns", label: REFUND_TEXT.returns.console.title },
];

export default function AdminConsole() {
  const { user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Spinner label={TEXT.states.checkingSession} />;
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (user.role !== "admin") return <Navigate to="/" replace />;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <ToastContainer {...TOAST_OPTIONS} />
      <h1 className="mb-4 text-3xl font-bold">{ADMIN_TEXT.title}</h1>
      <div className="flex flex-col gap-6 md:flex-row">
        <nav aria-label={ADMIN_TEXT.menuLabel} className="md:w-48 md:shrink-0">
          <ul className="menu bg-base-200 rounded-box w-full">
            {SECTIONS.map((s) => (
              <li key={s.to}>
                <NavLink to={s.to} end={s.end} className={({ isActive }) => (isActive ? "menu-active font-semibold" : "")}>
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          <Routes>
            <Route
              index
              element={
                <Suspense fallback={<Spinner />}>
                  <Dashboard />
                </Suspense>
              }
            />
            <Route path="tools" element={<ToolsPage />} />
            <Route path="tools/:id" element={<ToolLedgerPage />} />
            <Route path="orders" element={<OrdersPage />} />
            <Route path="orders/:id" element={<OrderPage />} />
            <Route path="reviews" element={<ReviewsPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="audit" element={<AuditPage />} />
            <Route
              path="returns"
              element={
                <Suspense fallback={<Spinner />}>
                  <ReturnsPage />
                </Suspense>
              }
            />
            <Route
              path="refunds"
              element={
                <Suspense fallback={<Spinner />}>
                  <RefundsPage />
                </Suspense>
              }
            />
            <Route
              path="catalogue-io"
              element={
                <Suspense fallback={<Spinner />}>
                  <CatalogueIoPage />
                </Suspense>
              }
            />
            <Route
              path="jobs"
              element={
                <Suspense fallback={<Spinner />}>
                  <JobsPage />
                </Suspense>
              }
            />
            <Route
              path="mail"
              element={
                <Suspense fallback={<Spinner />}>
                  <MailPage />
                </Suspense>
              }
            />
            <Route
              path="tax-rates"
              element={
                <Suspense fallback={<Spinner />}>
                  <TaxRatesPage />
                </Suspense>
              }
            />
            <Route
              path="promotions"
              element={
                <Suspense fallback={<Spinner />}>
                  <PromotionsPage />
                </Suspense>
              }
            />
            <Route
              path="shipping"
              element={
                <Suspense fallback={<Spinner />}>
                  <ShippingPage />
                </Suspense>
              }
            />
            <Route
              path="settings"
              element={
                <Suspense fallback={<Spinner />}>
                  <StoreSettingsPage />
                </Suspense>
              }
            />
            <Route
              path="quotes/*"
              element={
                <Suspense fallback={<Spinner />}>
                  <QuotesSection />
                </Suspense>
              }
            />
            <Route
              path="accounts/*"
              element={
                <Suspense fallback={<Spinner />}>
                  <AccountsSection />
                </Suspense>
              }
            />
            {(
              [
                ["brands", <BrandsPage key="brands" />],
                ["categories", <CategoriesPage key="categories" />],
                ["specs", <SpecsPage key="specs" />],
                ["products/*", <ProductsSection key="products" />],
              ] as const
            ).map(([path, page]) => (
              <Route key={path} path={path} element={<Suspense fallback={<Spinner />}>{page}</Suspense>} />
            ))}
            <Route path="*" element={<Navigate to="/admin" replace />} />
          </Routes>
        </div>
      </div>
    </div>
  );
}
