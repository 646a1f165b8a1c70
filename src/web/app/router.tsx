import { Suspense } from "react";
import { matchPath, Route, Routes } from "react-router";
import { Spinner } from "../components/ui/states";
import { RequireAuth } from "../features/auth";
import { HomePage } from "../features/home";
import { preloadable, type Preloadable } from "../lib/preloadable";
import { ErrorBoundary } from "./error-boundary";
import { Layout } from "./layout";

/*
 * Declarative routes with lazy pages: every page but home is its own chunk, so the
 * home page downloads no other page's code. (The data router's core alone would put
 * the home page over its 100 KB budget; see docs/decisions/0005-router-mode.md.)
 */
const page = preloadable;

const ToolsPage = page(() => import("../features/catalog/routes/tools-page"));
const ToolPage = page(() => import("../features/catalog/routes/tool-page"));
const CartPage = page(() => import("../features/cart/cart-page"));
const CheckoutPage = page(() => import("../features/cart/checkout-page"));
const ConfirmationPage = page(() => import("../features/cart/confirmation-page"));
const AboutPage = page(() => import("../features/pages/about-page"));
const BlogsPage = page(() => import("../features/pages/blogs-page"));
const LegalPage = page(() => import("../features/pages/legal-page"));
const LoginPage = page(() => import("../features/auth/login-page"));
const SignupPage = page(() => import("../features/auth/signup-page"));
const ForgotPasswordPage = page(() => import("../features/auth/forgot-password-page"));
const ResetPasswordPage = page(() => import("../features/auth/reset-password-page"));
const TwoFactorPage = page(() => import("../features/auth/two-factor-page"));
const PurchasePage = page(() => import("../features/purchase/purchase-page"));
const DashboardLayout = page(() => import("../features/dashboard/dashboard-layout"));
const MyOrders = page(() => import("../features/dashboard/my-orders"));
const OrderPage = page(() => import("../features/dashboard/order-page"));
const AddReview = page(() => import("../features/dashboard/add-review"));
const MyProfile = page(() => import("../features/dashboard/my-profile"));
const NotFoundPage = page(() => import("../features/pages/not-found-page"));
// The admin console: its own chunk, with routes of its own; never downloaded by a shopper.
const AdminConsole = page(() => import("../features/admin/console"));

/** The server-rendered pages with a chunk of their own (home is in the entry), by route pattern. */
const SERVER_RENDERED_PAGES: [pattern: string, page: Preloadable][] = [
  ["/tools", ToolsPage],
  ["/tools/:id", ToolPage],
  ["/about", AboutPage],
  ["/blogs", BlogsPage],
  ["/legal", LegalPage],
];

/**
 * Loads the chunk of the server-rendered page at `pathname`, so that the browser hydrates that
 * page with the rest instead of waiting for its code. The server renders only the pages above,
 * home and the 404 page, so any other path is the 404 page's.
 */
export function preloadPage(pathname: string): Promise<void> {
  if (pathname === "/") return Promise.resolve();
  const found = SERVER_RENDERED_PAGES.find(([pattern]) => matchPath(pattern, pathname) !== null);
  return (found?.[1] ?? NotFoundPage).preload();
}

function Lazy({ component: Component }: { component: Preloadable }) {
  return (
    <ErrorBoundary>
      <Suspense fallback={<Spinner />}>
        <Component />
      </Suspense>
    </ErrorBoundary>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="tools" element={<Lazy component={ToolsPage} />} />
        <Route path="tools/:id" element={<Lazy component={ToolPage} />} />
        <Route path="cart" element={<Lazy component={CartPage} />} />
        <Route path="about" element={<Lazy component={AboutPage} />} />
        <Route path="blogs" element={<Lazy component={BlogsPage} />} />
        <Route path="legal" element={<Lazy component={LegalPage} />} />
        <Route path="login" element={<Lazy component={LoginPage} />} />
        <Route path="signup" element={<Lazy component={SignupPage} />} />
        <Route path="forgot-password" element={<Lazy component={ForgotPasswordPage} />} />
        <Route path="reset-password" element={<Lazy component={ResetPasswordPage} />} />
        <Route path="two-factor" element={<Lazy component={TwoFactorPage} />} />
        <Route element={<RequireAuth />}>
          <Route path="purchase/:id" element={<Lazy component={PurchasePage} />} />
          <Route path="checkout" element={<Lazy component={CheckoutPage} />} />
          <Route path="checkout/confirmation/:id" element={<Lazy component={ConfirmationPage} />} />
          <Route path="dashboard" element={<Lazy component={DashboardLayout} />}>
            <Route index element={<Lazy component={MyOrders} />} />
            <Route path="orders/:id" element={<Lazy component={OrderPage} />} />
            <Route path="review" element={<Lazy component={AddReview} />} />
            <Route path="profile" element={<Lazy component={MyProfile} />} />
          </Route>
        </Route>
        <Route path="admin/*" element={<Lazy component={AdminConsole} />} />
        <Route path="*" element={<Lazy component={NotFoundPage} />} />
      </Route>
    </Routes>
  );
}
