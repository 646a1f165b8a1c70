import { NavLink, Outlet } from "react-router";
import { ToastContainer } from "react-toastify";
import { TOAST_OPTIONS } from "../../../contract/constants";
import { QUOTE_TEXT } from "../../../contract/texts/quotes";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
import { ACCOUNT_PAGE_TEXT } from "../../../contract/texts/trade";

const item = ({ isActive }: { isActive: boolean }) => (isActive ? "menu-active" : "");

export default function DashboardLayout() {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 md:flex-row">
      <nav aria-label={DASHBOARD_TEXT.navLabel} className="md:w-56 md:shrink-0">
        <ul className="menu bg-base-200 rounded-box w-full">
          <li>
            <NavLink to="/dashboard" end className={item}>
              {DASHBOARD_TEXT.myOrders}
            </NavLink>
          </li>
          <li>
            <NavLink to="/dashboard/quotes" className={item}>
              {QUOTE_TEXT.navLink}
            </NavLink>
          </li>
          <li>
            <NavLink to="/dashboard/account" className={item}>
              {ACCOUNT_PAGE_TEXT.navLink}
            </NavLink>
          </li>
          <li>
            <NavLink to="/dashboard/review" className={item}>
              {DASHBOARD_TEXT.addReview}
            </NavLink>
          </li>
          <li>
            <NavLink to="/dashboard/profile" className={item}>
              {DASHBOARD_TEXT.myProfile}
            </NavLink>
          </li>
        </ul>
      </nav>
      <section className="min-w-0 flex-1">
        <h1 className="text-primary mb-6 text-3xl font-bold">{DASHBOARD_TEXT.welcome}</h1>
        <Outlet />
      </section>
      <ToastContainer {...TOAST_OPTIONS} />
    </div>
  );
}
